package hidden

import "strings"

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
	inPara  int // the paragraph being scanned, or -1
	notes   []note
	noted   map[string]bool // footnote labels defined
	cited   map[string]bool // footnote labels referred to
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
	if end > start {
		s.spans = append(s.spans, Span{Start: start, End: end, Kind: k})
	}
}

func (s *scanner) addCollapsed(start, end int, k Kind) {
	if end > start {
		s.spans = append(s.spans, Span{Start: start, End: end, Kind: k, Collapsed: true})
	}
}

func (s *scanner) run() {
	units := s.parseBlocks(s.frontMatter())
	for i := range units {
		u := &units[i]
		s.depth = u.depth
		switch u.kind {
		case unitText:
			s.inPara = i
			s.scanText(u)
			end := u.segs[len(u.segs)-1].end
			s.closeOuter(len(units), i, end) // depth beyond any: only the paragraph's
			s.inPara = -1
		case unitHTML:
			for p := u.start; p < u.end; p++ {
				s.tok.step(rawByte(s.src[p:u.end]), p)
			}
			s.tok.step('\n', u.end)
		case unitHTMLEnd:
			if s.tok.inTag() {
				// A tag left open at a blank line: the page's next markup
				// closes it, taking what the tag held.
				s.add(s.tok.start, s.tok.last, Markup)
				s.tok.reset()
			}
		case unitClose:
			s.closeOuter(u.depth, -1, u.start)
		}
	}
	s.finish()
	s.footnotes()
}

// footnotes marks the definitions nothing refers to.
func (s *scanner) footnotes() {
	seen := map[string]bool{}
	for _, n := range s.notes {
		if s.cited[n.label] && !seen[n.label] {
			seen[n.label] = true
			continue
		}
		end := n.end
		for end > n.start && isSpace(s.src[end-1]) {
			end--
		}
		s.add(n.start, end, Footnote)
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
	case s.tok.inTag():
		s.add(s.tok.start, end, Markup)
	case s.tok.state == tComment:
		s.add(s.tok.start, end, Comment)
	case s.tok.state == tBogus || s.tok.state == tMarkupDecl || s.tok.state == tCommentDash:
		s.add(s.tok.start, end, Markup)
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
				k, _, ok := strings.Cut(t, ":")
				if !ok || k == "" || strings.ContainsAny(k[:1], "-[{>|") {
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

// yamlSeparator is Gitea's test: spaces, three or more dashes, spaces.
func yamlSeparator(line string) bool {
	t := strings.TrimRight(strings.TrimLeft(line, " \t"), " \t")
	return len(t) >= 3 && strings.Trim(t, "-") == ""
}
