package pdfgen

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
)

// Bomb is a hostile PDF of security issue 18 (item 2): a small file whose
// one page's content stream inflates, under the 32 MiB decode budget, to
// what costs a naive interpreter gigabytes (Operands: "1 " × 16.7 M with
// no operator; Names: "/a "; Dicts: "<<>>"; Array: one 16 M-element
// array), or whose cross-reference sections point back at each other in
// a /Prev loop (PrevLoop).
type Bomb string

// The bombs.
const (
	Operands Bomb = "operands"
	Names    Bomb = "names"
	Dicts    Bomb = "dicts"
	Array    Bomb = "array"
	PrevLoop Bomb = "prev-loop"
)

// Bombs lists them all.
func Bombs() []Bomb { return []Bomb{Operands, Names, Dicts, Array, PrevLoop} }

// PDF builds the bomb.
func (b Bomb) PDF() []byte {
	const budget = 32<<20 - 1024 // just under the decode budget
	var unit, open, close string
	switch b {
	case Operands:
		unit = "1 "
	case Names:
		unit = "/a "
	case Dicts:
		unit = "<<>>"
	case Array:
		unit, open, close = "1 ", "[", "] TJ"
	case PrevLoop:
		return prevLoop()
	default:
		panic("unknown bomb " + string(b))
	}
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	_, _ = w.Write([]byte("BT /F1 12 Tf 72 720 Td (before the bomb) Tj " + open))
	chunk := []byte(strings.Repeat(unit, 64<<10/len(unit)))
	for n := 0; n+len(chunk) < budget-64; n += len(chunk) {
		_, _ = w.Write(chunk)
	}
	_, _ = w.Write([]byte(close + " ET"))
	_ = w.Close()
	return Raw(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
	)
}

// prevLoop is a one-page PDF with two cross-reference tables, each the
// other's /Prev.
func prevLoop() []byte {
	doc := Text("a loop of cross-reference tables")
	first := bytes.LastIndex(doc, []byte("\nxref\n")) + 1
	body := doc[:bytes.LastIndex(doc, []byte("startxref"))]
	withPrev := func(b []byte, prev int) []byte {
		return bytes.Replace(b, []byte("/Root 1 0 R"), []byte(fmt.Sprintf("/Root 1 0 R /Prev %10d", prev)), 1)
	}
	second := len(withPrev(body, 0)) // the second table follows the first
	out := withPrev(body, second)
	out = append(out, withPrev(body[first:], first)...)
	return append(out, fmt.Sprintf("startxref\n%d\n%%%%EOF\n", second)...)
}
