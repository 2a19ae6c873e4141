package meta

import (
	"sort"
	"strings"
	"unicode"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Weights of where a query word is found in a tool: its name says what it
// does most exactly, its toolset and title next, its description and
// parameters last.
const (
	inName        = 6
	inToolset     = 3
	inTitle       = 3
	inDescription = 2
	inParams      = 1
)

// Rank returns the tools of defs that match query, best first; ties keep
// the inventory's order. An empty query matches every tool. A word counts
// once, where it weighs most; a word found only as the start of a longer
// one ("secr") counts half; a tool matching every word of the query goes
// before one matching fewer, whatever their weights.
func Rank(defs []tool.Def, query string) []tool.Def {
	words := Words(query)
	type scored struct {
		d       tool.Def
		matched int
		score   int
	}
	var out []scored
	for _, d := range defs {
		doc := index(d)
		s := scored{d: d}
		for _, w := range words {
			best := 0
			for _, f := range doc {
				if v := f.match(w); v > best {
					best = v
				}
			}
			if best > 0 {
				s.matched++
				s.score += best
			}
		}
		if d.Name == strings.TrimSpace(query) {
			s.score += 100
		}
		if len(words) == 0 || s.matched > 0 {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].matched != out[j].matched {
			return out[i].matched > out[j].matched
		}
		return out[i].score > out[j].score
	})
	defs = make([]tool.Def, len(out))
	for i, s := range out {
		defs[i] = s.d
	}
	return defs
}

// field is a set of words with the weight of a match in it.
type field struct {
	words  []string
	weight int
}

// match is w's weight in f: whole, or half as a prefix of a word.
func (f field) match(w string) int {
	best := 0
	for _, x := range f.words {
		switch {
		case x == w:
			return f.weight * 2
		case len(w) >= 3 && strings.HasPrefix(x, w):
			best = f.weight
		}
	}
	return best
}

func index(d tool.Def) []field {
	params := make([]string, 0, len(d.Params))
	for _, p := range d.Params {
		params = append(params, p.Name)
	}
	return []field{
		{Words(d.Name), inName},
		{Words(d.Toolset.ID), inToolset},
		{Words(d.Title), inTitle},
		{Words(d.Description), inDescription},
		{Words(strings.Join(params, " ")), inParams},
	}
}

// stop are words that say nothing about which tool is meant.
var stop = map[string]bool{"a": true, "an": true, "the": true, "of": true, "to": true, "for": true, "in": true, "on": true,
	"and": true, "or": true, "with": true, "by": true, "from": true, "is": true, "it": true, "its": true, "my": true,
	"i": true, "how": true, "what": true, "which": true, "this": true, "that": true, "all": true, "one": true, "be": true}

// same maps words that mean the same here to one of them.
var same = map[string]string{
	"repository": "repo", "organisation": "org", "organization": "org", "pr": "pull", "mr": "pull", "remove": "delete", "add": "create", "new": "create",
	"update": "edit", "change": "edit", "modify": "edit", "show": "get", "read": "get", "fetch": "get",
	"ci": "action", "pipeline": "workflow", "env": "variable", "var": "variable", "trigger": "dispatch",
}

// Words splits s into lower-case words, without stop words, each folded
// to the one form the index uses: singular (runners, repositories), and
// one spelling of a synonym (repository→repo, remove→delete).
func Words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stop[w] || len(w) < 2 {
			// A single letter is a stop word too: the s of a
			// possessive ("repository's"), a list's (a).
			continue
		}
		out = append(out, fold(w))
	}
	return out
}

func fold(w string) string {
	if v, ok := same[w]; ok {
		return v
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && len(w) > 3:
		w = w[:len(w)-1]
	}
	if v, ok := same[w]; ok {
		return v
	}
	return w
}
