package pdftext

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Right-to-left text (Hebrew, Arabic) is drawn glyph by glyph in visual
// order, left to right, so that is the content order of its glyphs; a
// shaping engine (HarfBuzz, in Chromium and XeTeX) reverses a word whole,
// so a mark comes before the letter it sits on. A line is turned back
// into logical order the simple way, not by the whole Unicode
// bidirectional algorithm (which visual order does not determine):
//   - each run of right-to-left letters, with the marks, digits, spaces and
//     punctuation between them, is reversed, marks then following their
//     letter, but a number in it keeps its digits' order (٤٥ stays ٤٥);
//   - on a page with more right-to-left letters than left-to-right ones
//     (as pdftotext decides a page's direction), the order of runs in a
//     line is reversed too, so Latin words and numbers land where they
//     were written; on the others, a line keeps its runs' order;
//   - a number takes the direction of the letter it touches (062F is one
//     word), else of the letters around it;
//   - marks on one letter are put in canonical order (NFC);
//   - Arabic presentation forms (the shaped glyphs some ToUnicode maps
//     name: U+FB50–U+FDFF, U+FE70–U+FEFE) become the letters they shape,
//     as pdftotext makes them, after the reordering, so a lam-alef ligature
//     is lam then alef (pdftotext expands it first and prints alef, lam).

type direction uint8

const (
	neutral direction = iota
	ltr
	rtl
)

func isRTL(r rune) bool {
	return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko) &&
		!unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
}

func hasRTL(s string) bool {
	for _, r := range s {
		if r >= 0x590 && isRTL(r) {
			return true
		}
	}
	return false
}

// isPresentation reports an Arabic presentation form.
func isPresentation(r rune) bool {
	return r >= 0xFB50 && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFE
}

// strong is a rune's own direction: a letter's, or neutral.
func strong(r rune) direction {
	switch {
	case isRTL(r):
		return rtl
	case unicode.IsLetter(r):
		return ltr
	}
	return neutral
}

// logicalLines puts each line of a page's text that holds right-to-left
// letters in logical order.
func logicalLines(page string) string {
	if !hasRTL(page) {
		return page
	}
	nr, nl := 0, 0
	for _, r := range page {
		switch strong(r) {
		case rtl:
			nr++
		case ltr:
			nl++
		}
	}
	lines := strings.Split(page, "\n")
	for i, line := range lines {
		if hasRTL(line) {
			lines[i] = logicalOrder(line, nr > nl)
		}
	}
	return strings.Join(lines, "\n")
}

// logicalOrder is one visual-order line in logical order; rtlPage
// reverses the order of its runs.
func logicalOrder(line string, rtlPage bool) string {
	rs := []rune(line)
	dirs := resolve(rs)
	type run struct {
		dir direction
		rs  []rune
	}
	var runs []run
	for i := 0; i < len(rs); {
		j := i + 1
		switch {
		case dirs[i] != neutral:
			for j < len(rs) && dirs[j] == dirs[i] {
				j++
			}
		case unicode.IsDigit(rs[i]):
			j = numberEnd(rs, i) // a number between two directions: a run
		}
		// Any other neutral is a run of its own, so that reversing the runs
		// keeps it between the same neighbours.
		seg := rs[i:j]
		if dirs[i] == rtl {
			seg = reverseKeepingNumbers(seg)
		}
		runs = append(runs, run{dirs[i], seg})
		i = j
	}
	if rtlPage {
		slices.Reverse(runs)
	}
	var b strings.Builder
	for _, r := range runs {
		for _, c := range r.rs {
			if isPresentation(c) {
				b.WriteString(norm.NFKC.String(string(c)))
				continue
			}
			b.WriteRune(c)
		}
	}
	// Marks stacked on one letter come in the order drawn; NFC puts them
	// in the canonical order (a qamats before a shin dot).
	return norm.NFC.String(b.String())
}

// resolve gives each rune of a visual-order line the direction of its
// run: letters their own; a mark that of the letter after it (it comes
// before its letter in a right-to-left word) or else before it; digits,
// spaces and punctuation right to left when right-to-left letters (or
// marks) surround them, else left to right.
func resolve(rs []rune) []direction {
	dirs := make([]direction, len(rs))
	for i, r := range rs {
		dirs[i] = strong(r)
	}
	// A number touching a letter goes with it, a left-to-right one first.
	for i := 0; i < len(rs); {
		if !unicode.IsDigit(rs[i]) {
			i++
			continue
		}
		j := numberEnd(rs, i)
		var before, after direction
		if i > 0 {
			before = dirs[i-1]
		}
		if j < len(rs) {
			after = dirs[j]
		}
		d := neutral
		switch {
		case before == ltr || after == ltr:
			d = ltr
		case before == rtl || after == rtl:
			d = rtl
		}
		for k := i; k < j; k++ {
			dirs[k] = d
		}
		i = j
	}
	for i := len(rs) - 1; i >= 0; i-- {
		if unicode.Is(unicode.Mn, rs[i]) && i+1 < len(rs) && dirs[i+1] == rtl {
			dirs[i] = rtl
		}
	}
	for i, r := range rs {
		if unicode.Is(unicode.Mn, r) && dirs[i] == neutral && i > 0 && dirs[i-1] != neutral {
			dirs[i] = dirs[i-1]
		}
	}
	// Neutrals between two runs of one direction join them; those between
	// two directions (or at an end of the line) stand alone, so that
	// reversing the runs keeps them between the same words.
	for i := 0; i < len(rs); {
		if dirs[i] != neutral {
			i++
			continue
		}
		j := i
		for j < len(rs) && dirs[j] == neutral {
			j++
		}
		d := neutral
		if i > 0 && j < len(rs) && dirs[i-1] == dirs[j] {
			d = dirs[j]
		}
		for k := i; k < j; k++ {
			dirs[k] = d
		}
		i = j
	}
	return dirs
}

// reverseKeepingNumbers reverses a right-to-left run, but not the digits
// of a number in it (with the separators between them).
func reverseKeepingNumbers(seg []rune) []rune {
	out := slices.Clone(seg)
	slices.Reverse(out)
	for i := 0; i < len(out); {
		if !unicode.IsDigit(out[i]) {
			i++
			continue
		}
		j := numberEnd(out, i)
		slices.Reverse(out[i:j])
		i = j
	}
	return out
}

// numberEnd is where the number that starts at i ends: its digits and
// the separators between them.
func numberEnd(rs []rune, i int) int {
	j := i + 1
	for j < len(rs) && (unicode.IsDigit(rs[j]) || j+1 < len(rs) && isNumberSep(rs[j]) && unicode.IsDigit(rs[j+1])) {
		j++
	}
	return j
}

func isNumberSep(r rune) bool {
	return r == '.' || r == ',' || r == '\u066B' || r == '\u066C' || r == ':' || r == '/'
}
