package pdfobj

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
)

// Fuzz targets of every layer of the object layer that reads file bytes
// (security issue 26, item 4): the lexer, the parser, cross-reference
// tables and streams and their rebuild, object streams, whole files here;
// each filter, the predictors and decryption in fuzz_filter_test.go. Each
// input runs under the ceiling of one input (within: 64 MB allocated, 2 s
// of CPU) and a memory budget; a budget spent is an answer (a Stop), any
// other panic a failure. scripts/fuzz runs them (a bounded count each in
// scripts/check, a campaign with -d); a failing input lands in
// testdata/fuzz/TARGET/ and stays there as a regression test.

// budget is what one input may hold, as an extraction's default.
const budget = 16 << 20

// within runs one input under the ceiling of issue 26: a spent budget (a
// Stop with ErrLimit) is an answer, any other panic a failure.
func within(t *testing.T, fn func()) {
	t.Helper()
	costcheck.Within(t, costcheck.Default(), func() {
		defer func() {
			if r := recover(); r != nil {
				if s, ok := r.(Stop); !ok || !errors.Is(s, ErrLimit) {
					panic(r)
				}
			}
		}()
		fn()
	})
}

// opts bound one fuzzed document.
func opts() Options { return Options{Memory: NewBudget(budget), MaxDecoded: 4 << 20} }

// FuzzLexer: whatever the bytes, the lexer ends, and a stream read one
// byte at a time lexes exactly as the whole slice does (so a content
// stream's tokens do not depend on where its decoder's reads end).
func FuzzLexer(f *testing.F) {
	for _, tc := range lexCases {
		f.Add([]byte(tc.in))
	}
	f.Add(readFile(f, "table.pdf"))
	for _, s := range decodedStreams(f, 8, func(d *Doc, s *Stream) bool { return s.Dict["Type"] == nil }) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		within(t, func() {
			want, wantOff := lexAll(NewLexer(data, 0))
			got, gotOff := lexAll(NewStreamLexer(iotest.OneByteReader(bytes.NewReader(data))))
			if !slices.Equal(want, got) || !slices.Equal(wantOff, gotOff) {
				t.Fatalf("slice: %q at %v\nstream: %q at %v", want, wantOff, got, gotOff)
			}
		})
	})
}

// FuzzParser: whatever the bytes, objects parse within the budget, each
// value charged (what a reset gives back is what was charged), nesting and
// element counts bounded.
func FuzzParser(f *testing.F) {
	for _, s := range []string{"<< /A [1 2.5 (x) <41> /N 3 0 R] /B << /C true >> >>", "[[[[[[", "<<<<>>>>", "(a\\)b) 1 0 R R", strings.Repeat("[", 70)} {
		f.Add([]byte(s))
	}
	f.Add(readFile(f, "table.pdf"))
	f.Fuzz(func(t *testing.T, data []byte) {
		within(t, func() {
			b := NewBudget(budget)
			p := NewParser(NewLexer(data, 0), b, 0)
			p.Refs = true
			for range 1000 {
				if _, err := p.Object(); err != nil {
					break
				}
				if p.Spent != b.Held() {
					t.Fatalf("the parser says it charged %d, the budget holds %d", p.Spent, b.Held())
				}
			}
			p.Reset()
			if b.Held() != 0 {
				t.Fatalf("%d bytes still held after a reset", b.Held())
			}
		})
	})
}

// readAll reads every object, page and stream of an opened document, as
// an extraction would, within small bounds (4 MiB decoded in all, as an
// extraction's content budget bounds what it decodes).
func readAll(d *Doc) {
	left := int64(4 << 20)
	read := func(s *Stream) {
		if s != nil && left > 0 {
			limit := min(left, 1<<16)
			b, _ := d.StreamBytes(s, limit)
			left -= limit
			d.Free(b)
		}
	}
	for num := range min(len(d.xref), 1<<12) {
		s, _ := d.Resolve(Ref{Num: num}).(*Stream)
		read(s)
	}
	pages, _, err := d.Pages(64)
	if err != nil {
		return
	}
	for _, p := range pages {
		read(d.GetStream(p.Dict, "Contents"))
	}
}

// openAndRead opens data and reads all of it; a document and an error
// together are a failure.
func openAndRead(t *testing.T, data []byte) {
	within(t, func() {
		d, err := Open(data, opts())
		if err != nil {
			if d != nil {
				t.Fatal("a document and an error")
			}
			return
		}
		readAll(d)
	})
}

// FuzzOpen: whatever the bytes, Open returns a document or an error, and
// every object, page and stream of a document it opens can be read, all
// within the bounds.
func FuzzOpen(f *testing.F) {
	for _, data := range realPDFs(f) {
		f.Add(data)
	}
	for _, data := range hostilePDFs() {
		f.Add(data)
	}
	f.Add(pdfgen.Doc(pdfgen.Options{Compress: true}, pdfgen.Page{Lines: []string{"fuzz"}}, pdfgen.Page{Image: true}))
	f.Fuzz(openAndRead)
}

// FuzzRebuild: a file without usable cross-reference data is rebuilt by a
// scan, whatever its objects, object streams and trailers say.
func FuzzRebuild(f *testing.F) {
	real := realPDFs(f)
	for _, data := range real[:min(len(real), 12)] {
		// The same objects without their startxref.
		f.Add(bytes.ReplaceAll(data, []byte("startxref"), []byte("startxraf")))
	}
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj 2 0 obj << /Type /Pages /Kids [] >> endobj"))
	f.Fuzz(func(t *testing.T, body []byte) {
		openAndRead(t, append([]byte("%PDF-1.4\n"), bytes.ReplaceAll(body, []byte("startxref"), nil)...))
	})
}

// objects is the catalog, page tree and one page of the files the
// cross-reference targets build around what they fuzz.
const objects = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n" +
	"3 0 obj << /Type /Page /Parent 2 0 R /Contents 4 0 R >> endobj\n4 0 obj << /Length 3 >> stream\nabc\nendstream endobj\n"

// offset is where object num of objects starts.
func offset(num int) int { return strings.Index(objects, fmt.Sprintf("\n%d 0 obj", num)) + 1 }

// FuzzXrefTable: whatever a cross-reference table (and its trailer) says,
// it is read within the file's bounds, or the file rebuilt.
func FuzzXrefTable(f *testing.F) {
	for _, s := range []string{
		fmt.Sprintf("xref\n0 5\n0000000000 65535 f \n%010d 00000 n \n%010d 00000 n \n%010d 00000 n \n%010d 00000 n \ntrailer << /Size 5 /Root 1 0 R >>\n",
			offset(1), offset(2), offset(3), offset(4)),
		fmt.Sprintf("xref\n0 1\n0000000000 65535 f \n3 1\n%010d 00000 n \ntrailer << /Size 5 /Root 1 0 R /Prev 0 >>\n", offset(3)),
		"xref\n0 99999999\n", "xref\n0 2\n0000000000 65535 f\nabc", "xref 5 -1 trailer << >>",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, table []byte) {
		openAndRead(t, fmt.Appendf([]byte(objects), "%s\nstartxref\n%d\n%%%%EOF\n", table, len(objects)))
	})
}

// FuzzXrefStream: whatever a cross-reference stream's widths, index,
// size and rows say, it is read within the file's bounds.
func FuzzXrefStream(f *testing.F) {
	row := func(kind byte, a uint32, b uint16) []byte {
		return binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint32([]byte{kind}, a), b)
	}
	rows := slices.Concat(row(0, 0, 65535), row(1, uint32(offset(1)), 0), row(1, uint32(offset(2)), 0), row(1, uint32(offset(3)), 0), row(1, uint32(offset(4)), 0))
	f.Add([]byte{1, 4, 2}, "0 5", int64(5), rows)
	f.Add([]byte{1, 4, 2}, "0 1 3 2", int64(99), rows)
	f.Add([]byte{0, 8, 8}, "", int64(1<<40), rows)
	f.Add([]byte{9, 9, 9}, "0 -1", int64(-1), []byte{})
	f.Fuzz(func(t *testing.T, w []byte, index string, size int64, rows []byte) {
		if len(w) < 3 {
			return
		}
		xref := fmt.Sprintf("5 0 obj << /Type /XRef /W [%d %d %d] /Index [%s] /Size %d /Root 1 0 R /Length %d >> stream\n%s\nendstream endobj\n",
			int8(w[0]), int8(w[1]), int8(w[2]), index, size, len(rows), rows)
		openAndRead(t, fmt.Appendf([]byte(objects), "%sstartxref\n%d\n%%%%EOF\n", xref, len(objects)))
	})
}

// FuzzObjStm: whatever an object stream's header, offsets, /N and /First
// say, its objects are read within the budget and the MaxDecoded bound.
func FuzzObjStm(f *testing.F) {
	f.Add("6 0 7 12", []byte("<< /A 1 >> [1 2 3]"), int64(2), int64(8))
	f.Add("6 0 6 0 6 99", []byte("(x)"), int64(3), int64(12))
	f.Add("6 -5 7 99999999999", []byte("1"), int64(1<<40), int64(-1))
	for _, s := range decodedStreams(f, 6, func(d *Doc, s *Stream) bool { return s.Dict["Type"] == Name("ObjStm") }) {
		first := bytes.IndexAny(s, "<[(/")
		f.Add(string(s[:max(first, 0)]), s[max(first, 0):], int64(strings.Count(string(s[:max(first, 0)]), " ")/2), int64(max(first, 0)))
	}
	f.Fuzz(func(t *testing.T, header string, body []byte, n, first int64) {
		// Objects 6 to 9 live in object stream 5; its data is the header
		// and body; a cross-reference stream (10) says so.
		data := append([]byte(header), body...)
		stm := fmt.Sprintf("5 0 obj << /Type /ObjStm /N %d /First %d /Length %d >> stream\n%s\nendstream endobj\n", n, first, len(data), data)
		var rows []byte
		offs := []int{0, offset(1), offset(2), offset(3), offset(4), len(objects)}
		for num := range 11 {
			switch {
			case num == 0:
				rows = append(rows, 0, 0, 0, 0, 0, 0xff, 0xff)
			case num <= 5:
				rows = binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint32(append(rows, 1), uint32(offs[num])), 0)
			case num < 10:
				rows = binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint32(append(rows, 2), 5), uint16(num-6))
			default:
				rows = binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint32(append(rows, 1), uint32(len(objects)+len(stm))), 0)
			}
		}
		xref := fmt.Sprintf("10 0 obj << /Type /XRef /W [1 4 2] /Size 11 /Root 1 0 R /Length %d >> stream\n%s\nendstream endobj\n", len(rows), rows)
		openAndRead(t, fmt.Appendf([]byte(objects), "%s%sstartxref\n%d\n%%%%EOF\n", stm, xref, len(objects)+len(stm)))
	})
}
