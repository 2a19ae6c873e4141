// Package hidden finds the text of a markdown document that a forge's web
// view does not show, and marks it where it stands: HTML comments, link and
// image titles, image alternate text, link reference definitions, the
// labels of reference links, raw HTML attributes, tags the renderer drops,
// elements hidden by their style or whose content the sanitiser drops,
// heading attributes, code fence info strings beyond the language, front
// matter and the collapsed bodies of <details>.
//
// Why: issue bodies, comments and wiki pages are written by other people,
// and text a human reviewing the page cannot see is where instructions
// meant only for an agent hide. Deleting it (what an HTML sanitiser run
// over markdown does) loses what the author wrote, and corrupts prose and
// code full of < and > (Promise<string>, <workspace_id>, a < b && c > d);
// passing it on silently lets it pass for what a human saw. So it is kept,
// byte for byte, and wrapped:
//
//	⟦hidden: <!-- text -->⟧      text the web view does not show
//	⟦collapsed: …⟧               a <details> body, shown only when opened
//
// Marks nest only inside a collapsed body. A literal ⟦ of the source is
// written ⟦⟦ and a literal ⟧ is written ⟦⟧, so a source can neither forge
// a mark nor close one (a mark's end is a lone ⟧), and Unmark turns marked
// text back into its source exactly.
//
// The scanner knows CommonMark's block and inline structure as far as it
// decides what is code (code spans, fenced and indented code, shown as
// code), what is raw HTML (HTML blocks, inline HTML) and where links,
// titles and definitions are, plus what Gitea's and Forgejo's markdown
// pipeline adds (front matter, heading attributes, the sanitiser's element
// list). It runs in time linear in its input and memory bounded by it.
package hidden

import (
	"sort"
	"strings"
)

// Kind is what made a span hidden.
type Kind uint8

// The kinds of hidden text.
const (
	// Comment is an HTML comment, <!-- … -->.
	Comment Kind = iota
	// Markup is raw HTML the renderer drops whole: a processing
	// instruction, a declaration, CDATA, an unknown element's tag
	// (Promise<string>'s <string>), a tag left open.
	Markup
	// Attribute is an attribute of raw HTML that holds text (title, alt,
	// data-*, aria-*, style, …).
	Attribute
	// Element is an element and its content that the page does not show:
	// hidden by an attribute (hidden, style="display:none", a transparent
	// colour…) or one whose content the sanitiser drops (script, style,
	// svg…).
	Element
	// ImageAlt is an image's alternate text, ![this](…).
	ImageAlt
	// LinkTitle is a link's or image's title, [a](url "this").
	LinkTitle
	// Definition is a link reference definition, [label]: url "title".
	Definition
	// RefLabel is the label of a full reference link, [text][this], or of
	// a footnote, [^this] (the page shows its number).
	RefLabel
	// HeadingAttr is an attribute block after a heading, # Title {#id}.
	HeadingAttr
	// FenceInfo is what follows the language word of a code fence's info
	// string (```go this), or a language word no renderer would take.
	FenceInfo
	// Cell is a table row's cells past the header's count, which the
	// renderer drops.
	Cell
	// Footnote is a footnote definition nothing refers to (or a second
	// one of a label), which the renderer drops.
	Footnote
	// FrontMatter is YAML front matter, which Gitea shows collapsed (or
	// not at all with meta: none).
	FrontMatter
	// Collapsed is the body of a closed <details> element.
	Collapsed
	numKinds
)

var kindNames = [numKinds]string{
	"comment", "markup", "attribute", "element", "image_alt", "link_title",
	"definition", "ref_label", "heading_attr", "fence_info", "cell", "footnote", "front_matter", "collapsed",
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "unknown"
}

// Kinds lists every kind, in order.
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// The marks. Both brackets are rare in forge text (mathematical white
// square brackets), so escaping a literal one costs nothing in practice.
const (
	Open          = "⟦"
	Close         = "⟧"
	hiddenLabel   = "hidden: "
	collapseLabel = "collapsed: "
	// HiddenMark and CollapsedMark open a mark; Close ends it.
	HiddenMark    = Open + hiddenLabel
	CollapsedMark = Open + collapseLabel
)

// Span is a hidden byte range [Start, End) of the source.
type Span struct {
	Start, End int
	Kind       Kind
	// Collapsed reports a span marked collapsed rather than hidden: a
	// <details> body or front matter Gitea shows in one.
	Collapsed bool
	children  []*Span
}

// Stats counts the marks Mark made, by kind, and the source bytes they
// hold (a collapsed body's bytes include the marks nested in it).
type Stats struct {
	Spans [numKinds]int
	Bytes [numKinds]int
}

// Add adds o to s.
func (s *Stats) Add(o Stats) {
	for i := range s.Spans {
		s.Spans[i] += o.Spans[i]
		s.Bytes[i] += o.Bytes[i]
	}
}

// Total is the number of marks.
func (s Stats) Total() int {
	n := 0
	for _, c := range s.Spans {
		n += c
	}
	return n
}

// Mark returns src with every hidden span marked and every literal ⟦ and ⟧
// escaped (⟦⟦, ⟦⟧); a source with neither comes back unchanged.
func Mark(src string) string {
	out, _ := MarkStats(src)
	return out
}

// MarkStats is Mark, also counting the marks.
func MarkStats(src string) (string, Stats) {
	var st Stats
	roots := nest(Find(src))
	if len(roots) == 0 && !strings.Contains(src, Open) && !strings.Contains(src, Close) {
		return src, st
	}
	var b strings.Builder
	b.Grow(len(src) + len(roots)*(len(HiddenMark)+len(Close)))
	pos := 0
	for _, r := range roots {
		pos = emit(&b, src, pos, r, &st)
	}
	writeEscaped(&b, src[pos:])
	return b.String(), st
}

// Find returns the hidden spans of src, in no particular order; they may
// overlap and nest (Mark sorts that out).
func Find(src string) []Span {
	s := newScanner(src)
	s.run()
	return s.spans
}

// nest orders spans into a forest: a span inside a collapsed one is its
// child, a span inside a hidden one is part of it, and a span that
// overlaps the end of another extends it, so no hidden byte ever ends up
// outside a mark.
func nest(spans []Span) []*Span {
	kept := make([]*Span, 0, len(spans))
	for i := range spans {
		if spans[i].End > spans[i].Start {
			kept = append(kept, &spans[i])
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if kept[i].Start != kept[j].Start {
			return kept[i].Start < kept[j].Start
		}
		return kept[i].End > kept[j].End
	})
	var roots, stack []*Span
	for _, s := range kept {
		for len(stack) > 0 && stack[len(stack)-1].End <= s.Start {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			roots = append(roots, s)
			stack = append(stack, s)
			continue
		}
		// Extend every enclosing span that s overruns.
		for i := len(stack) - 1; i >= 0 && stack[i].End < s.End; i-- {
			stack[i].End = s.End
		}
		top := stack[len(stack)-1]
		if !top.Collapsed {
			continue // part of a hidden span: marked with it
		}
		top.children = append(top.children, s)
		stack = append(stack, s)
	}
	return roots
}

// emit writes src[pos:n.End] with n marked, returning n.End.
func emit(b *strings.Builder, src string, pos int, n *Span, st *Stats) int {
	writeEscaped(b, src[pos:n.Start])
	st.Spans[n.Kind]++
	st.Bytes[n.Kind] += n.End - n.Start
	if n.Collapsed {
		b.WriteString(CollapsedMark)
	} else {
		b.WriteString(HiddenMark)
	}
	p := n.Start
	for _, c := range n.children {
		p = emit(b, src, p, c, st)
	}
	writeEscaped(b, src[p:n.End])
	b.WriteString(Close)
	return n.End
}

// writeEscaped writes s with every ⟦ written ⟦⟦ and every ⟧ written ⟦⟧.
func writeEscaped(b *strings.Builder, s string) {
	for {
		i := strings.IndexAny(s, Open+Close)
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		b.WriteString(Open)
		b.WriteString(s[i : i+len(Open)]) // both brackets are three bytes
		s = s[i+len(Open):]
	}
}

// Unmark returns the source of text Mark made: the marks taken off, their
// content kept, escaped brackets single again. On text Mark did not make
// it still removes what reads as a mark.
func Unmark(s string) string {
	if !strings.Contains(s, Open) && !strings.Contains(s, Close) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	depth := 0
	for len(s) > 0 {
		i := strings.IndexAny(s, Open+Close)
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		r, rest := s[i:i+len(Open)], s[i+len(Open):]
		switch {
		case r == Close && depth > 0: // a mark's end
			depth--
			s = rest
		case r == Open && (strings.HasPrefix(rest, Open) || strings.HasPrefix(rest, Close)):
			b.WriteString(rest[:len(Open)]) // an escaped bracket
			s = rest[len(Open):]
		case r == Open && strings.HasPrefix(rest, hiddenLabel):
			depth++
			s = rest[len(hiddenLabel):]
		case r == Open && strings.HasPrefix(rest, collapseLabel):
			depth++
			s = rest[len(collapseLabel):]
		default:
			b.WriteString(r)
			s = rest
		}
	}
	return b.String()
}

// Shown returns what marked text says a reader of the page sees: the text
// outside every mark, escaped brackets single again.
func Shown(marked string) string {
	var b strings.Builder
	depth := 0
	for s := marked; len(s) > 0; {
		i := strings.IndexAny(s, Open+Close)
		if i < 0 {
			if depth == 0 {
				b.WriteString(s)
			}
			break
		}
		if depth == 0 {
			b.WriteString(s[:i])
		}
		r, rest := s[i:i+len(Open)], s[i+len(Open):]
		switch {
		case r == Close && depth > 0:
			depth--
			s = rest
		case r == Open && (strings.HasPrefix(rest, Open) || strings.HasPrefix(rest, Close)):
			if depth == 0 {
				b.WriteString(rest[:len(Open)])
			}
			s = rest[len(Open):]
		case r == Open && strings.HasPrefix(rest, hiddenLabel):
			depth++
			s = rest[len(hiddenLabel):]
		case r == Open && strings.HasPrefix(rest, collapseLabel):
			depth++
			s = rest[len(collapseLabel):]
		default:
			if depth == 0 {
				b.WriteString(r)
			}
			s = rest
		}
	}
	return b.String()
}
