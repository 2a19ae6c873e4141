// Package pdfgen writes small, valid PDF files for tests: pages of text in
// the standard fonts, optionally Flate-compressed, pages that are only an
// image (what a scanned page looks like to a text extractor), and padding
// to reach a given size. Tests generate the PDFs they read instead of
// committing binaries.
package pdfgen

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Page is one page: Lines of text drawn in Font (a standard Type 1 font
// name such as Helvetica, Times-Roman or Courier; Helvetica when empty), or
// an image only when Image is set.
type Page struct {
	Font  string
	Lines []string
	Image bool
}

// Options shape the whole file.
type Options struct {
	// Compress Flate-encodes every content stream.
	Compress bool
	// PadTo appends an unreferenced stream object of incompressible bytes
	// so the file is at least this many bytes long.
	PadTo int
}

// Doc writes a PDF with the given pages.
func Doc(opt Options, pages ...Page) []byte {
	w := &writer{}
	w.buf.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	// Object numbers: 1 catalog, 2 pages, then per page: page, contents,
	// and for an image page the image.
	n := len(pages)
	kids := make([]string, n)
	next := 3
	type ids struct{ page, content, image int }
	all := make([]ids, n)
	for i, p := range pages {
		all[i] = ids{page: next, content: next + 1}
		next += 2
		if p.Image {
			all[i].image = next
			next++
		}
		kids[i] = fmt.Sprintf("%d 0 R", all[i].page)
	}
	w.obj(1, "<< /Type /Catalog /Pages 2 0 R >>")
	w.obj(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n))
	for i, p := range pages {
		id := all[i]
		font := p.Font
		if font == "" {
			font = "Helvetica"
		}
		res := fmt.Sprintf("/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >> >>", font)
		var content string
		if p.Image {
			res = fmt.Sprintf("/XObject << /Im1 %d 0 R >>", id.image)
			content = "q 200 0 0 100 0 0 cm /Im1 Do Q"
		} else {
			var b strings.Builder
			b.WriteString("BT /F1 12 Tf 14 TL 40 760 Td")
			for _, l := range p.Lines {
				fmt.Fprintf(&b, " (%s) Tj T*", escape(l))
			}
			b.WriteString(" ET")
			content = b.String()
		}
		w.obj(id.page, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << %s >> >>", id.content, res))
		w.stream(id.content, "", []byte(content), opt.Compress)
		if p.Image {
			// A 2x2 grey image: enough for a page that has no text.
			w.stream(id.image, "/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8", []byte{0, 128, 255, 64}, false)
		}
	}
	// The padding: what is missing, less the cross-reference table (20
	// bytes an object) and less than the framing and trailer take (about
	// 135 bytes), so the file ends a little past PadTo, never short of it.
	if pad := opt.PadTo - w.buf.Len() - 20*(next+1) - 100; pad > 0 {
		w.stream(next, "", noise(pad), false)
		next++
	}
	return w.finish(next)
}

// Raw writes a PDF of the given object bodies, numbered from 1 (the first
// is the catalog, named /Root), with a correct cross-reference table: for
// tests that build broken or hostile files object by object.
func Raw(objs ...string) []byte {
	w := &writer{}
	w.buf.WriteString("%PDF-1.4\n")
	for i, o := range objs {
		w.obj(i+1, o)
	}
	return w.finish(len(objs) + 1)
}

// TenMiB is the 10 MiB PDF of the speed and memory targets (issue 22):
// 500 Flate-compressed pages of text in three fonts, every tenth page a
// scanned image, padded with an incompressible stream the way embedded
// images fill real files.
func TenMiB() []byte {
	fonts := []string{"Helvetica", "Times-Roman", "Courier"}
	pages := make([]Page, 500)
	for i := range pages {
		lines := make([]string, 40)
		for j := range lines {
			lines[j] = fmt.Sprintf("Page %d line %d: the quick brown fox jumps over the lazy dog.", i+1, j+1)
		}
		pages[i] = Page{Font: fonts[i%3], Lines: lines, Image: i%10 == 9}
	}
	return Doc(Options{Compress: true, PadTo: 10 << 20}, pages...)
}

// Text is a one-page PDF showing lines in Helvetica.
func Text(lines ...string) []byte { return Doc(Options{}, Page{Lines: lines}) }

type writer struct {
	buf     bytes.Buffer
	offsets map[int]int
}

func (w *writer) obj(id int, body string) {
	if w.offsets == nil {
		w.offsets = map[int]int{}
	}
	w.offsets[id] = w.buf.Len()
	fmt.Fprintf(&w.buf, "%d 0 obj\n%s\nendobj\n", id, body)
}

func (w *writer) stream(id int, dict string, data []byte, compress bool) {
	if compress {
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		_, _ = zw.Write(data)
		_ = zw.Close()
		data = z.Bytes()
		dict += " /Filter /FlateDecode"
	}
	w.obj(id, fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data))
}

func (w *writer) finish(size int) []byte { return w.finishWith(size, "") }

// finishWith writes the cross-reference table and a trailer with extra
// entries (an encrypted file's /Encrypt and /ID).
func (w *writer) finishWith(size int, extra string) []byte {
	xref := w.buf.Len()
	fmt.Fprintf(&w.buf, "xref\n0 %d\n0000000000 65535 f \n", size)
	for id := 1; id < size; id++ {
		fmt.Fprintf(&w.buf, "%010d 00000 n \n", w.offsets[id])
	}
	fmt.Fprintf(&w.buf, "trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n", size, extra, xref)
	return w.buf.Bytes()
}

// escape makes s a PDF literal string body.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

// noise is n deterministic bytes that do not compress.
func noise(n int) []byte {
	out := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{'p', 'd', 'f'}).Read(out)
	return out
}
