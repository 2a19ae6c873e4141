package hidden

import (
	"strings"
	"unicode"
)

// scanner holds one run over a document: the block pass (block.go) makes
// units and collects link reference definitions; the second pass walks the
// units in order, scanning inline text (inline.go) and feeding raw HTML to
// the tokenizer (tokenizer.go), whose tags open and close regions
// (elements.go).
type scanner struct {
	src     string
	spans   []Span
	defs    map[string]struct{} // normalised labels of the definitions
	tok     tokenizer
	regions []region
	depth   int // containers around the unit being scanned
	inPara  int // the inline text being scanned, or -1
	paras   int // inline texts scanned
	// closesAll: the inline text being scanned is a heading or a table
	// cell, whose end closes every element opened in it.
	closesAll bool
	notes     []note
	noted     map[string]bool // footnote labels defined
	cited     map[string]bool // footnote labels referred to
	// fmt holds the formatting elements (<b>, <i>…) the inline text being
	// scanned opened and did not close.
	fmt    []string
	inItem bool   // the unit being scanned is directly in a list item
	ghost  []bool // per open container: its start tag was swallowed
	elems  []opened
}

// note is a footnote definition: Gitea's renderer shows it at the end of
// the page when something refers to its label, and drops it otherwise (a
// second definition of a label too).
type note struct {
	label      string
	start, end int
}

func newScanner(src string) *scanner {
	s := &scanner{src: src, inPara: -1}
	s.tok.sink = s
	return s
}

func (s *scanner) add(start, end int, k Kind) {
	end = min(end, len(s.src)) // a line's end is fed as '\n' past the last byte
	if end > start {
		s.spans = append(s.spans, Span{Start: start, End: end, Kind: k})
	}
}

func (s *scanner) addCollapsed(start, end int, k Kind) {
	end = min(end, len(s.src))
	if end > start {
		s.spans = append(s.spans, Span{Start: start, End: end, Kind: k, Collapsed: true})
	}
}

func (s *scanner) run() {
	units := s.parseBlocks(s.frontMatter())
	note := 0
	var main noteState
	cut := -1 // where a tag or "<!…>" left open at an HTML block's end is cut
	for i := range units {
		u := &units[i]
		if u.note != note {
			main = s.switchNote(note, u.note, main)
			note = u.note
		}
		if cut >= 0 && u.kind != unitHTML {
			// The page's markup after the block ends it; another HTML
			// block's raw text would not.
			s.add(s.tok.start, cut, Markup)
			s.tok.reset()
		}
		cut = -1
		s.depth, s.inItem = u.depth, u.inItem
		switch u.kind {
		case unitText:
			s.scanText(u)
		case unitCode:
			if !s.tok.inConstruct() {
				s.onText(u.start)
			}
		case unitHTML:
			for p := u.start; p < u.end; p++ {
				s.tok.step(rawByte(s.src[p:u.end]), p)
			}
			s.tok.step('\n', u.end)
		case unitHTMLEnd:
			if s.tok.endsAtMarkup() {
				cut = s.tok.last
			}
		case unitOpen:
			// A container whose start tag a comment or raw text swallows
			// is no element of the page: its end closes nothing.
			s.ghost = append(s.ghost[:u.depth-1], s.tok.inConstruct() && !s.tok.endsAtMarkup())
		case unitClose:
			swallowed := s.tok.inConstruct() && !s.tok.endsAtMarkup()
			s.ghost = s.ghost[:min(u.depth, len(s.ghost))]
			if !swallowed { // else the container's end tags are in a comment or raw text
				s.closeOuter(s.eff(), -1, u.start)
			}
		}
	}
	if note != 0 {
		s.switchNote(note, 0, main)
	}
	hidden, collapsed := s.endState()
	s.finish()
	s.footnotes(hidden, collapsed)
}

// eff is the depth of containers the page has as elements: those not
// swallowed.
func (s *scanner) eff() int {
	n := 0
	for _, g := range s.ghost[:min(s.depth, len(s.ghost))] {
		if !g {
			n++
		}
	}
	return n
}

// noteState is the tokenizer and regions of the text outside footnote
// definitions, kept while one is scanned.
type noteState struct {
	tok     tokenizer
	regions []region
	elems   []opened
}

// switchNote moves the scan from footnote definition from to to (0: the
// text outside them). A definition is rendered apart from where it stands
// (at the page's end, or not at all), so its raw HTML is tokenized on its
// own and closes at its end; it does not reach into the text after it.
func (s *scanner) switchNote(from, to int, main noteState) noteState {
	if from != 0 {
		end := s.notes[from-1].end
		if s.tok.inConstruct() {
			s.add(s.tok.start, end, Markup)
		}
		if len(s.regions) > 0 {
			s.closeRegions(0, end, end)
		}
		s.tok, s.regions, s.elems = main.tok, main.regions, main.elems
	}
	if to != 0 {
		main = noteState{tok: s.tok, regions: s.regions, elems: s.elems}
		s.tok, s.regions, s.elems = tokenizer{sink: s}, nil, nil
	}
	return main
}

// endState tells what the end of the document is inside: a comment, raw
// text or hidden element (hidden), or a closed <details> (collapsed).
// Footnotes are rendered there.
func (s *scanner) endState() (hidden, collapsed bool) {
	if s.tok.inConstruct() && !s.tok.endsAtMarkup() && s.tok.state != tRaw {
		return true, false
	}
	for _, r := range s.regions {
		switch r.state {
		case regHidden:
			return true, false
		case regAwaiting, regCollapsed:
			collapsed = true
		}
	}
	return false, collapsed
}

// footnotes marks the definitions nothing refers to. The others are
// rendered at the end of the page, whatever surrounds them in the source:
// out of any <details> or hidden element there (carve), into whatever is
// open at the document's end.
func (s *scanner) footnotes(hidden, collapsed bool) {
	seen := map[string]bool{}
	for _, n := range s.notes {
		end := n.end
		for end > n.start && isSpace(s.src[end-1]) {
			end--
		}
		if !s.cited[n.label] || seen[n.label] {
			s.add(n.start, end, Footnote)
			continue
		}
		seen[n.label] = true
		s.carve(n.start, end)
		switch {
		case hidden:
			s.add(n.start, end, Footnote)
		case collapsed:
			s.addCollapsed(n.start, end, Footnote)
		}
	}
}

// carve takes [a, b) out of the spans that begin before it: the elements,
// <details> bodies and comments around a definition where it stands do
// not reach it where it is rendered.
func (s *scanner) carve(a, b int) {
	for i := range s.spans {
		sp := s.spans[i]
		if sp.End <= a || sp.Start >= a {
			continue
		}
		s.spans[i].End = a
		if sp.End > b {
			tail := sp
			tail.Start = b
			s.spans = append(s.spans, tail)
		}
	}
}

// rawByte is the first byte of raw HTML s as the tokenizer gets it: a '<'
// Gitea's tag cleaner escapes is text (tagCleaned), fed as '&'.
func rawByte(s string) byte {
	if s[0] == '<' && tagCleaned(s) {
		return '&'
	}
	return s[0]
}

// finish closes what the document's end closes.
func (s *scanner) finish() {
	end := len(s.src)
	switch {
	case s.tok.endsAtMarkup():
		s.add(s.tok.start, end, Markup)
	case s.tok.state == tComment:
		s.add(s.tok.start, end, Comment)
	}
	if len(s.regions) > 0 {
		s.closeRegions(0, end, end)
	}
}

// frontMatter marks YAML front matter, which Gitea takes off the top of
// every markdown text and shows as a collapsed <details> (keys in its
// summary, values in its body), or not at all with "gitea: none" or
// "meta: none" (or when it holds only comments); "table" shows it as a
// table. It returns where the markdown starts. YAML Gitea cannot read as a
// mapping is rendered as markdown: its first line must look like "key: …".
func (s *scanner) frontMatter() int {
	src := s.src
	le, next := lineEnd(src, 0)
	if !yamlSeparator(src[:le]) {
		return 0
	}
	first := true
	mode := "details"
	for ls := next; ls < len(src); {
		e, n := lineEnd(src, ls)
		line := src[ls:e]
		if yamlSeparator(line) {
			switch {
			case ls == next:
				return 0 // nothing between: not front matter
			case first || mode == "none":
				// Only comments and blank lines, which nothing shows.
				s.add(0, e, FrontMatter)
			case mode == "details":
				s.addCollapsed(0, e, FrontMatter)
			}
			return n
		}
		t := strings.TrimSpace(line)
		if t != "" && t[0] != '#' {
			if first {
				// A mapping: a key, then ":" and white space or the line's
				// end (a sequence or a plain scalar is no render config,
				// and Gitea renders the text as markdown).
				if strings.HasPrefix(t, "- ") || t == "-" || !(strings.Contains(t, ": ") || strings.HasSuffix(t, ":")) {
					return 0
				}
				first = false
			}
			if k, v, ok := strings.Cut(t, ":"); ok && (k == "gitea" || k == "meta") {
				v = strings.Trim(strings.TrimSpace(v), `"'`)
				if v == "none" || v == "table" {
					mode = v
				}
			}
		}
		ls = n
	}
	return 0
}

// yamlSeparator is Gitea's test: spaces, three or more dashes, spaces
// (no tabs).
func yamlSeparator(line string) bool {
	t := strings.TrimFunc(line, func(r rune) bool { return r != '\t' && unicode.IsSpace(r) })
	return len(t) >= 3 && strings.Trim(t, "-") == ""
}
