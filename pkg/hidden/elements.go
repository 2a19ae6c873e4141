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

type region struct {
	name   string
	state  regionState
	start  int // hidden: the start tag's start; details: its end
	body   int // collapsed: where the body starts
	depth  int // elements of the same name nested inside
	cdepth int // containers around it when it opened
	para   int // the paragraph it closes with, or -1
	raw    bool
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
	if !hasWord(knownTags, name) {
		s.add(t.start, t.end, Markup)
	} else {
		s.markAttrs(t)
	}
	if t.closing {
		s.endTag(name, t)
		return
	}
	if n := len(s.regions); n > 0 && s.regions[n-1].state == regAwaiting {
		if name == "summary" {
			s.regions[n-1].state = regSummary
		} else {
			s.onText(t.start)
		}
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
		s.push(region{name: name, state: st, start: t.end})
		return
	case hides || hasWord(dropTags, name):
		s.push(region{name: name, state: regHidden, start: t.start, raw: hasWord(rawTags, name)})
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
	r.cdepth, r.para = s.depth, -1
	if s.inPara >= 0 && !hasWord(paraTags, r.name) {
		r.para = s.inPara
	}
	s.regions = append(s.regions, r)
}

func (s *scanner) endTag(name string, t *tag) {
	n := len(s.regions)
	if name == "summary" && n > 0 && s.regions[n-1].state == regSummary {
		r := &s.regions[n-1]
		r.state, r.body = regCollapsed, t.end
		return
	}
	for i := n - 1; i >= 0; i-- {
		r := &s.regions[i]
		if r.name != name {
			continue
		}
		if r.depth > 0 {
			r.depth--
			return
		}
		s.closeRegions(i, t.start, t.end)
		return
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
}

// closeOuter closes what the HTML parser closes at pos: the regions opened
// inside containers deeper than depth, or with paragraph para (-1: none);
// raw-text elements end only at their end tag.
func (s *scanner) closeOuter(depth, para, pos int) {
	for i, r := range s.regions {
		if !r.raw && (r.cdepth > depth || para >= 0 && r.para == para) {
			s.closeRegions(i, pos, pos)
			return
		}
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
