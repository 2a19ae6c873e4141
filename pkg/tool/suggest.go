package tool

import "strings"

// Suggest returns the name in names that name most likely meant, for a
// "did you mean" hint, or "" when none is close. It is shared by --cli and
// the MCP server's unknown-tool error, so both suggest the same.
//
// In order: the same name up to case and '-' or ' ' for '_'; the same
// words in another order (issue_create); a small edit distance (a typo:
// at most 2 edits, or a third of the name's length); then a name holding
// all of name's words in order, a plural read as its singular (list_issues
// → list_repo_issues), the one with fewest other words winning. Ties go to
// the first in names, the inventory's order.
func Suggest(name string, names []string) string {
	n := normalizeName(name)
	if n == "" || len(n) > 100 {
		return ""
	}
	words := strings.Split(n, "_")
	for _, c := range names {
		if normalizeName(c) == n {
			return c
		}
	}
	for _, c := range names {
		if sameWords(words, strings.Split(normalizeName(c), "_")) {
			return c
		}
	}
	best, bestDist := "", max(2, len(n)/3)+1
	for _, c := range names {
		if d := editDistance(n, normalizeName(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best != "" {
		return best
	}
	bestExtra := -1
	for _, c := range names {
		cw := strings.Split(normalizeName(c), "_")
		if containsInOrder(cw, words) && (bestExtra < 0 || len(cw)-len(words) < bestExtra) {
			best, bestExtra = c, len(cw)-len(words)
		}
	}
	return best
}

func normalizeName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer("-", "_", " ", "_", ".", "_").Replace(s)
}

func sameWords(a, b []string) bool {
	if len(a) != len(b) || len(a) < 2 {
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
// order, a trailing "s" ignored on either side.
func containsInOrder(have, want []string) bool {
	i := 0
	for _, w := range have {
		if i < len(want) && strings.TrimSuffix(w, "s") == strings.TrimSuffix(want[i], "s") {
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
