// Package pdftext extracts the text of a PDF page by page, within limits:
// a deadline, budgets of content interpreted and text returned, and
// bounds on everything a hostile file could make it hold. The object layer
// (internal/pdfobj) reads the file, decrypting with the empty user
// password; the content interpreter (content.go) places each glyph by the
// text matrix, the CTM and the font's widths; the layout (layout.go) turns
// glyph positions into words and lines in content order.
package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// Errors Extract wraps, so callers can tell a file that is not a PDF from
// one that is broken or too costly to read.
var (
	ErrNotPDF      = errors.New("not a PDF file")
	ErrMalformed   = pdfobj.ErrMalformed
	ErrTooMuchWork = pdfobj.ErrLimit
	ErrPassword    = pdfobj.ErrPassword
	ErrPages       = errors.New("bad page range")
)

// Options bound one extraction; zero values take the defaults.
type Options struct {
	// Pages is "" (all), "N", "N-M" or "N-" (to the end).
	Pages string
	// MaxTextBytes is the most text returned; past it the result stops at
	// a page boundary (or cuts a page) and says where to go on.
	MaxTextBytes int
	// MaxContentBytes is the most decoded page content interpreted.
	MaxContentBytes int64
	// MaxPages is the most pages one extraction reads.
	MaxPages int
	// MaxMemory is the most memory one extraction holds of what the file
	// decides: decoders' state, decoded streams, objects, fonts, CMaps,
	// text. Every such allocation is charged before it is made; past the
	// budget the extraction stops with the pages read so far.
	MaxMemory int64
	// Timeout bounds the whole extraction.
	Timeout time.Duration
}

// Defaults.
const (
	DefaultMaxTextBytes    = 48 << 10 // JSON-free text: within tool.MaxResultBytes with the rest of a result
	DefaultMaxContentBytes = 32 << 20
	DefaultTimeout         = 10 * time.Second
	DefaultMaxPages        = 1000
	// DefaultMaxMemory keeps one extraction's process within 64 MB (the
	// budget, what the collector lets pile up before it runs, the file).
	DefaultMaxMemory = 16 << 20
)

// Page is one page's text.
type Page struct {
	Number int    `json:"page"`
	Text   string `json:"text"`
	// Note says why a page has no text (it is only images, a scan, or it
	// has no content at all), or why its text may be incomplete (its
	// content stopped early, being hostile or damaged).
	Note string `json:"note,omitempty"`
}

// Result is the text of the requested pages.
type Result struct {
	PageCount int    `json:"page_count"`
	Pages     []Page `json:"pages"`
	// Truncated is set when a budget stopped the extraction early; Note
	// then says how to read on.
	Truncated bool   `json:"truncated,omitempty"`
	Note      string `json:"note,omitempty"`
	work      work
}

// ParsePages reads a page range: "" is every page (to is 0), "N" one page,
// "N-M" pages N to M, "N-" from N to the end (to is 0).
func ParsePages(spec string) (from, to int, err error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return 1, 0, nil
	}
	bad := fmt.Errorf("%w %q: use a page number (\"2\") or a range (\"1-3\", \"4-\"), pages count from 1", ErrPages, spec)
	a, b, isRange := strings.Cut(spec, "-")
	from, err = strconv.Atoi(strings.TrimSpace(a))
	if err != nil || from < 1 {
		return 0, 0, bad
	}
	if !isRange {
		return from, from, nil
	}
	if strings.TrimSpace(b) == "" {
		return from, 0, nil
	}
	to, err = strconv.Atoi(strings.TrimSpace(b))
	if err != nil || to < 1 {
		return 0, 0, bad
	}
	if to < from {
		return 0, 0, fmt.Errorf("%w %q: the range ends before it starts", ErrPages, spec)
	}
	return from, to, nil
}

// IsPDF says whether data starts like a PDF.
func IsPDF(data []byte) bool { return bytes.HasPrefix(data, []byte("%PDF-")) }

// Extract returns the text of the pages opt.Pages names. It never panics,
// holds at most opt.MaxMemory of what the file decides, and returns at its
// deadline or when ctx ends, and only once its work has stopped: every
// loop whose length the file decides looks at the deadline, so that is
// within a few milliseconds of it, and nothing goes on after it returns.
func Extract(ctx context.Context, data []byte, opt Options) (*Result, error) {
	if opt.MaxTextBytes <= 0 {
		opt.MaxTextBytes = DefaultMaxTextBytes
	}
	if opt.MaxContentBytes <= 0 {
		opt.MaxContentBytes = DefaultMaxContentBytes
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.MaxPages <= 0 {
		opt.MaxPages = DefaultMaxPages
	}
	if opt.MaxMemory <= 0 {
		opt.MaxMemory = DefaultMaxMemory
	}
	from, to, err := ParsePages(opt.Pages)
	if err != nil {
		return nil, err
	}
	if !IsPDF(data) {
		return nil, ErrNotPDF
	}
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	res, err := extract(ctx, data, from, to, opt)
	if ctx.Err() != nil && (err != nil || res == nil) {
		// The work stopped at a check (or finished just then).
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("%w: no answer within %s", ErrTooMuchWork, opt.Timeout)
		}
		return nil, fmt.Errorf("%w: cancelled", ErrTooMuchWork)
	}
	return res, err
}

func extract(ctx context.Context, data []byte, from, to int, opt Options) (res *Result, err error) {
	stopped := new(atomic.Bool)
	defer context.AfterFunc(ctx, func() { stopped.Store(true) })()
	mem := pdfobj.NewBudget(opt.MaxMemory)
	if pool := poolOf(ctx); pool != nil {
		mem.Draw(pool.p)
		defer mem.Close()
	}
	x := &extractor{ctx: ctx, stopped: stopped, mem: mem, fonts: map[string]*font{}, cmaps: map[pdfobj.Ref]*cmap{},
		collections: map[string]*cmap{},
		programs:    map[pdfobj.Ref]program{}, stdTables: map[[2]int]*[256]float64{},
		active: map[pdfobj.Ref]bool{}, spoiled: map[pdfobj.Ref]bool{}, contentLeft: opt.MaxContentBytes}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, asError(r)
		}
	}()
	doc, err := pdfobj.Open(headerFixed(data), pdfobj.Options{MaxDecoded: opt.MaxContentBytes, Memory: mem, Check: x.check})
	if err != nil {
		return nil, err
	}
	x.doc = doc
	x.work.Sections, x.work.XrefLoop = doc.Sections()
	pages, more, err := doc.Pages(to)
	if err != nil {
		return nil, err
	}
	res = &Result{PageCount: len(pages), Pages: []Page{}}
	if more {
		if n, ok := doc.Int(doc.GetDict(doc.Root(), "Pages")["Count"]); ok && n > int64(len(pages)) && n < 1<<31 {
			res.PageCount = int(n)
		}
	}
	if from > len(pages) {
		return nil, fmt.Errorf("%w: page %d is past the end (%d pages)", ErrPages, from, res.PageCount)
	}
	last := len(pages)
	if to > 0 {
		last = min(to, last)
	}
	x.textLeft = opt.MaxTextBytes
	for n := from; n <= last; n++ {
		if n-from == opt.MaxPages {
			res.Truncated = true
			res.Note = fmt.Sprintf("one call reads at most %d pages; read on with pages=\"%d-\"", opt.MaxPages, n)
			break
		}
		p, full := x.page(pages[n-1])
		p.Number = n
		res.Pages = append(res.Pages, p)
		if !full {
			res.Truncated = true
			if p.Text == "" {
				res.Pages = res.Pages[:len(res.Pages)-1]
			}
			if len(res.Pages) == 0 {
				if x.spent != nil {
					return nil, fmt.Errorf("%w in page %d", x.spent, n)
				}
				return nil, fmt.Errorf("%w: page %d alone is over what one call reads (%d bytes of content)", ErrTooMuchWork, n, opt.MaxContentBytes)
			}
			var busy *pdfobj.PoolSpentError
			switch {
			case errors.As(x.spent, &busy):
				res.Note = fmt.Sprintf("stopped in page %d: the memory this server holds for reading PDFs is in use by other calls; read on in a moment with pages=\"%d-\"", n, n)
			case x.spent != nil:
				res.Note = fmt.Sprintf("stopped in page %d: reading it needs over %s of memory, more than one call holds; later pages may read: pages=\"%d-\"", n, size(int(opt.MaxMemory)), n+1)
			case x.contentLeft < 0:
				res.Note = fmt.Sprintf("stopped in page %d: one call interprets at most %s of page content; read on with pages=\"%d-\"", n, size(int(opt.MaxContentBytes)), n)
			default:
				res.Note = fmt.Sprintf("stopped in page %d: one call returns at most %s of text; read on with pages=\"%d-\"", n, size(opt.MaxTextBytes), n)
			}
			if n == from && p.Text != "" && x.spent == nil && x.contentLeft >= 0 {
				res.Note = fmt.Sprintf("page %d is longer than the %s of text one call returns and is cut", n, size(opt.MaxTextBytes))
			}
			break
		}
	}
	x.work.Peak = mem.Peak()
	res.work = x.work
	return res, nil
}

// size says n bytes in words: "256 KiB", "100 bytes".
func size(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// headerFixed lets a file whose header is damaged or says 2.0 through:
// nothing in the object layer depends on the version.
func headerFixed(data []byte) []byte { return data }

// Format lays the result out as one text an agent reads directly: each
// page under a "--- page N of M ---" line (which carries the page's note),
// and the result's note at the end.
func Format(r *Result) string {
	var b strings.Builder
	for _, p := range r.Pages {
		fmt.Fprintf(&b, "--- page %d of %d", p.Number, r.PageCount)
		if p.Note != "" {
			fmt.Fprintf(&b, " (%s)", p.Note)
		}
		b.WriteString(" ---\n")
		if p.Text != "" {
			b.WriteString(p.Text)
			b.WriteByte('\n')
		}
	}
	if r.Note != "" {
		fmt.Fprintf(&b, "--- %s ---\n", r.Note)
	}
	return b.String()
}

// Span says which pages a result holds: "2", "1-3", or "" for none.
func (r *Result) Span() string {
	switch n := len(r.Pages); {
	case n == 0:
		return ""
	case n == 1:
		return strconv.Itoa(r.Pages[0].Number)
	default:
		return fmt.Sprintf("%d-%d", r.Pages[0].Number, r.Pages[n-1].Number)
	}
}
