package pdfgen

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"io"
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
	z := repeated("BT /F1 12 Tf 72 720 Td (before the bomb) Tj "+open, unit, close+" ET", budget)
	return Raw(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", len(z), z),
	)
}

// repeated is the zlib stream of head, unit repeated to about size bytes,
// and tail, built without compressing size bytes: one 64 KiB chunk of
// units is deflated alone and its blocks repeated (a deflate block that
// refers only to itself is valid anywhere once the stream is byte-aligned,
// which a sync flush makes it), and the checksum is combined from the
// chunk's. So a 32 MiB bomb costs a few milliseconds, even under -race.
func repeated(head, unit, tail string, size int) []byte {
	chunk := []byte(strings.Repeat(unit, 64<<10/len(unit)))
	n := (size - len(head) - len(tail)) / len(chunk)
	var z bytes.Buffer
	z.Write([]byte{0x78, 0xda}) // zlib: deflate, 32 KiB window, best compression
	deflate(&z, []byte(head), false)
	at := z.Len()
	deflate(&z, chunk, false)
	block := append([]byte(nil), z.Bytes()[at:]...)
	for range n - 1 {
		z.Write(block)
	}
	deflate(&z, []byte(tail), true)
	sum := adler32.Checksum([]byte(head))
	one := adler32.Checksum(chunk)
	for range n {
		sum = adlerCombine(sum, one, len(chunk))
	}
	sum = adlerCombine(sum, adler32.Checksum([]byte(tail)), len(tail))
	return binary.BigEndian.AppendUint32(z.Bytes(), sum)
}

// deflate appends data as byte-aligned deflate blocks that refer to
// nothing before them; last ends the stream.
func deflate(w io.Writer, data []byte, last bool) {
	f, _ := flate.NewWriter(w, flate.BestCompression)
	_, _ = f.Write(data)
	if last {
		_ = f.Close()
		return
	}
	_ = f.Flush()
}

// adlerCombine is the Adler-32 of A then B from theirs and B's length
// (zlib's adler32_combine).
func adlerCombine(a, b uint32, lenB int) uint32 {
	const mod = 65521
	rem := uint32(lenB % mod)
	s1 := a & 0xffff
	s2 := rem * s1 % mod
	s1 += b&0xffff + mod - 1
	s2 += a>>16 + b>>16 + mod - rem
	s1 %= mod
	s2 %= mod
	return s2<<16 | s1
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
