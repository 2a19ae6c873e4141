package hidden

// What the tokenizer's tags hide: attributes, unknown tags, elements
// hidden by their attributes or dropped by the sanitiser, and the bodies
// of <details>. An element that hides its content is a region, open from
// its start tag to its end tag, or to the end of the container, paragraph
// or document that closes it in the HTML parser.

type regionState uint8

const (
	regHidden    regionState = iota // the element and its content are hidden
	regAwaiting                     // <details>: before its <summary> or content
	regSummary                      // <details>: inside its <summary>
	regCollapsed                    // <details>: its body, collapsed
	regOpen                         // <details open>: shown
)

// opened is an element an HTML block opened and did not close: the
// containers around it and the regions open when it opened. An end tag of
// its name pops it and every region opened inside it, as the HTML parser
// pops the elements above the one it closes.
type opened struct {
	name    string
	depth   int
	regions int
}

type region struct {
	name    string
	state   regionState
	start   int  // hidden: the start tag's start; details: its end
	body    int  // collapsed: where the body starts
	depth   int  // elements of the same name nested inside
	summary bool // details: its <summary> was seen
	fmt     bool // details: formatting elements were open when it opened
	cdepth  int  // containers around it when it opened
	para    int  // the paragraph it closes with, or -1
	raw     bool
}

func (s *scanner) onComment(start, end int) { s.add(start, end, Comment) }
func (s *scanner) onBogus(start, end int)   { s.add(start, end, Markup) }

// onText notes visible content: a <details> with content before any
// <summary> is collapsed from its start tag on.
func (s *scanner) onText(int) {
	if n := len(s.regions); n > 0 && s.regions[n-1].state == regAwaiting {
		r := &s.regions[n-1]
		r.state, r.body = regCollapsed, r.start
	}
}

func (s *scanner) onTag(t *tag) {
	name := string(t.name)
	if !hasWord(keptTags, name) && name != "input" && name != "svg" && name != "path" {
		// The sanitiser drops the tag (<string> of Promise<string>,
		// <Button>): nothing shows it.
		s.add(t.start, t.end, Markup)
	} else {
		s.markAttrs(t)
	}
	if t.closing {
		s.endTag(name, t)
		return
	}
	if n := len(s.regions); n > 0 {
		// The first <summary> among the children of a <details> is shown,
		// wherever it stands: the body is collapsed around it. One inside
		// another element (a list, a formatting element the parser
		// reopened) is body.
		r := &s.regions[n-1]
		child := name == "summary" && !r.summary && !s.closesAll && s.eff() == r.cdepth && !s.openIn(n-1) && (!r.fmt || t.start == r.start)
		switch {
		case r.state == regAwaiting && child:
			r.state = regSummary
		case r.state == regAwaiting:
			s.onText(t.start)
		case r.state == regCollapsed && child:
			s.addCollapsed(r.body, t.start, Collapsed)
			r.state = regSummary
		}
	}
	if hasWord(fmtTags, name) && !t.selfClosing && s.inPara >= 0 {
		// Opened in inline text and left open, it is popped at the text's
		// end (or by a block element inside it), yet stays active.
		s.fmt = append(s.fmt, name)
	}
	void := hasWord(voidTags, name)
	hides := hides(t)
	switch {
	case void:
		if hides {
			s.add(t.start, t.end, Element)
		}
		return
	case name == "details":
		st := regAwaiting
		if t.has("open") {
			st = regOpen
		}
		// Opened inside a paragraph, it closes the <p>, popping the
		// formatting elements the paragraph left open; the parser reopens
		// them inside it at its first text, so a <summary> after that
		// text is theirs, not the details' own.
		popped := len(s.fmt) > 0 && s.inPara >= 0 && !s.closesAll && !s.inItem
		s.push(region{name: name, state: st, start: t.end, fmt: popped})
		return
	case hides || hasWord(dropTags, name):
		s.push(region{name: name, state: regHidden, start: t.start, raw: hasWord(rawTags, name)})
		return
	}
	if t.selfClosing {
		return
	}
	if (s.inPara < 0 || s.inItem && !s.closesAll) && hasWord(keptTags, name) && name != "p" { // a <summary> closes a <p>
		// An HTML block's elements stay open around what follows, and so
		// do those of the text of a list item, which has no <p> (taken
		// as tight); one opened in a paragraph closes with it.
		s.elems = append(s.elems, opened{name, s.eff(), len(s.regions)})
		return
	}
	for i := len(s.regions) - 1; i >= 0; i-- {
		if s.regions[i].name == name {
			s.regions[i].depth++
			return
		}
	}
}

func (s *scanner) push(r region) {
	if len(s.regions) >= maxRegions {
		// Past the bound the rest of the document is taken as inside the
		// region: marked, not followed.
		switch r.state {
		case regHidden:
			s.add(r.start, len(s.src), Element)
		case regAwaiting:
			s.addCollapsed(r.start, len(s.src), Collapsed)
		}
		return
	}
	r.cdepth, r.para = s.eff(), -1
	if s.inPara >= 0 && (s.closesAll || !hasWord(paraTags, r.name)) {
		r.para = s.inPara
	}
	s.regions = append(s.regions, r)
}

// maxRegions bounds the regions open at once, and so the work of each
// tag, which looks for its name among them.
const maxRegions = 256

func (s *scanner) endTag(name string, t *tag) {
	for i := len(s.fmt) - 1; i >= 0; i-- {
		if s.fmt[i] == name {
			s.fmt = append(s.fmt[:i], s.fmt[i+1:]...)
			break
		}
	}
	n := len(s.regions)
	if name == "summary" && n > 0 && s.regions[n-1].state == regSummary {
		r := &s.regions[n-1]
		r.state, r.body, r.summary = regCollapsed, t.end, true
		if k := len(s.elems) - 1; k >= 0 && s.elems[k].name == "summary" {
			s.elems = s.elems[:k]
		}
		return
	}
	// The innermost open element of the name is closed: an element of an
	// HTML block opened after the innermost region of the name, or that
	// region.
	for k := len(s.elems) - 1; k >= 0; k-- {
		e := s.elems[k]
		if e.name != name {
			continue
		}
		inner := true
		for i := n - 1; i >= e.regions; i-- {
			if s.regions[i].name == name {
				inner = false // the region is inside the element
				break
			}
		}
		if inner {
			if s.blocked(name, e.depth, e.regions) {
				return
			}
			s.elems = s.elems[:k]
			if e.regions < n {
				s.closeRegions(e.regions, t.start, t.end)
				s.popContainers(e.depth)
			}
			return
		}
		break
	}
	for i := n - 1; i >= 0; i-- {
		r := &s.regions[i]
		if r.name != name {
			continue
		}
		if r.depth == 0 {
			if s.blocked(name, r.cdepth, i+1) {
				return
			}
			s.closeRegions(i, t.start, t.end)
			s.popContainers(r.cdepth)
			return
		}
		r.depth--
		break
	}
}

// blocked reports an end tag the HTML parser ignores: one of an ordinary
// element (not one of the parser's special elements), with a special
// element opened after the one it would close (a container, opened since
// depth; a region from index regions on, or an element of an HTML block).
func (s *scanner) blocked(name string, depth, regions int) bool {
	if hasWord(specialTags, name) {
		return false
	}
	if s.eff() > depth {
		return true
	}
	for _, r := range s.regions[min(regions, len(s.regions)):] {
		if hasWord(specialTags, r.name) {
			return true
		}
	}
	for _, e := range s.elems {
		if e.regions >= regions && e.depth >= depth && hasWord(specialTags, e.name) && e.name != name {
			return true
		}
	}
	return false
}

// openIn reports an element opened inside region i and still open.
func (s *scanner) openIn(i int) bool {
	return len(s.elems) > 0 && s.elems[len(s.elems)-1].regions > i
}

// popContainers records that an end tag closed an element opened outside
// the containers now open, down to depth: the HTML parser popped their
// elements with it, so their own ends close nothing more.
func (s *scanner) popContainers(depth int) {
	for i := len(s.ghost) - 1; i >= 0 && s.eff() > depth; i-- {
		if i < s.depth {
			s.ghost[i] = true
		}
	}
}

// closeRegions closes regions[i:]: a hidden one through end (its end tag
// included), a collapsed body up to at.
func (s *scanner) closeRegions(i, at, end int) {
	for j := len(s.regions) - 1; j >= i; j-- {
		r := s.regions[j]
		switch r.state {
		case regHidden:
			s.add(r.start, end, Element)
		case regCollapsed:
			s.addCollapsed(r.body, at, Collapsed)
		}
	}
	s.regions = s.regions[:i]
	for len(s.elems) > 0 && s.elems[len(s.elems)-1].regions > i {
		s.elems = s.elems[:len(s.elems)-1]
	}
}

// closeOuter closes what the HTML parser closes at pos: the regions opened
// inside containers deeper than depth, or with paragraph para (-1: none);
// raw-text elements end only at their end tag.
func (s *scanner) closeOuter(depth, para, pos int) {
	for len(s.elems) > 0 && s.elems[len(s.elems)-1].depth > depth {
		s.elems = s.elems[:len(s.elems)-1] // popped with their container
	}
	// Those closing are on top: regions open inside containers and
	// paragraphs opened after theirs.
	i := len(s.regions)
	for i > 0 {
		r := s.regions[i-1]
		if r.raw || !(r.cdepth > depth || para >= 0 && r.para == para) {
			break
		}
		i--
	}
	if i < len(s.regions) {
		s.closeRegions(i, pos, pos)
	}
}

func (t *tag) has(name string) bool {
	for i := range t.attrs {
		if string(t.attrs[i].name) == name {
			return true
		}
	}
	return false
}

// markAttrs marks the attributes of t that hold text, a run of them as one
// span.
func (s *scanner) markAttrs(t *tag) {
	from, to := -1, -1
	for i := range t.attrs {
		a := &t.attrs[i]
		if plainAttr(a) {
			if from >= 0 {
				s.add(from, to, Attribute)
				from = -1
			}
			continue
		}
		if from < 0 {
			from = a.start
		}
		to = a.end
	}
	if from >= 0 {
		s.add(from, to, Attribute)
	}
}

func plainAttr(a *attr) bool {
	name := string(a.name)
	if !hasWord(plainAttrs, name) {
		return false
	}
	if hasWord(urlAttrs, name) {
		return true
	}
	if a.long || len(a.value) > 64 {
		return false
	}
	for _, c := range a.value {
		if isHTMLSpace(c) || c == '&' {
			return false
		}
	}
	return true
}

// hides reports an element whose style makes its text invisible: a
// colour the sanitiser keeps (it keeps a style only on these elements).
// The hidden attribute and every other style are dropped by it, so they
// hide nothing on the page (style.go).
func hides(t *tag) bool {
	if !hasWord(" div p span td th tr ", string(t.name)) {
		return false
	}
	for i := range t.attrs {
		if a := &t.attrs[i]; string(a.name) == "style" && !a.long && styleHides(string(a.value)) {
			return true
		}
	}
	return false
}
