package pdftext

import (
	"context"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// extractor holds what one extraction shares across pages: the document,
// loaded fonts, the budgets left.
type extractor struct {
	ctx         context.Context
	doc         *pdfobj.Doc
	fonts       map[string]*font
	fallback    *font
	active      map[pdfobj.Ref]bool // forms being run: a form inside itself stops
	spoiled     map[pdfobj.Ref]bool // forms whose content proved hostile
	contentLeft int64
	textLeft    int
	out         *layout
	sawImage    bool
	glyphBuf    []glyph
	checks      int
	note        string // why the page's content stopped early
	work        work
}

func (x *extractor) check() {
	x.checks++
	if x.checks&63 == 0 {
		checkCtx(x.ctx)
	}
}

// page interprets one page's content and adds its annotations' text;
// full is false when a budget stopped it.
func (x *extractor) page(p pdfobj.Page) (out Page, full bool) {
	checkCtx(x.ctx)
	x.out = &layout{max: x.textLeft}
	x.sawImage, x.note = false, ""
	full = true
	contents := x.doc.Get(p.Dict, "Contents")
	var streams []*pdfobj.Stream
	switch c := contents.(type) {
	case *pdfobj.Stream:
		streams = append(streams, c)
	case pdfobj.Array:
		for _, s := range c {
			if s, ok := x.doc.Resolve(s).(*pdfobj.Stream); ok {
				streams = append(streams, s)
			}
		}
	}
	var readErr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				if r == errFull || r == errBudget {
					full = false
					return
				}
				panic(r)
			}
		}()
		c := &content{x: x, res: p.Resources, gs: gstate{ctm: identity, th: 1}, tm: identity, tlm: identity}
		for _, s := range streams {
			// The streams of one page are one content stream.
			r, err := x.doc.StreamReader(s)
			if err != nil {
				readErr = err
				continue
			}
			c.interpret(r)
		}
		x.annotations(p)
	}()
	text := x.out.text()
	if len(text) > x.textLeft {
		text = cut(text, x.textLeft)
	}
	x.textLeft -= len(text)
	out = Page{Text: text, Note: x.note}
	if text == "" && out.Note == "" {
		switch {
		case contents == nil:
			out.Note = "no content: a blank page"
		case readErr != nil && len(streams) == 1:
			out.Note = "its content cannot be read: " + strings.TrimPrefix(readErr.Error(), "malformed PDF: ")
		case x.sawImage || hasImage(x.doc, p.Resources):
			out.Note = "no extractable text: the page is an image (a scan?); the text cannot be read without OCR"
		default:
			out.Note = "no extractable text"
		}
	}
	return out, full
}

func hasImage(d *pdfobj.Doc, res pdfobj.Dict) bool {
	xo := d.GetDict(res, "XObject")
	for k := range xo {
		if s, ok := d.Get(xo, k).(*pdfobj.Stream); ok && d.GetName(s.Dict, "Subtype") == "Image" {
			return true
		}
	}
	return false
}
