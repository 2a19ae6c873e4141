package hidden

import "strings"

// What a line opens: the start conditions of CommonMark's blocks, and the
// shapes of lines (setext underlines, thematic breaks, headings) the block
// pass (block.go) asks about.

type startWhat uint8

const (
	startText startWhat = iota
	startQuote
	startItem
	startFence
	startHTML
	startHeading
	startBreak
	startNote
)

type start struct {
	what   startWhat
	marker int // item: marker width; fence: fence length; heading: #s
	html   int // HTML block type, 1–7
	setext bool
}

// classify tells what block the line starting at q (after at most three
// columns of indentation) opens. para is whether a paragraph is open and
// all containers matched (a setext underline needs both).
func (b *blocks) classify(q, le int, all bool) start {
	src := b.src
	inPara := b.leaf == leafPara
	c := src[q]
	if len(b.cs) >= maxDepth && (c == '>' || c == '-' || c == '*' || c == '+' || c == '[' || c >= '0' && c <= '9') {
		if c == '-' && inPara && all && setextLine(src[q:le], '-') || c != '>' && c != '[' && thematicBreak(src[q:le], c) {
			return start{what: startBreak}
		}
		return start{}
	}
	switch c {
	case '>':
		return start{what: startQuote}
	case '=':
		if inPara && all && setextLine(src[q:le], '=') {
			return start{what: startBreak, setext: true}
		}
	case '-', '*', '_', '+':
		if c == '-' && inPara && all && setextLine(src[q:le], '-') {
			return start{what: startBreak, setext: true}
		}
		if c != '+' && thematicBreak(src[q:le], c) {
			return start{what: startBreak}
		}
		if c != '_' && (q+1 == le || src[q+1] == ' ' || src[q+1] == '\t') {
			if inPara && blankAfter(src, q+1, le) {
				return start{} // an empty item cannot interrupt a paragraph
			}
			return start{what: startItem, marker: 1}
		}
	case '`', '~':
		n := 0
		for q+n < le && src[q+n] == c {
			n++
		}
		if n >= 3 && (c == '~' || !contains(src[q+n:le], '`')) {
			return start{what: startFence, marker: n}
		}
	case '#':
		n := 0
		for q+n < le && src[q+n] == '#' {
			n++
		}
		if n <= 6 && (q+n == le || src[q+n] == ' ' || src[q+n] == '\t') {
			return start{what: startHeading, marker: n}
		}
	case '<':
		if t := htmlStart(src[q:le], inPara); t > 0 {
			return start{what: startHTML, html: t}
		}
	case '[':
		if n := noteLabelEnd(src[q:le]); n > 0 && q+n < le && src[q+n] == ':' {
			return start{what: startNote, marker: n + 1}
		}
	}
	if c >= '0' && c <= '9' {
		n := 0
		for q+n < le && n < 10 && src[q+n] >= '0' && src[q+n] <= '9' {
			n++
		}
		if n <= 9 && q+n < le && (src[q+n] == '.' || src[q+n] == ')') &&
			(q+n+1 == le || src[q+n+1] == ' ' || src[q+n+1] == '\t') {
			if inPara && (src[q:q+n] != "1" || blankAfter(src, q+n+1, le)) {
				return start{}
			}
			return start{what: startItem, marker: n + 1}
		}
	}
	return start{}
}

// noteLabelEnd returns the length of "[^label]" at the start of s, a
// footnote's label (Gitea's extension): not blank, no bracket inside, on
// one line; or 0.
func noteLabelEnd(s string) int {
	if len(s) < 4 || s[0] != '[' || s[1] != '^' {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch s[i] {
		case '[', '\n':
			return 0
		case ']':
			if strings.TrimSpace(s[2:i]) == "" {
				return 0
			}
			return i + 1
		}
	}
	return 0
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func contains(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

func blankAfter(src string, p, le int) bool {
	_, q := indentAt(src, p, le, 0)
	return q == le
}

// setextLine reports a run of c followed only by white space.
func setextLine(s string, c byte) bool {
	i := 0
	for i < len(s) && s[i] == c {
		i++
	}
	for j := i; j < len(s); j++ {
		if s[j] != ' ' && s[j] != '\t' {
			return false
		}
	}
	return i > 0
}

// thematicBreak reports three or more c with only spaces and tabs between.
func thematicBreak(s string, c byte) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// headingContent returns the text of an ATX heading after its opening #s.
// A closing run of #s stays: it is no hidden text, and goldmark looks for
// heading attributes before taking it off.
func headingContent(src string, p, le int) (int, int) {
	_, s := indentAt(src, p, le, 0)
	e := le
	for e > s && (src[e-1] == ' ' || src[e-1] == '\t') {
		e--
	}
	return s, e
}
