package pdftext_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// Fuzz targets of the layers above the object layer (security issue 26,
// item 4): whole files, fonts, Type 3 fonts, content streams, Form
// XObjects, annotations (CMaps: cmap_fuzz_test.go). Each builds a PDF
// around what it fuzzes and extracts its text under the ceiling of one
// input (64 MB allocated, 2 s of CPU), within the memory budget and with
// a content budget of 4 MiB (so what a legitimate input costs stays well
// under the ceiling, and what goes over it is amplification).

// extractWithin extracts doc's pages under the ceiling of one input.
func extractWithin(t *testing.T, doc []byte, pages string) {
	t.Helper()
	costcheck.Within(t, costcheck.Default(), func() {
		res, err := pdftext.Extract(context.Background(), doc, pdftext.Options{Pages: pages, MaxContentBytes: 4 << 20, Timeout: time.Minute})
		if err == nil && res == nil {
			t.Fatal("no result and no error")
		}
		if res != nil && pdftext.WorkOf(res).Peak > pdftext.DefaultMaxMemory {
			t.Fatalf("held %d bytes, over the budget", pdftext.WorkOf(res).Peak)
		}
	})
}

// FuzzExtract: whatever the bytes and page range, Extract returns a
// result or an error within the ceiling.
func FuzzExtract(f *testing.F) {
	f.Add(threePages(false), "")
	f.Add(threePages(true), "2-3")
	f.Add(pdfgen.Doc(pdfgen.Options{}, pdfgen.Page{Image: true}), "1")
	f.Add(hostile("<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [2 0 R] /Count 1 >>"), "")
	f.Add([]byte("%PDF-1.4\n1 0 obj\n<< [[[[ >>\nendobj\n"), "1-")
	f.Add(type0(cmapHead+"1 beginbfrange <0010> <0012> <03B1> endbfrange\n"+cmapTail, "BT /F1 12 Tf <0010> Tj ET"), "1")
	for _, data := range pdftext.SeedPDFs(f) {
		f.Add(data, "1-2")
	}
	for _, data := range hostilePDFs() {
		f.Add(data, "")
	}
	f.Fuzz(extractWithin)
}

// hostilePDFs are the hostile shapes of issues 18 and 26, but those over
// 512 KiB (a fuzzer mutating megabytes runs a few inputs a second; they
// are TestHostileShapes' and internal/memcheck's).
func hostilePDFs() [][]byte {
	var out [][]byte
	if !costcheck.Seeding() {
		return nil
	}
	for _, b := range pdfgen.Bombs() {
		out = append(out, b.PDF())
	}
	for _, h := range pdfgen.HostileShapes() {
		if doc := hostileShapes()[h]; len(doc) <= 512<<10 {
			out = append(out, doc)
		}
	}
	return out
}

// onePage is a PDF of one page with resources res, content, and more
// objects numbered from 5.
func onePage(res string, content []byte, more ...string) []byte {
	return pdfgen.Raw(append([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << " + res + " >> >>",
		pdfgen.Stream("", content),
	}, more...)...)
}

// FuzzFont: whatever a font dictionary says (its type, encoding,
// Differences, widths, descendant and its /W, descriptor), with whatever
// ToUnicode CMap and font program, the text shown in it is extracted
// within the ceiling.
func FuzzFont(f *testing.F) {
	cmap := []byte(cmapHead + "2 beginbfchar <0041> <0061> <0003> <0020> endbfchar\n1 beginbfrange <0010> <0012> <03B1> endbfrange\n" + cmapTail)
	for _, tc := range []struct{ font, desc, cid, text string }{
		{"/Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding", "", "", "(Hello) Tj"},
		{"/Subtype /TrueType /BaseFont /ABCDEF+Arial,Bold /FirstChar 32 /Widths [250 0 0 500] /Encoding << /Differences [32 /space /fi /uni0041 /a.sc] >> /FontDescriptor 7 0 R", "/Flags 32 /MissingWidth 300", "", "( !\"#) Tj"},
		{"/Subtype /Type1 /BaseFont /CMR10 /FontDescriptor 7 0 R", "/Flags 4 /FontFile 8 0 R", "", "(\x0c\x0d) Tj"},
		{"/Subtype /Type0 /BaseFont /Noto /Encoding /Identity-H /DescendantFonts [9 0 R] /ToUnicode 6 0 R", "", "/W [0 [500 600] 16 18 700] /DW 1000", "<00410003001000110012> Tj"},
		{"/Subtype /Type0 /BaseFont /Mincho /Encoding /UniJIS-UCS2-H /DescendantFonts [9 0 R]", "", "/W [1 95 500]", "<00480069> Tj"},
		{"/Subtype /Type0 /BaseFont /Hostile /Encoding 6 0 R /DescendantFonts [9 0 R]", "", "/W [0 [1 2 3]]", "<0001000200030004> Tj"},
		// Adobe's CJK collections (a later CIDSystemInfo wins): CIDs read
		// through the collection's CMap where ToUnicode has none.
		{"/Subtype /Type0 /BaseFont /Myungjo /Encoding /Identity-H /DescendantFonts [9 0 R]", "", "/CIDSystemInfo << /Registry (Adobe) /Ordering (Korea1) /Supplement 2 >> /DW 1000", "<043E0001FFFF> Tj"},
		{"/Subtype /Type0 /BaseFont /Mincho /Encoding /Identity-V /DescendantFonts [9 0 R] /ToUnicode 6 0 R", "", "/CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >>", "<0041034B0010> Tj"},
		{"/Subtype /Type0 /BaseFont /Song /Encoding 6 0 R /DescendantFonts [9 0 R]", "", "/CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 5 >>", "<00410003> Tj"},
	} {
		f.Add(tc.font, tc.desc, tc.cid, cmap, []byte("/Encoding 256 array dup 12 /fi put dup 13 /fl put readonly def eexec"), tc.text)
	}
	for _, c := range pdftext.SeedParts(f).CMaps {
		f.Add("/Subtype /Type0 /BaseFont /Real /Encoding /Identity-H /DescendantFonts [9 0 R] /ToUnicode 6 0 R", "", "/DW 1000", c, []byte{}, "<0001000200030004000500060007> Tj")
	}
	f.Fuzz(func(t *testing.T, font, desc, cid string, cmap, program []byte, text string) {
		doc := onePage("/Font << /F1 5 0 R >>", []byte("BT /F1 12 Tf 72 720 Td "+text+" ET"),
			"<< /Type /Font "+font+" >>",
			pdfgen.Stream("", cmap),
			"<< /Type /FontDescriptor "+desc+" >>",
			pdfgen.Stream("", program),
			fmt.Sprintf(cidFontFmt, cid))
		extractWithin(t, doc, "")
	})
}

const cidFontFmt = "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> %s >>"

// FuzzType3: whatever a Type 3 font's matrix, encoding, widths and glyph
// procedures (content streams, which text extraction never runs: its text
// comes from ToUnicode and the encoding), the text shown in it is
// extracted within the ceiling.
func FuzzType3(f *testing.F) {
	f.Add("0.001 0 0 0.001 0 0", "0 /a /b /uni4E2D", "[600 500 1000]", []byte("500 0 0 0 500 500 d1 0 0 m 500 500 l f"), "(\x00\x01\x02) Tj")
	f.Add("1e30 0 0 -1e-30 NaN 0", "-5 /x 300 /y", "[1e308]", []byte("q BI /W 1 ID x EI Q"), "[(\x00) -250 (\x01)] TJ")
	f.Add("0 0 0 0 0 0", "", "[]", []byte{}, "(abc) Tj")
	f.Fuzz(func(t *testing.T, matrix, diffs, widths string, proc []byte, text string) {
		doc := onePage("/Font << /F1 5 0 R >>", []byte("BT /F1 12 Tf 72 720 Td "+text+" ET"),
			"<< /Type /Font /Subtype /Type3 /FontMatrix ["+matrix+"] /FontBBox [0 0 1 1] /CharProcs << /a 6 0 R /b 6 0 R >> "+
				"/Encoding << /Type /Encoding /Differences ["+diffs+"] >> /FirstChar 0 /LastChar 2 /Widths "+widths+" /Resources << /Font << /F1 5 0 R >> >> >>",
			pdfgen.Stream("", proc))
		extractWithin(t, doc, "")
	})
}

// contentResources are the resources a fuzzed content stream may use: a
// standard font, a Type 0 font with a ToUnicode CMap, a form, an image.
const contentResources = "/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >> /F2 5 0 R >> /XObject << /Fm 7 0 R /Im 8 0 R >>"

// FuzzContent: whatever a page's content stream holds (operators,
// operands, strings, arrays, inline images, nesting), its text is
// extracted within the ceiling.
func FuzzContent(f *testing.F) {
	for _, s := range []string{
		"BT /F1 12 Tf 14 TL 72 720 Td (Hello) Tj T* [(W) 120 (orld)] TJ ET",
		"q 1 0 0 1 50 50 cm BT /F2 9 Tf <00410003> Tj ET Q /Fm Do /Im Do",
		"BT /F1 1e308 Tf 1 0 0 1 NaN 0 Tm (x) ' 1 2 (y) \" ET",
		"BI /W 2 /H 2 /BPC 8 /CS /G ID \x00\x01\x02\x03 EI BT (after) Tj ET",
		strings.Repeat("q ", 300) + strings.Repeat("Q ", 300),
		strings.Repeat("[", 70) + " TJ",
		// Spacing the layout reads: Tc and Tw under a scaled matrix, a
		// size change, a line of one-glyph words.
		"0.1 0 0 0.1 0 0 cm BT /F1 10 Tf 3.4 Tc 2 Tw (ns) Tj -0.2 Tc [(so)261(nt)] TJ /F1 6 Tf 0 3 Td (7) Tj ET",
		"BT /F1 10 Tf [(C)-300(O)-300(N)] TJ 0 -12 Td [(a)-300(b)-300(cd)] TJ -5e8 Tc (xy) Tj ET",
	} {
		f.Add([]byte(s))
	}
	for _, c := range pdftext.SeedParts(f).Contents {
		f.Add(c)
	}
	cmap := pdfgen.Stream("", []byte(cmapHead+"1 beginbfrange <0000> <FFFF> <0020> endbfrange\n"+cmapTail))
	form := pdfgen.Stream("/Type /XObject /Subtype /Form /BBox [0 0 9 9] /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Courier >> >> >>", []byte("BT /F1 9 Tf (form) Tj ET"))
	image := pdfgen.Stream("/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8", []byte{0})
	f.Fuzz(func(t *testing.T, content []byte) {
		doc := onePage(contentResources, content,
			"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [<< /Subtype /CIDFontType2 /DW 500 >>] /ToUnicode 6 0 R >>",
			cmap, form, image)
		extractWithin(t, doc, "")
	})
}

// FuzzForms: whatever a Form XObject's content, matrix and resources
// (itself among them, forms within forms), the text of the page that
// draws it is extracted within the ceiling.
func FuzzForms(f *testing.F) {
	f.Add([]byte("/Fm Do /Fm Do"), []byte("BT /F1 9 Tf (in the form) Tj ET /Fm Do"), "1 0 0 1 10 10", "/XObject << /Fm 5 0 R >> /Font << /F1 << /Subtype /Type1 /BaseFont /Helvetica >> >>")
	f.Add([]byte("q 2 0 0 2 0 0 cm /Fm Do Q BT (page) Tj ET"), []byte("BT /F9 9 Tf (no such font) Tj ET"), "0 0 0 0 0 0", "")
	f.Add([]byte("/Fm Do"), []byte("/Fm Do /Im Do"), "1e300 0 0 1e300 0 0", "/XObject << /Fm 5 0 R /Im 6 0 R >>")
	f.Fuzz(func(t *testing.T, page, form []byte, matrix, res string) {
		doc := onePage("/XObject << /Fm 5 0 R >> /Font << /F1 << /Subtype /Type1 /BaseFont /Times-Roman >> >>", page,
			pdfgen.Stream("/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Matrix ["+matrix+"] /Resources << "+res+" >>", form),
			pdfgen.Stream("/Type /XObject /Subtype /Image /Width 1 /Height 1 /BitsPerComponent 8 /Filter /DCTDecode", []byte{0xff, 0xd8}))
		extractWithin(t, doc, "")
	})
}

// FuzzAnnotations: whatever a page's annotations (notes, widgets and their
// fields' parents, appearance streams) say, their text is extracted within
// the ceiling.
func FuzzAnnotations(f *testing.F) {
	f.Add("<< /Subtype /Text /Contents (a note) >> << /Subtype /FreeText /AP << /N 5 0 R >> >> << /Subtype /Widget /Parent 6 0 R /T (name) >>",
		[]byte("BT /F1 9 Tf (drawn text) Tj ET"), "/FT /Tx /V (a value) /T (form)")
	f.Add("<< /Subtype /FreeText /Contents <FEFF00480069> >> 6 0 R 6 0 R", []byte("/Fm Do"), "/FT /Ch /V [(one) (two)] /Parent 6 0 R")
	f.Add("<< /Subtype /FreeText /AP << /N 5 0 R >> >>", []byte(strings.Repeat("(x) Tj ", 1000)), "/Parent 6 0 R /Kids [6 0 R]")
	f.Fuzz(func(t *testing.T, annots string, appearance []byte, field string) {
		doc := pdfgen.Raw(
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Annots ["+annots+"] >>",
			pdfgen.Stream("", []byte("BT /F1 12 Tf (page) Tj ET")),
			pdfgen.Stream("/Type /XObject /Subtype /Form /BBox [0 0 9 9] /Resources << /XObject << /Fm 5 0 R >> /Font << /F1 << /Subtype /Type1 /BaseFont /Courier >> >> >>", appearance),
			"<< "+field+" >>")
		extractWithin(t, doc, "")
	})
}
