package pdftext

import (
	"context"
	"sync/atomic"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// extractor holds what one extraction shares across pages: the document,
// loaded fonts and CMaps, the budgets left.
type extractor struct {
	ctx         context.Context
	stopped     *atomic.Bool // set when ctx is done
	doc         *pdfobj.Doc
	mem         *pdfobj.Budget
	fonts       map[string]*font
	cmaps       map[pdfobj.Ref]*cmap
	collections map[string]*cmap // CID to Unicode CMaps, by name (collection.go)
	programs    map[pdfobj.Ref]program
	stdTables   map[[2]int]*[256]float64
	fallback    *font
	active      map[pdfobj.Ref]bool // forms being run: a form inside itself stops
	spoiled     map[pdfobj.Ref]bool // forms whose content proved hostile
	contentLeft int64
	textLeft    int
	out         *layout
	sawImage    bool
	glyphBuf    []glyph
	lexBufs     [][]byte // content lexers' buffers, kept for the next stream
	note        string   // why the page's content stopped early
	spent       error    // the memory budget refused a charge
	work        work
}

// check stops the extraction (a panic extract recovers) once its context
// is done. It is called in every loop whose length the file decides: per
// token, glyph, object, entry and 64 KiB of input, so it costs one atomic
// load.
func (x *extractor) check() {
	if x.stopped.Load() {
		checkCtx(x.ctx)
	}
}

// page interprets one page's content and adds its annotations' text;
// full is false when a budget stopped it.
func (x *extractor) page(p pdfobj.Page) (out Page, full bool) {
	checkCtx(x.ctx)
	x.out = &layout{max: x.textLeft, mem: x.mem}
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
				if s, ok := r.(pdfobj.Stop); ok && spent(s.Err) {
					// The memory budget: the page stops here, its text
					// so far kept, and so does the extraction.
					full, x.spent = false, s.Err
					return
				}
				panic(r)
			}
		}()
		c := &content{x: x, res: p.Resources, gs: gstate{ctm: identity, th: 1}, tm: identity, tlm: identity}
		for _, s := range streams {
			// The streams of one page are one content stream.
			r, err := x.openContent(s)
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
	x.out.release()
	x.mem.TryTake(int64(len(text))) // kept in the result (at most what the buffer held)
	x.textLeft -= len(text)
	out = Page{Text: text, Note: x.note}
	if text == "" && out.Note == "" {
		switch {
		case contents == nil:
			out.Note = "no content: a blank page"
		case readErr != nil && len(streams) == 1:
			out.Note = "its content cannot be read: " + why(readErr)
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
