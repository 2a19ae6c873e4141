// Package pdftext extracts the text of a PDF page by page, within limits:
// a deadline, a budget of bytes read, decoded and returned, and checks that
// refuse files built to crash a parser. It wraps github.com/ledongthuc/pdf
// (pure Go) and recovers every panic of it, so a malformed or hostile file
// yields an error, never a hang or a crash.
package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// Errors Extract wraps, so callers can tell a file that is not a PDF from
// one that is broken or too costly to read.
var (
	ErrNotPDF      = errors.New("not a PDF file")
	ErrMalformed   = errors.New("malformed PDF")
	ErrTooMuchWork = errors.New("the PDF takes too much work to read")
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
	// Timeout bounds the whole extraction.
	Timeout time.Duration
}

// Defaults.
const (
	DefaultMaxTextBytes    = 48 << 10 // JSON-free text: within tool.MaxResultBytes with the rest of a result
	DefaultMaxContentBytes = 32 << 20
	DefaultTimeout         = 10 * time.Second
	DefaultMaxPages        = 1000
	// maxPageTree bounds the page tree walk: nodes visited and depth.
	maxTreeNodes = 100_000
	maxTreeDepth = 64
)

// Page is one page's text.
type Page struct {
	Number int    `json:"page"`
	Text   string `json:"text"`
	// Note says why a page has no text: it is only images (a scan), or it
	// has no content at all.
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

// Extract returns the text of the pages opt.Pages names. It never panics
// and returns by the deadline: the work runs on its own goroutine, which a
// guard stops at its next read of the file once the deadline has passed.
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
	from, to, err := ParsePages(opt.Pages)
	if err != nil {
		return nil, err
	}
	if !IsPDF(data) {
		return nil, ErrNotPDF
	}
	maxObjects := min(int64(len(data))/4+1024, 4<<20)
	if err := prescan(data, maxObjects, opt.MaxContentBytes); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := extract(ctx, data, from, to, opt)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-ctx.Done():
		return nil, fmt.Errorf("%w: no answer within %s", ErrTooMuchWork, opt.Timeout)
	}
}

func extract(ctx context.Context, data []byte, from, to int, opt Options) (res *Result, err error) {
	g := &guard{ctx: ctx, data: headerFixed(data), budget: 512<<20 + 64*int64(len(data))}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, asError(r)
		}
	}()
	r, err := pdf.NewReader(g, int64(len(data)))
	if err != nil {
		var s stop
		if errors.As(err, &s) {
			return nil, s.err
		}
		if errors.Is(err, ErrMalformed) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	root := r.Trailer().Key("Root").Key("Pages")
	if root.Kind() != pdf.Dict {
		return nil, fmt.Errorf("%w: it has no page tree", ErrMalformed)
	}
	w := walker{g: g, want: to}
	w.walk(root, 0)
	res = &Result{PageCount: len(w.pages), Pages: []Page{}}
	if w.more {
		res.PageCount = int(root.Key("Count").Int64())
	}
	if from > len(w.pages) {
		return nil, fmt.Errorf("%w: page %d is past the end (%d pages)", ErrPages, from, res.PageCount)
	}
	last := len(w.pages)
	if to > 0 {
		last = min(to, last)
	}
	budget := &budget{text: opt.MaxTextBytes, content: opt.MaxContentBytes}
	for n := from; n <= last; n++ {
		if n-from == opt.MaxPages {
			res.Truncated = true
			res.Note = fmt.Sprintf("one call reads at most %d pages; read on with pages=\"%d-\"", opt.MaxPages, n)
			break
		}
		p, full, err := pageText(g, pdf.Page{V: w.pages[n-1]}, budget)
		if err != nil {
			return nil, err
		}
		p.Number = n
		res.Pages = append(res.Pages, p)
		if !full {
			res.Truncated = true
			if p.Text == "" {
				res.Pages = res.Pages[:len(res.Pages)-1]
			}
			if len(res.Pages) == 0 {
				return nil, fmt.Errorf("%w: page %d alone is over what one call reads (%d bytes of content)", ErrTooMuchWork, n, opt.MaxContentBytes)
			}
			res.Note = fmt.Sprintf("stopped in page %d: one call returns at most %s of text; read on with pages=\"%d-\"", n, size(opt.MaxTextBytes), n)
			if n == from {
				res.Note = fmt.Sprintf("page %d is longer than the %s of text one call returns and is cut", n, size(opt.MaxTextBytes))
			}
			break
		}
	}
	return res, nil
}

// size says n bytes in words: "256 KiB", "100 bytes".
func size(n int) string {
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// headerFixed lets a PDF 2.0 file through the library's check for a 1.x
// header; nothing else about the file changes.
func headerFixed(data []byte) []byte {
	if bytes.HasPrefix(data, []byte("%PDF-2.")) {
		fixed := bytes.Clone(data)
		copy(fixed, "%PDF-1.7")
		return fixed
	}
	return data
}

// walker collects the page dictionaries in order, up to page want (0: all),
// bounded in nodes and depth so a cyclic page tree ends.
type walker struct {
	g     *guard
	want  int
	nodes int
	pages []pdf.Value
	more  bool
}

func (w *walker) walk(node pdf.Value, d int) {
	kids := node.Key("Kids")
	for i := 0; i < kids.Len(); i++ {
		if w.want > 0 && len(w.pages) >= w.want {
			w.more = true
			return
		}
		w.nodes++
		if w.nodes > maxTreeNodes || d > maxTreeDepth {
			panic(stop{fmt.Errorf("%w: its page tree is over %d nodes or %d levels (a cycle?)", ErrMalformed, maxTreeNodes, maxTreeDepth)})
		}
		kid := kids.Index(i)
		switch {
		case kid.Kind() != pdf.Dict:
		case kid.Key("Type").Name() == "Pages" || kid.Key("Kids").Kind() == pdf.Array:
			w.walk(kid, d+1)
		default:
			w.pages = append(w.pages, kid)
		}
	}
}

type budget struct {
	text    int
	content int64
}

// pageText interprets one page's content stream for its text operators.
// full is false when a budget stopped it.
func pageText(g *guard, p pdf.Page, b *budget) (out Page, full bool, err error) {
	contents := p.V.Key("Contents")
	if contents.Kind() == pdf.Null {
		return Page{Note: "no content: a blank page"}, true, nil
	}
	body, err := scanDecoded(contents, b.content)
	if errors.Is(err, errBudget) {
		return Page{}, false, nil
	}
	if err != nil {
		return Page{Note: "its content cannot be read: " + err.Error()}, true, nil
	}
	b.content -= int64(len(body))
	fonts := map[string]pdf.TextEncoding{}
	var enc pdf.TextEncoding
	var sb strings.Builder
	newline := func() {
		if sb.Len() > 0 && !strings.HasSuffix(sb.String(), "\n") {
			sb.WriteByte('\n')
		}
	}
	show := func(raw string) {
		// Decoding costs up to (codes x CMap entries) with no read the
		// guard sees: decode in pieces, checking the deadline between
		// them, and no more codes than the text budget has room for.
		room := b.text - sb.Len() + 4
		cut := len(raw) > room
		if cut {
			raw = raw[:max(room, 0)]
		}
		for len(raw) > 0 {
			g.check()
			piece := raw[:min(len(raw), decodePiece)]
			raw = raw[len(piece):]
			sb.WriteString(decode(enc, piece))
		}
		if cut || sb.Len() > b.text {
			panic(errFull)
		}
	}
	full = true
	func() {
		defer func() {
			if r := recover(); r != nil {
				if r == errFull {
					full = false
					return
				}
				panic(r)
			}
		}()
		pdf.Interpret(contents, func(stk *pdf.Stack, op string) {
			g.check()
			args := make([]pdf.Value, stk.Len())
			for i := len(args) - 1; i >= 0; i-- {
				args[i] = stk.Pop()
			}
			switch op {
			case "BT", "T*":
				newline()
			case "Td", "TD":
				if len(args) == 2 && args[1].Float64() != 0 {
					newline()
				} else if sb.Len() > 0 && !strings.HasSuffix(sb.String(), " ") {
					sb.WriteByte(' ')
				}
			case "Tf":
				if len(args) == 2 {
					enc = font(g, p, args[0].Name(), fonts)
				}
			case "'", "\"":
				newline()
				if len(args) > 0 {
					show(args[len(args)-1].RawString())
				}
			case "Tj":
				if len(args) == 1 {
					show(args[0].RawString())
				}
			case "TJ":
				if len(args) == 1 {
					for i := 0; i < args[0].Len(); i++ {
						x := args[0].Index(i)
						if x.Kind() == pdf.String {
							show(x.RawString())
						} else if x.Float64() < -200 {
							sb.WriteByte(' ')
						}
					}
				}
			}
		})
	}()
	text := strings.TrimSpace(sb.String())
	if len(text) > b.text {
		text = cut(text, b.text)
	}
	b.text -= len(text)
	out = Page{Text: text}
	if text == "" {
		out.Note = "no extractable text"
		if hasImage(p) {
			out.Note = "no extractable text: the page is an image (a scan?); the text cannot be read without OCR"
		}
	}
	return out, full, nil
}

var (
	errFull   = errors.New("text budget spent")
	errBudget = errors.New("content budget spent")
)

// decodePiece is how many bytes of a string operand are decoded between
// two deadline checks: a multiple of every code length (1 to 4 bytes).
const decodePiece = 1200

// scanDecoded reads a stream's decoded content once, up to max bytes, and
// checks its nesting before the library parses it (recursively).
func scanDecoded(contents pdf.Value, max int64) ([]byte, error) {
	var readers []io.Reader
	if contents.Kind() == pdf.Array {
		for i := 0; i < contents.Len(); i++ {
			readers = append(readers, contents.Index(i).Reader())
		}
	} else {
		readers = append(readers, contents.Reader())
	}
	body, err := io.ReadAll(io.LimitReader(io.MultiReader(readers...), max+1))
	if int64(len(body)) > max {
		return nil, errBudget
	}
	if err != nil && len(body) == 0 {
		return nil, err
	}
	return body, depth([][]byte{body})
}

// font returns the text encoding of the page's font name, checking its
// ToUnicode CMap (which the library parses recursively) first.
func font(g *guard, p pdf.Page, name string, cache map[string]pdf.TextEncoding) pdf.TextEncoding {
	if enc, ok := cache[name]; ok {
		return enc
	}
	f := pdf.Font{V: resources(p).Key("Font").Key(name)}
	var enc pdf.TextEncoding
	if tu := f.V.Key("ToUnicode"); tu.Kind() == pdf.Stream {
		if body, err := scanDecoded(tu, 4<<20); err != nil || !cmapOK(body) {
			// Unreadable or hostile: the codes are shown as Latin-1.
			cache[name] = nil
			return nil
		}
	}
	if f.V.Kind() == pdf.Dict {
		enc = f.Encoder()
	}
	cache[name] = enc
	g.check()
	return enc
}

// decode turns a string operand into text: through the font's encoding
// when there is one, else as Latin-1; control characters and invalid UTF-8
// are dropped.
func decode(enc pdf.TextEncoding, raw string) string {
	s := raw
	if enc != nil {
		s = enc.Decode(raw)
	} else {
		r := make([]rune, len(raw))
		for i := 0; i < len(raw); i++ {
			r[i] = rune(raw[i])
		}
		s = string(r)
	}
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t') {
			return -1
		}
		return r
	}, s)
}

// cut shortens s to at most n bytes at a rune boundary.
func cut(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// resources is the page's resource dictionary, inherited from its
// parents (at most maxTreeDepth up: a Parent cycle ends there).
func resources(p pdf.Page) pdf.Value {
	v := p.V
	for i := 0; i <= maxTreeDepth && v.Kind() == pdf.Dict; i++ {
		if r := v.Key("Resources"); r.Kind() == pdf.Dict {
			return r
		}
		v = v.Key("Parent")
	}
	return pdf.Value{}
}

func hasImage(p pdf.Page) bool {
	x := resources(p).Key("XObject")
	for _, k := range x.Keys() {
		if x.Key(k).Key("Subtype").Name() == "Image" {
			return true
		}
	}
	return false
}

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
