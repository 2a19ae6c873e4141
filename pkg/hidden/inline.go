package hidden

import "strings"

// The inline pass over a paragraph or heading: backslash escapes, code
// spans, autolinks and raw HTML (which go first, left to right, as in
// CommonMark), then links and images by the bracket-stack rule, to find
// image alternate text, link titles and the labels of full reference
// links. Emphasis and entities change nothing that is hidden and are not
// parsed.

// inlineBudget bounds the look-ahead of attempts that may fail (link
// destinations and titles, tags, labels) to this many times the text plus
// a constant: CommonMark's rules make some of them quadratic on crafted
// input. Past it, the rest of the text is marked hidden: a document that
// needs more is not one a person wrote.
const inlineBudget = 16

type opener struct {
	pos   int
	image bool
}

type inliner struct {
	s        *scanner
	v        *vtext
	t        string
	work     int
	budget   int
	opens    []opener
	inactive int // openers below this index that are links are inactive
	runs     map[int][]int
	runAt    map[int]int
	found    map[string][2]int // closing string → [from, at] of its last look-up
}

// scanText scans a paragraph or heading: a heading's attribute block, a
// table's cells each on its own (a tag or comment cannot span two), the
// rest as one text.
func (s *scanner) scanText(u *unit) {
	segs := u.segs
	if u.heading {
		v := newVtext(s.src, segs)
		if k := headingAttr(v.t); k >= 0 {
			a, b := v.span(k, len(v.t))
			s.add(a, b, HeadingAttr)
			segs = trimSegs(segs, a)
		}
		s.closesAll = true
		s.scanInline(segs)
		s.closesAll = false
		return
	}
	for i := 1; i < len(segs); i++ {
		n := delimiterCells(s.src[segs[i].start:segs[i].end])
		if n == 0 {
			continue
		}
		header := cells(s.src, segs[i-1])
		if len(header) != n {
			break
		}
		if i > 1 {
			s.scanInline(segs[:i-1])
		}
		s.closesAll = true
		defer func() { s.closesAll = false }()
		for _, c := range header {
			s.scanInline([]seg{c})
		}
		for _, row := range segs[i+1:] {
			cs := cells(s.src, row)
			for k, c := range cs {
				if k == n {
					// Cells past the header's count are dropped.
					s.add(c.start, cs[len(cs)-1].end, Cell)
					break
				}
				s.scanInline([]seg{c})
			}
		}
		return
	}
	s.scanInline(segs)
}

// trimSegs cuts segs at source position end.
func trimSegs(segs []seg, end int) []seg {
	var out []seg
	for _, g := range segs {
		if g.start >= end {
			break
		}
		out = append(out, seg{g.start, min(g.end, end)})
	}
	return out
}

// scanInline scans one inline text; the inline elements it opens close
// with it.
func (s *scanner) scanInline(segs []seg) {
	if len(segs) == 0 || segs[0].end <= segs[0].start && len(segs) == 1 {
		return
	}
	s.paras++
	s.inPara = s.paras
	s.fmt = s.fmt[:0]
	v := newVtext(s.src, segs)
	in := &inliner{s: s, v: v, t: v.t, budget: inlineBudget*len(v.t) + 4096}
	in.run()
	s.closeOuter(1<<30, s.inPara, segs[len(segs)-1].end)
	s.inPara = -1
	if n := len(s.regions); len(s.fmt) > 0 && n > 0 && !s.regions[n-1].summary {
		// The text's end pops the formatting elements it left open; the
		// parser reopens them at the next text, inside this <details>,
		// so a <summary> after that is theirs.
		s.elems = append(s.elems, opened{"", s.eff(), n})
	}
}

func (in *inliner) spend(n int) bool {
	in.work += n
	return in.work <= in.budget
}

func (in *inliner) mark(i, j int, k Kind) {
	a, b := in.v.span(i, j)
	in.s.add(a, b, k)
}

// feed hands t[i:j], raw HTML, to the tokenizer.
func (in *inliner) feed(i, j int) {
	for k := i; k < j; k++ {
		in.s.tok.step(rawByte(in.t[k:]), in.v.src(k))
	}
}

func (in *inliner) text(i int) {
	if n := len(in.s.regions); n > 0 && in.s.regions[n-1].state == regAwaiting && !in.s.tok.inConstruct() {
		in.s.onText(in.v.src(i))
	}
}

func (in *inliner) run() {
	t := in.t
	for i := 0; i < len(t); {
		if in.work > in.budget {
			in.mark(i, len(t), Markup)
			return
		}
		c := t[i]
		switch c {
		case '\\':
			if i+1 < len(t) && isPunct(t[i+1]) {
				in.text(i)
				i += 2
				continue
			}
		case '`':
			n := 1
			for i+n < len(t) && t[i+n] == '`' {
				n++
			}
			if e := in.nextRun(n, i+n); e >= 0 {
				in.text(i)
				i = e + n
			} else {
				i += n
			}
			continue
		case '<':
			if e := autolinkEnd(t, i); e > 0 {
				in.text(i)
				i = e
				continue
			}
			if e := inlineHTML(t, i, in.find); e > 0 {
				in.spend(e - i)
				in.feed(i, e)
				i = e
				continue
			}
		case '!', '[':
			if e := in.noteRef(i); e > 0 {
				i = e
				continue
			}
		}
		switch c {
		case '!':
			if i+1 < len(t) && t[i+1] == '[' {
				in.opens = append(in.opens, opener{pos: i, image: true})
				in.text(i)
				i += 2
				continue
			}
		case '[':
			in.opens = append(in.opens, opener{pos: i})
			i++
			continue
		case ']':
			i = in.closeBracket(i)
			continue
		}
		if !isSpace(c) {
			in.text(i)
		}
		i++
	}
}

// noteRef handles a footnote reference at t[i], "[^label]" or "![^label]"
// of a defined label: the page shows its number, so the label is marked
// unless it is one. It returns its end, or 0.
func (in *inliner) noteRef(i int) int {
	p := i
	if in.t[p] == '!' {
		p++
	}
	if len(in.s.notes) == 0 || p >= len(in.t) || in.t[p] != '[' {
		return 0
	}
	n := noteLabelEnd(in.t[p:])
	if n == 0 || !in.s.noted[in.t[p+2:p+n-1]] {
		return 0
	}
	label := in.t[p+2 : p+n-1]
	if in.s.cited == nil {
		in.s.cited = map[string]bool{}
	}
	in.s.cited[label] = true
	if !allDigits(label) {
		in.mark(p+2, p+n-1, RefLabel)
	}
	in.text(i)
	return p + n
}

// nextRun returns the start of the next run of exactly n backticks at or
// after from, or -1. Look-ups come in increasing order, so each run is
// passed once.
func (in *inliner) nextRun(n, from int) int {
	if in.runs == nil {
		in.runs, in.runAt = map[int][]int{}, map[int]int{}
		t := in.t
		for i := 0; i < len(t); {
			if t[i] != '`' {
				i++
				continue
			}
			j := i
			for j < len(t) && t[j] == '`' {
				j++
			}
			in.runs[j-i] = append(in.runs[j-i], i)
			i = j
		}
	}
	list, k := in.runs[n], in.runAt[n]
	for k < len(list) && list[k] < from {
		k++
	}
	in.runAt[n] = k
	if k < len(list) {
		return list[k]
	}
	return -1
}

// find returns where close next occurs in t at or after from, or -1,
// remembering the answer so that later look-ups do not rescan.
func (in *inliner) find(close string, from int) int {
	if in.found == nil {
		in.found = map[string][2]int{}
	}
	if f, ok := in.found[close]; ok && from >= f[0] && (f[1] < 0 || f[1] >= from) {
		return f[1]
	}
	at := strings.Index(in.t[from:], close)
	if at >= 0 {
		at += from
		in.spend(at - from)
	} else {
		in.spend(len(in.t) - from)
	}
	in.found[close] = [2]int{from, at}
	return at
}

// headingAttr returns where an attribute block ("{#id .class k=v}", which
// goldmark takes off the end of a heading and the sanitiser then mostly
// drops) starts in a heading's text, or -1.
func headingAttr(t string) int {
	e := len(t)
	for e > 0 && (t[e-1] == ' ' || t[e-1] == '\t') {
		e--
	}
	if e == 0 || t[e-1] != '}' {
		return -1
	}
	for k := 0; k < e; k++ {
		switch t[k] {
		case '\\':
			k++
		case '{':
			j := skipSpace(t, k+1, false)
			if j >= e {
				continue
			}
			switch c := t[j]; {
			case c == '#' || c == '.' || c == '}':
				return k
			case isLetter(c) || c == '_' || c == ':':
				for j < e && (isAlnum(t[j]) || strings.IndexByte("_:.-", t[j]) >= 0) {
					j++
				}
				if j = skipSpace(t, j, false); j < e && t[j] == '=' {
					return k
				}
			}
		}
	}
	return -1
}
