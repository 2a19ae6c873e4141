package tool

import (
	"slices"
	"strings"
)

// Suggest returns the name in names that name most likely meant, for a
// "did you mean" hint, or "" when none is close. It is shared by --cli and
// the MCP server's unknown-tool error, so both suggest the same.
//
// Meaning first, spelling last (issue 28: get_issue suggested
// get_issue_comment, one edit away from nothing, rather than
// get_issue_by_index). Words are compared with a plural read as its
// singular and a few synonyms (pr → pull_request, repository → repo,
// organization → org). In order:
//
//  1. the same words, in any order (Get-Issue-By-Index, issue_create);
//  2. the same thing: a name holding all of name's words in order whose
//     head noun (its last word but qualifiers such as by, index, id, tag)
//     is name's (get_issue → get_issue_by_index, not get_issue_comment;
//     list_issues → list_repo_issues, not list_issue_comments);
//  3. a name that begins with name's words (get_file → get_file_content);
//  4. a name holding all of name's words in order;
//  5. a small edit distance (a typo: at most 2 edits, or a third of the
//     name's length).
//
// Among several at one step, the fewest words that are not qualifiers,
// then the fewest words, win.
//
// Ties go to the first in names, the inventory's order.
func Suggest(name string, names []string) string {
	n := normalizeName(name)
	if n == "" || len(n) > 100 {
		return ""
	}
	words := nameWords(n)
	cands := make([][]string, len(names))
	for i, c := range names {
		cands[i] = nameWords(normalizeName(c))
	}
	for i, cw := range cands {
		if sameWords(words, cw) {
			return names[i]
		}
	}
	// The same thing: all of name's words in order and the same head
	// noun, its last word but qualifiers.
	best := pick(cands, func(cw []string) bool {
		return containsInOrder(cw, words) && head(cw) == head(words)
	})
	if best < 0 {
		best = pick(cands, func(cw []string) bool {
			return len(cw) > len(words) && slices.Equal(cw[:len(words)], words)
		})
	}
	if best >= 0 {
		return names[best]
	}
	if best = pick(cands, func(cw []string) bool { return containsInOrder(cw, words) }); best >= 0 {
		return names[best]
	}
	bestDist := max(2, len(n)/3) + 1
	for i, c := range names {
		if d := editDistance(n, normalizeName(c)); d < bestDist {
			best, bestDist = i, d
		}
	}
	if best >= 0 {
		return names[best]
	}
	return ""
}

func normalizeName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer("-", "_", " ", "_", ".", "_").Replace(s)
}

// synonyms are words an agent uses for what the tool names call otherwise.
var synonyms = map[string][]string{
	"pr": {"pull", "request"}, "mr": {"pull", "request"}, "pullrequest": {"pull", "request"},
	"repository": {"repo"}, "organization": {"org"}, "organisation": {"org"}, "asset": {"attachment"},
}

// nameWords splits a normalised name into words, each singular and with
// its synonym's words.
func nameWords(n string) []string {
	var out []string
	for _, w := range strings.Split(n, "_") {
		if w == "" {
			continue
		}
		switch {
		case len(w) > 4 && strings.HasSuffix(w, "ies"):
			w = strings.TrimSuffix(w, "ies") + "y" // repositories, dependencies
		case len(w) > 1 && !strings.HasSuffix(w, "ss"):
			w = strings.TrimSuffix(w, "s")
		}
		if syn, ok := synonyms[w]; ok {
			out = append(out, syn...)
			continue
		}
		out = append(out, w)
	}
	return out
}

// pick returns the index of the candidate ok accepts with the fewest words
// that are not qualifiers, then the fewest words; -1 when ok accepts none.
func pick(cands [][]string, ok func([]string) bool) int {
	best, bestRank := -1, [2]int{}
	for i, cw := range cands {
		if !ok(cw) {
			continue
		}
		rank := [2]int{len(cw) - qualifiers(cw), len(cw)}
		if best < 0 || rank[0] < bestRank[0] || rank[0] == bestRank[0] && rank[1] < bestRank[1] {
			best, bestRank = i, rank
		}
	}
	return best
}

// head is the last word of words that is not a qualifier: what a name
// is about.
func head(words []string) string {
	for i := len(words) - 1; i >= 0; i-- {
		if !slices.Contains(qualifying, words[i]) {
			return words[i]
		}
	}
	return ""
}

// qualifying words pick one of a thing, they do not name another thing.
var qualifying = []string{"by", "index", "id", "number", "tag", "name", "ref"}

func qualifiers(words []string) int {
	n := 0
	for _, w := range words {
		if slices.Contains(qualifying, w) {
			n++
		}
	}
	return n
}

func sameWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, w := range a {
		count[w]++
	}
	for _, w := range b {
		count[w]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

// containsInOrder reports whether every word of want appears in have, in
// order.
func containsInOrder(have, want []string) bool {
	i := 0
	for _, w := range have {
		if i < len(want) && w == want[i] {
			i++
		}
	}
	return i == len(want)
}

// editDistance is the Levenshtein distance of a and b, in bytes (names
// are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
