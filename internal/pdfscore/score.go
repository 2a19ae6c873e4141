package main

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// score counts one page's (or many pages') words.
type score struct {
	ref, out, shared int
	glued, split     int
	ligatures        int
}

func (s *score) add(o score) { s.merge(o) }

func (s *score) merge(o score) {
	s.ref += o.ref
	s.out += o.out
	s.shared += o.shared
	s.glued += o.glued
	s.split += o.split
	s.ligatures += o.ligatures
}

func (s score) recall() float64 {
	if s.ref == 0 {
		return 1
	}
	return float64(s.shared) / float64(s.ref)
}

func (s score) precision() float64 {
	if s.out == 0 {
		if s.ref == 0 {
			return 1
		}
		return 0
	}
	return float64(s.shared) / float64(s.out)
}

func isIdeograph(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// words splits NFKC-normalised text into words.
func words(text string) []string {
	text = strings.ReplaceAll(norm.NFKC.String(text), "\u00ad", "")
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range text {
		switch {
		case isIdeograph(r):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_':
			cur.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

func compare(ref, out string) score {
	rw, ow := words(ref), words(out)
	s := score{ref: len(rw), out: len(ow)}
	for _, r := range out {
		if r >= 0xFB00 && r <= 0xFB06 {
			s.ligatures++
		}
	}
	count := map[string]int{}
	for _, w := range rw {
		count[w]++
	}
	for _, w := range ow {
		if count[w] > 0 {
			count[w]--
			s.shared++
		}
	}
	s.glued = joins(ow, rw)
	s.split = joins(rw, ow)
	return s
}

// joins counts the words of a that equal 2 to 4 consecutive words of b
// joined, and are not words of b themselves.
func joins(a, b []string) int {
	inB := map[string]bool{}
	for _, w := range b {
		inB[w] = true
	}
	joined := map[string]bool{}
	for i := range b {
		j := b[i]
		for k := 1; k < 4 && i+k < len(b); k++ {
			j += b[i+k]
			joined[j] = true
		}
	}
	n := 0
	for _, w := range a {
		if !inB[w] && joined[w] {
			n++
		}
	}
	return n
}

// markRE is the marker pdftext puts before a note's or a form field's
// text ("[note] ", "[form field NAME] "): the project's own words, not the
// document's, so they are not scored.
var markRE = regexp.MustCompile(`(?m)^\[(note|form field[^\]]*)\] `)

func unmark(s string) string { return markRE.ReplaceAllString(s, "") }
