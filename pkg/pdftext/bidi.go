package pdftext

import (
	"slices"
	"strings"
	"unicode"
)

// Right-to-left text (Hebrew, Arabic) is drawn left to right, glyph by
// glyph, so the content order of its glyphs is the visual order. A line
// is turned back into logical order the simple way: each run of
// right-to-left letters (with the spaces and marks between them) is
// reversed, keeping combining marks after their letter; in a line that
// starts right to left, the order of runs is reversed too, so numbers
// and Latin words stay readable.

func isRTL(r rune) bool {
	return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko)
}

func hasRTL(s string) bool {
	for _, r := range s {
		if r >= 0x590 && isRTL(r) {
			return true
		}
	}
	return false
}

// cluster is a letter and the marks that follow it.
type cluster []rune

func clusters(s string) []cluster {
	var out []cluster
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) && len(out) > 0 {
			out[len(out)-1] = append(out[len(out)-1], r)
			continue
		}
		out = append(out, cluster{r})
	}
	return out
}

func logicalOrder(line string) string {
	cs := clusters(line)
	type run struct {
		rtl bool
		cs  []cluster
	}
	var runs []run
	for i := 0; i < len(cs); {
		rtl := isRTL(cs[i][0])
		j := i + 1
		for j < len(cs) {
			r := cs[j][0]
			if isRTL(r) != rtl && !(rtl && (r == ' ' || unicode.IsPunct(r)) && j+1 < len(cs) && isRTL(cs[j+1][0])) {
				break
			}
			j++
		}
		runs = append(runs, run{rtl, cs[i:j]})
		i = j
	}
	for _, r := range runs {
		if r.rtl {
			slices.Reverse(r.cs)
		}
	}
	rtlLine := false
	for _, r := range runs {
		if strings.TrimSpace(string(r.cs[0])) != "" {
			rtlLine = r.rtl
			break
		}
	}
	if rtlLine {
		slices.Reverse(runs)
	}
	var b strings.Builder
	for _, r := range runs {
		for _, c := range r.cs {
			b.WriteString(string(c))
		}
	}
	return b.String()
}
