package pdfobj

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
)

// Seeds for the fuzz targets: the real-world PDFs the repository carries
// (qpdf's variants and encryptions here, the corpus internal/pdfscore
// scores on: LuaTeX, XeTeX, groff, Ghostscript, LibreOffice, Chromium,
// cairo, ReportLab; Chromium's right-to-left page) and the hostile
// shapes of issues 18 and 26 (internal/pdfgen).

// realPDFs are the real-world PDFs, largest last.
func realPDFs(tb testing.TB) [][]byte {
	tb.Helper()
	if !costcheck.Seeding() {
		return nil
	}
	var out [][]byte
	for _, pattern := range []string{"testdata/*.pdf", "../../../../internal/pdfscore/testdata/corpus/*.pdf", "../../testdata/*.pdf"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, data)
		}
	}
	if len(out) < 20 {
		tb.Fatalf("%d real PDFs: the seed corpus is missing", len(out))
	}
	slices.SortStableFunc(out, func(a, b []byte) int { return len(a) - len(b) })
	return out
}

// hostilePDFs are the hostile shapes, but those over 512 KiB (a fuzzer
// mutating megabytes runs a few inputs a second; they are pkg/pdftext
// TestHostileShapes' and internal/memcheck's).
func hostilePDFs() [][]byte {
	var out [][]byte
	if !costcheck.Seeding() {
		return nil
	}
	for _, b := range pdfgen.Bombs() {
		out = append(out, b.PDF())
	}
	for _, h := range pdfgen.HostileShapes() {
		if doc := h.PDF(); len(doc) <= 512<<10 {
			out = append(out, doc)
		}
	}
	return out
}

// rawStream is a stream's raw bytes and its filter's parameters.
type rawStream struct {
	data  []byte
	parms Dict
}

// rawStreams returns the raw bytes of the real PDFs' unencrypted streams
// whose one filter is name (at most n, each of at most 64 KiB).
func rawStreams(tb testing.TB, name Name, n int) []rawStream {
	tb.Helper()
	var out []rawStream
	for _, data := range realPDFs(tb) {
		d, err := Open(data, Options{})
		if err != nil || d.crypt != nil {
			continue
		}
		for num := 1; num < len(d.xref) && len(out) < n; num++ {
			s, ok := d.Resolve(Ref{Num: num}).(*Stream)
			if !ok || s.Len > 64<<10 || d.Resolve(s.Dict["Filter"]) != name {
				continue
			}
			p, _ := d.Resolve(s.Dict["DecodeParms"]).(Dict)
			out = append(out, rawStream{data: d.data[s.Off : s.Off+s.Len], parms: p})
		}
	}
	return out
}

// decodedStreams returns the decoded bytes of the real PDFs' streams
// keep says to keep (at most n, each of at most 64 KiB).
func decodedStreams(tb testing.TB, n int, keep func(d *Doc, s *Stream) bool) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, data := range realPDFs(tb) {
		d, err := Open(data, Options{})
		if err != nil {
			continue
		}
		for num := 1; num < len(d.xref) && len(out) < n; num++ {
			if s, ok := d.Resolve(Ref{Num: num}).(*Stream); ok && keep(d, s) {
				if b, err := d.StreamBytes(s, 64<<10); err == nil {
					out = append(out, b)
				}
			}
		}
	}
	return out
}
