package hidden

import (
	"sort"
	"strings"
)

// vtext is a paragraph's inline text as the renderer reads it: its lines'
// contents (container markers and indentation taken off) joined by "\n",
// with the way back to source positions.
type vtext struct {
	t    string
	segs []seg
	voff []int // where each seg starts in t
}

func newVtext(src string, segs []seg) *vtext {
	v := &vtext{segs: segs, voff: make([]int, len(segs))}
	if len(segs) == 1 {
		v.t = src[segs[0].start:segs[0].end]
		return v
	}
	var b strings.Builder
	for i, s := range segs {
		if i > 0 {
			b.WriteByte('\n')
		}
		v.voff[i] = b.Len()
		b.WriteString(src[s.start:s.end])
	}
	v.t = b.String()
	return v
}

// src maps a position of t to the source; the "\n" joining two lines maps
// to the first one's line ending.
func (v *vtext) src(i int) int {
	k := sort.Search(len(v.voff), func(k int) bool { return v.voff[k] > i }) - 1
	if k < 0 {
		k = 0
	}
	return v.segs[k].start + (i - v.voff[k])
}

// span maps [i, j) of t to the source.
func (v *vtext) span(i, j int) (int, int) {
	if j <= i {
		return v.src(i), v.src(i)
	}
	return v.src(i), v.src(j-1) + 1
}

// normLabel folds a link label for matching: case, and runs of white space.
func normLabel(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// labelEnd returns the position after the link label "[…]" at t[i]: at most
// 999 characters, no unescaped bracket, not blank; or 0.
func labelEnd(t string, i int) int {
	blank := true
	for j := i + 1; j < len(t) && j-i <= 1000; j++ {
		switch c := t[j]; {
		case c == '\\' && j+1 < len(t) && isPunct(t[j+1]):
			j++
			blank = false
		case c == '[':
			return 0
		case c == ']':
			if blank {
				return 0
			}
			return j + 1
		case !isSpace(c):
			blank = false
		}
	}
	return 0
}

// skipSpace skips spaces and tabs, and with nl at most one line ending.
func skipSpace(t string, i int, nl bool) int {
	for i < len(t) {
		switch t[i] {
		case ' ', '\t':
		case '\n':
			if !nl {
				return i
			}
			nl = false
		default:
			return i
		}
		i++
	}
	return i
}

// destEnd returns the end of the link destination at t[i]: "<…>", or a
// run without white space or controls whose parentheses balance, ended by
// white space or an unbalanced ")". ok is false where there is none.
func destEnd(t string, i int) (int, bool) {
	if i < len(t) && t[i] == '<' {
		for j := i + 1; j < len(t); j++ {
			switch t[j] {
			case '\\':
				if j+1 < len(t) && isPunct(t[j+1]) {
					j++
				}
			case '\n', '<':
				return 0, false
			case '>':
				return j + 1, true
			}
		}
		return 0, false
	}
	depth := 0
	j := i
	for ; j < len(t); j++ {
		c := t[j]
		if c <= ' ' || c == 0x7f {
			break
		}
		switch c {
		case '\\':
			if j+1 < len(t) && isPunct(t[j+1]) {
				j++
			}
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return j, j > i
			}
			depth--
		}
	}
	return j, depth == 0 && j > i
}

// titleEnd returns the end of the link title at t[i] ("…", '…' or (…)).
func titleEnd(t string, i int) (int, bool) {
	if i >= len(t) {
		return 0, false
	}
	closer := t[i]
	switch closer {
	case '"', '\'':
	case '(':
		closer = ')'
	default:
		return 0, false
	}
	for j := i + 1; j < len(t); j++ {
		switch c := t[j]; {
		case c == '\\' && j+1 < len(t) && isPunct(t[j+1]):
			j++
		case c == closer:
			return j + 1, true
		case c == '(' && closer == ')':
			return 0, false
		}
	}
	return 0, false
}

// definitions takes the link reference definitions off the start of a
// paragraph: each is marked and its label recorded. It returns the lines
// left, or none.
func (s *scanner) definitions(segs []seg) []seg {
	if len(segs) == 0 || s.src[segs[0].start] != '[' {
		return segs
	}
	v := newVtext(s.src, segs)
	t := v.t
	p := 0
	for p < len(t) && t[p] == '[' {
		end, next, label, ok := definition(t, p)
		if !ok {
			break
		}
		if s.defs == nil {
			s.defs = map[string]struct{}{}
		}
		s.defs[normLabel(label)] = struct{}{}
		a, b := v.span(p, end)
		s.add(a, b, Definition)
		p = next
	}
	if p == 0 {
		return segs
	}
	for k := range segs {
		if v.voff[k] >= p {
			return segs[k:]
		}
	}
	return nil
}

// definition parses "[label]: destination "title"" at t[p], ending at the
// end of a line: end is where it ends, next where the next line starts.
func definition(t string, p int) (end, next int, label string, ok bool) {
	le := labelEnd(t, p)
	if le == 0 || le >= len(t) || t[le] != ':' {
		return
	}
	// "[^x]: y" here is a link reference definition: a footnote starts a
	// block, and the block pass took those.
	label = t[p+1 : le-1]
	j := skipSpace(t, le+1, true)
	d, dok := destEnd(t, j)
	if !dok || d == j {
		return
	}
	lineAt := func(k int) (int, int, bool) {
		k = skipSpace(t, k, false)
		if k >= len(t) {
			return k, k, true
		}
		return k, k + 1, t[k] == '\n'
	}
	if k := skipSpace(t, d, true); k > d && k < len(t) {
		if te, tok := titleEnd(t, k); tok {
			if e, n, atEnd := lineAt(te); atEnd {
				return trimEnd(t, p, e), n, label, true
			}
		}
	}
	if e, n, atEnd := lineAt(d); atEnd {
		return trimEnd(t, p, e), n, label, true
	}
	return
}

func trimEnd(t string, p, e int) int {
	for e > p && (t[e-1] == ' ' || t[e-1] == '\t') {
		e--
	}
	return e
}

func isPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// closeBracket handles the "]" at t[i]: it may end a link or an image.
func (in *inliner) closeBracket(i int) int {
	n := len(in.opens)
	if n == 0 {
		return i + 1
	}
	op := in.opens[n-1]
	active := op.image || n-1 >= in.inactive
	in.opens = in.opens[:n-1]
	in.inactive = min(in.inactive, len(in.opens))
	if !active {
		return i + 1
	}
	t := in.t
	end, titleAt, titleTo := -1, -1, -1
	switch {
	case i+1 < len(t) && t[i+1] == '(':
		end, titleAt, titleTo = in.inlineLink(i + 1)
	case i+1 < len(t) && t[i+1] == '[':
		le := labelEnd(t, i+1)
		in.spend(le - i)
		switch {
		case le == i+3 && t[i+2] == ']': // collapsed: [text][]
			if in.defined(op, i) {
				end = le
			}
		case le > 0 && in.hasDef(t[i+2:le-1]):
			end = le
			in.mark(i+1, le, RefLabel)
		case le == 0 && in.defined(op, i):
			end = i + 1
		}
	default:
		if in.defined(op, i) { // shortcut: [text]
			end = i + 1
		}
	}
	if end < 0 {
		return i + 1
	}
	if op.image {
		in.mark(op.pos+2, i, ImageAlt)
	} else {
		in.inactive = len(in.opens) // links cannot contain links
	}
	if titleAt >= 0 {
		in.mark(titleAt, titleTo, LinkTitle)
	}
	return end
}

// defined reports whether the bracket text ending at i is a defined label.
func (in *inliner) defined(op opener, i int) bool {
	start := op.pos + 1
	if op.image {
		start++
	}
	if len(in.s.defs) == 0 || i-start > 999 || !in.spend(i-start) {
		return false
	}
	return in.hasDef(in.t[start:i])
}

func (in *inliner) hasDef(label string) bool {
	_, ok := in.s.defs[normLabel(label)]
	return ok
}

// inlineLink parses "(destination "title")" at t[p]: where it ends and
// where its title is, or end -1.
func (in *inliner) inlineLink(p int) (end, titleAt, titleTo int) {
	t := in.t
	j := skipSpace(t, p+1, true)
	in.spend(j - p)
	if j < len(t) && t[j] == ')' {
		return j + 1, -1, -1
	}
	d, ok := destEnd(t, j)
	in.spend(d - j)
	if !ok {
		return -1, -1, -1
	}
	k := skipSpace(t, d, true)
	if k < len(t) && t[k] == ')' {
		return k + 1, -1, -1
	}
	if k == d {
		return -1, -1, -1
	}
	te, ok := titleEnd(t, k)
	in.spend(te - k)
	if !ok {
		return -1, -1, -1
	}
	e := skipSpace(t, te, true)
	if e < len(t) && t[e] == ')' {
		return e + 1, k, te
	}
	return -1, -1, -1
}

// autolinkEnd returns the end of the autolink at t[i] ("<scheme:…>" or
// "<user@host>"), or 0. It stops at the first character no autolink holds,
// so attempts never overlap.
func autolinkEnd(t string, i int) int {
	j := i + 1
	for j < len(t) && t[j] > ' ' && t[j] != '<' && t[j] != '>' && t[j] != 0x7f {
		j++
	}
	if j >= len(t) || t[j] != '>' || j == i+1 {
		return 0
	}
	body := t[i+1 : j]
	if c := strings.IndexByte(body, ':'); c >= 2 && c <= 32 && isLetter(body[0]) {
		scheme := body[:c]
		for k := 1; k < len(scheme); k++ {
			if !isAlnum(scheme[k]) && scheme[k] != '+' && scheme[k] != '.' && scheme[k] != '-' {
				return 0
			}
		}
		return j + 1
	}
	if at := strings.IndexByte(body, '@'); at > 0 && at < len(body)-1 && !strings.ContainsAny(body, "\\") {
		return j + 1
	}
	return 0
}
