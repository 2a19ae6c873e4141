package hidden

// The block pass: CommonMark's container and leaf blocks, as far as they
// decide what is code, what is raw HTML and what is inline text. It turns
// the source into units for the second pass (scan.go): paragraphs and
// headings (inline text), lines of HTML blocks, and container ends. Code
// blocks produce nothing: they are shown as code.

type unitKind uint8

const (
	unitText    unitKind = iota // a paragraph or heading: inline text in segs
	unitHTML                    // one line of an HTML block: [start, end) and its line ending
	unitHTMLEnd                 // the end of an HTML block, at start
	unitClose                   // containers closed down to depth, at start
	unitCode                    // a code block starts at start: content, shown
	unitOpen                    // a container opens: depth is the count after
)

// seg is one line's share of a paragraph: src[start:end], without its line
// ending.
type seg struct{ start, end int }

type unit struct {
	kind       unitKind
	start, end int   // unitHTML: the line; unitHTMLEnd, unitClose: the position
	depth      int   // unitClose: containers left open; others: containers around
	segs       []seg // unitText
	heading    bool  // unitText: an ATX or setext heading
	note       int   // the footnote definition it is in, plus one; 0: none
	inItem     bool  // directly in a list item (taken as tight: no <p>)
}

type container struct {
	quote      bool
	note       int  // a footnote definition: its index in scanner.notes, plus one
	indent     int  // a list item: columns its content is indented by
	blankStart bool // a list item whose marker ended its line
	lines      int  // a list item: non-blank lines seen in it
	inNote     int  // the innermost footnote definition around it, plus one
}

type leafKind uint8

const (
	leafNone leafKind = iota
	leafPara
	leafFence
	leafCode // indented code
	leafHTML
)

type blocks struct {
	src   string
	cs    []container
	leaf  leafKind
	para  []seg
	fence struct {
		char byte
		n    int
	}
	htmlType int
	units    []unit
	waiting  []int    // list items that began with a blank line, waiting for their first line
	sc       *scanner // receives definitions and front matter
}

// parseBlocks splits s.src from offset from into units.
func (s *scanner) parseBlocks(from int) []unit {
	b := &blocks{src: s.src, sc: s}
	src := s.src
	for ls := from; ls < len(src); {
		le, next := lineEnd(src, ls)
		b.line(ls, le)
		ls = next
	}
	b.closeLeaf()
	b.closeContainers(0, len(src))
	return b.units
}

// lineEnd returns the end of the line starting at i (its line ending
// excluded) and where the next starts. \n, \r\n and a lone \r end a line,
// as Gitea reads them (it turns each into \n before rendering).
func lineEnd(src string, i int) (end, next int) {
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '\n':
			return j, j + 1
		case '\r':
			if j+1 < len(src) && src[j+1] == '\n' {
				return j, j + 2
			}
			return j, j + 1
		}
	}
	return len(src), len(src)
}

func next4(col int) int { return col/4*4 + 4 }

// indentAt measures the white space at p: its width in columns (tabs to the
// next multiple of four, from col) and the first position after it.
func indentAt(src string, p, end, col int) (width, q int) {
	c := col
	for q = p; q < end; q++ {
		switch src[q] {
		case ' ':
			c++
		case '\t':
			c = next4(c)
		default:
			return c - col, q
		}
	}
	return c - col, q
}

// advance consumes n columns of white space at p, stopping inside a tab
// when it is wider than what is left.
func advance(src string, p, end, col, n int) (int, int) {
	for n > 0 && p < end {
		switch src[p] {
		case ' ':
			p, col, n = p+1, col+1, n-1
		case '\t':
			w := next4(col) - col
			if w > n {
				return p, col + n
			}
			p, col, n = p+1, col+w, n-w
		default:
			return p, col
		}
	}
	return p, col
}

func (b *blocks) line(ls, le int) {
	src := b.src
	p, col := ls, 0
	matched := 0
	for matched < len(b.cs) {
		c := &b.cs[matched]
		w, q := indentAt(src, p, le, col)
		if c.quote {
			if w > 3 || q >= le || src[q] != '>' {
				break
			}
			p, col = q+1, col+w+1
			if p < le && (src[p] == ' ' || src[p] == '\t') {
				p, col = advance(src, p, le, col, 1)
			}
			matched++
			continue
		}
		if q == le { // blank
			if c.note == 0 && c.blankStart && c.lines == 0 {
				break
			}
			matched++
			continue
		}
		if w < c.indent {
			break
		}
		p, col = advance(src, p, le, col, c.indent)
		matched++
	}
	all := matched == len(b.cs)
	w, q := indentAt(src, p, le, col)
	blank := q == le

	switch b.leaf {
	case leafFence:
		if all {
			if !blank && w < 4 && b.closesFence(q, le) {
				b.leaf = leafNone
			}
			b.count(blank)
			return
		}
		b.closeLeaf()
	case leafHTML:
		if all {
			if blank && b.htmlType >= 6 {
				b.closeLeaf()
				b.count(blank)
				return
			}
			b.emit(unit{kind: unitHTML, start: p, end: le, depth: len(b.cs)})
			if htmlEnds(src[p:le], b.htmlType) {
				b.closeLeaf()
			}
			b.count(blank)
			return
		}
		b.closeLeaf()
	case leafCode:
		if all && (blank || w >= 4) {
			b.count(blank)
			return
		}
		b.closeLeaf()
	}

	for {
		w, q = indentAt(src, p, le, col)
		blank = q == le
		if blank {
			b.closeContainers(matched, ls)
			b.closeLeaf()
			break
		}
		if w >= 4 {
			if b.leaf == leafPara {
				b.para = append(b.para, seg{q, le}) // a continuation, lazy or not
			} else {
				b.closeContainers(matched, ls)
				b.leaf = leafCode
				b.emit(unit{kind: unitCode, start: q, depth: len(b.cs)})
			}
			break
		}
		k := b.classify(q, le, all)
		if k.what == startText && b.leaf == leafPara && !all {
			b.para = append(b.para, seg{q, le}) // lazy continuation
			break
		}
		b.closeContainers(matched, ls)
		if k.what != startText || b.leaf != leafPara {
			b.closeLeaf()
		}
		switch k.what {
		case startQuote:
			b.push(container{quote: true}, q)
			p, col = q+1, col+w+1
			if p < le && (src[p] == ' ' || src[p] == '\t') {
				p, col = advance(src, p, le, col, 1)
			}
			matched, all = len(b.cs), true
			continue
		case startItem:
			pp, pc := q+k.marker, col+w+k.marker
			sw, sq := indentAt(src, pp, le, pc)
			c := container{indent: w + k.marker}
			switch {
			case sq == le:
				c.indent++
				c.blankStart = true
				pp, pc = le, pc+sw
			case sw > 4: // indented code in the item: one space belongs to the marker
				c.indent++
				pp, pc = advance(src, pp, le, pc, 1)
			default:
				c.indent += sw
				pp, pc = sq, pc+sw
			}
			b.push(c, q)
			if c.blankStart {
				b.waiting = append(b.waiting, len(b.cs)-1)
			}
			p, col = pp, pc
			matched, all = len(b.cs), true
			if c.blankStart {
				break
			}
			continue
		case startNote:
			label := src[q+2 : q+k.marker-2]
			b.sc.notes = append(b.sc.notes, note{label: label, start: q})
			if b.sc.noted == nil {
				b.sc.noted = map[string]bool{}
			}
			b.sc.noted[label] = true
			if !allDigits(label) {
				b.sc.add(q+2, q+k.marker-2, RefLabel)
			}
			b.push(container{note: len(b.sc.notes), indent: 4}, q)
			p, col = q+k.marker, col+w+k.marker
			matched, all = len(b.cs), true
			continue
		case startFence:
			b.emit(unit{kind: unitCode, start: q, depth: len(b.cs)})
			b.leaf = leafFence
			b.fence.char, b.fence.n = src[q], k.marker
			b.fenceInfo(q+k.marker, le)
		case startHTML:
			b.leaf, b.htmlType = leafHTML, k.html
			b.emit(unit{kind: unitHTML, start: p, end: le, depth: len(b.cs)})
			if k.html <= 5 && htmlEnds(src[q:le], k.html) {
				b.closeLeaf()
			}
		case startHeading:
			hs, he := headingContent(src, q+k.marker, le)
			if he > hs {
				b.emit(unit{kind: unitText, segs: []seg{{hs, he}}, heading: true, depth: len(b.cs)})
			}
		case startBreak:
			// A thematic break or a setext underline: ends the paragraph
			// (closed above) and holds no text.
			if k.setext && len(b.units) > 0 {
				b.units[len(b.units)-1].heading = true
			}
		case startText:
			if b.leaf == leafPara {
				b.para = append(b.para, seg{q, le})
			} else {
				b.leaf = leafPara
				b.para = append(b.para[:0:0], seg{q, le})
			}
		}
		break
	}
	b.count(blank)
}

// emit adds a unit, noting the footnote definition it stands in.
func (b *blocks) emit(u unit) {
	if n := len(b.cs); n > 0 {
		c := b.cs[n-1]
		u.inItem = !c.quote && c.note == 0
		u.note = c.inNote
	}
	b.units = append(b.units, u)
}

// push opens container c at q.
func (b *blocks) push(c container, q int) {
	c.inNote = c.note
	if n := len(b.cs); n > 0 && c.note == 0 {
		c.inNote = b.cs[n-1].inNote
	}
	b.cs = append(b.cs, c)
	b.emit(unit{kind: unitOpen, start: q, depth: len(b.cs)})
}

// maxDepth bounds the nesting of block quotes, list items and footnotes:
// past it a marker is text. It bounds the work of every line, which is
// matched against the containers open.
const maxDepth = 64

// count notes a non-blank line: the items that began with a blank line
// and were waiting for one have it now.
func (b *blocks) count(blank bool) {
	if blank {
		return
	}
	for _, i := range b.waiting {
		if i < len(b.cs) {
			b.cs[i].lines++
		}
	}
	b.waiting = b.waiting[:0]
}

// closeContainers closes the containers from depth on, and the leaf in
// them, at pos.
func (b *blocks) closeContainers(depth, pos int) {
	if depth >= len(b.cs) {
		return
	}
	b.closeLeaf()
	for _, c := range b.cs[depth:] {
		if c.note > 0 {
			b.sc.notes[c.note-1].end = pos
		}
	}
	b.cs = b.cs[:depth]
	b.emit(unit{kind: unitClose, start: pos, depth: depth})
}

func (b *blocks) closeLeaf() {
	switch b.leaf {
	case leafPara:
		segs := b.sc.definitions(b.para)
		if len(segs) > 0 {
			b.emit(unit{kind: unitText, segs: segs, depth: len(b.cs)})
		}
		b.para = nil
	case leafHTML:
		b.emit(unit{kind: unitHTMLEnd, depth: len(b.cs)})
	}
	b.leaf = leafNone
}

// fenceInfo marks the part of a code fence's info string no page shows:
// goldmark takes its first word as the language (a class name, not text)
// and drops the rest; a first word longer than a language name, or with
// characters none has, is marked too.
func (b *blocks) fenceInfo(p, le int) {
	src := b.src
	_, s := indentAt(src, p, le, 0)
	e := le
	for e > s && (src[e-1] == ' ' || src[e-1] == '\t') {
		e--
	}
	w := s
	for w < e && src[w] != ' ' && src[w] != '\t' {
		w++
	}
	if w-s > 32 || !languageWord(src[s:w]) {
		b.sc.add(s, e, FenceInfo)
		return
	}
	_, r := indentAt(src, w, e, 0)
	b.sc.add(r, e, FenceInfo)
}

func languageWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !isAlnum(c) && !contains("_+#.-", c) {
			return false
		}
	}
	return true
}

func (b *blocks) closesFence(q, le int) bool {
	src := b.src
	n := 0
	for q+n < le && src[q+n] == b.fence.char {
		n++
	}
	if n < b.fence.n {
		return false
	}
	_, r := indentAt(src, q+n, le, 0)
	return r == le
}
