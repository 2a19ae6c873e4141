package pdfobj

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
)

// lastXref is the offset the file's startxref names.
func lastXref(t testing.TB, data []byte) int {
	t.Helper()
	m := regexp.MustCompile(`startxref\s+(\d+)`).FindAllSubmatch(data, -1)
	require.NotEmpty(t, m)
	n, err := strconv.Atoi(string(m[len(m)-1][1]))
	require.NoError(t, err)
	return n
}

// update appends an incremental update (PDF 32000-2 §7.5.6): the objects
// given (number → body), the numbers freed, and a cross-reference table
// whose /Prev is the file's last section; extra goes in its trailer.
func update(t testing.TB, base []byte, objs map[int]string, freed []int, extra string) []byte {
	out := append([]byte(nil), base...)
	offs := map[int]int{}
	var nums []int
	for n, body := range objs {
		offs[n] = len(out)
		out = fmt.Appendf(out, "%d 0 obj\n%s\nendobj\n", n, body)
		nums = append(nums, n)
	}
	nums = append(nums, freed...)
	sort.Ints(nums)
	at := len(out)
	out = append(out, "xref\n"...)
	for _, n := range nums {
		if off, ok := offs[n]; ok {
			out = fmt.Appendf(out, "%d 1\n%010d 00000 n \n", n, off)
		} else {
			out = fmt.Appendf(out, "%d 1\n0000000000 00001 f \n", n)
		}
	}
	return fmt.Appendf(out, "trailer\n<< /Size 20 /Prev %d %s >>\nstartxref\n%d\n%%%%EOF\n", lastXref(t, base), extra, at)
}

// stream is a stream object's body holding data.
func stream(data string) string {
	return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(data), data)
}

func TestIncrementalUpdate(t *testing.T) {
	base := readFile(t, "table.pdf")
	// table.pdf: 2 is the Info dictionary, 7 page one's content.
	data := update(t, base, map[int]string{7: stream("BT (updated) Tj ET")}, []int{2}, "")
	d := open(t, data)
	assert.False(t, d.rebuilt)
	assert.Equal(t, []string{"BT (updated) Tj ET", pageTwo}, contents(t, d), "the newer object wins")
	assert.Nil(t, d.Trailer["Prev"])
	n, loop := d.Sections()
	assert.Equal(t, 2, n)
	assert.False(t, loop)
	assert.Empty(t, infoTitle(d), "an object the update freed is gone")

	// A second update on top: three sections, the newest first.
	data = update(t, data, map[int]string{2: "<< /Title (Third) >>"}, nil, "")
	d = open(t, data)
	assert.Equal(t, String("Third"), infoTitle(d))
	n, _ = d.Sections()
	assert.Equal(t, 3, n)
}

// TestUpdateByXrefStream: an update whose section is a cross-reference
// stream over a file with a classic table (PDF 1.5 writers do this).
func TestUpdateByXrefStream(t *testing.T) {
	base := readFile(t, "table.pdf")
	out := append([]byte(nil), base...)
	obj7 := len(out)
	out = fmt.Appendf(out, "7 0 obj\n%s\nendobj\n", stream("BT (by stream) Tj ET"))
	xs := len(out)
	// /W [1 2 1]: type, offset, generation; objects 7 and 10 (itself).
	rows := []byte{1, byte(obj7 >> 8), byte(obj7), 0, 1, byte(xs >> 8), byte(xs), 0}
	out = fmt.Appendf(out, "10 0 obj\n<< /Type /XRef /Size 11 /W [1 2 1] /Index [7 1 10 1] /Prev %d /Length %d >>\nstream\n%s\nendstream\nendobj\n",
		lastXref(t, base), len(rows), rows)
	out = fmt.Appendf(out, "startxref\n%d\n%%%%EOF\n", xs)
	d := open(t, out)
	assert.False(t, d.rebuilt)
	assert.Equal(t, []string{"BT (by stream) Tj ET", pageTwo}, contents(t, d))
	assert.Equal(t, String(title), infoTitle(d), "the rest comes from the table")
}

// TestHybrid: a hybrid-reference file (PDF 32000-2 §7.5.8.4) whose table
// names a cross-reference stream in /XRefStm: the objects in object
// streams are found through it, though the table lists them as free (as
// Word writes it, so that readers older than PDF 1.5 skip them), and the
// table's own entries win.
func TestHybrid(t *testing.T) {
	base := readFile(t, "objstm.pdf")
	d := open(t, base)
	info, ok := d.Trailer["Info"].(Ref)
	require.True(t, ok)
	require.Equal(t, inStream, d.xref[info.Num].kind, "the title lives in an object stream")
	out := append([]byte(nil), base...)
	newInfo := len(out)
	out = fmt.Appendf(out, "%d 0 obj\n<< /Title (Newer title) >>\nendobj\n", info.Num)
	at := len(out)
	out = fmt.Appendf(out, "xref\n0 %d\n", len(d.xref))
	for num, e := range d.xref {
		switch {
		case num == info.Num:
			out = fmt.Appendf(out, "%010d 00000 n \n", newInfo)
		case e.kind == inFile:
			out = fmt.Appendf(out, "%010d %05d n \n", e.off, e.gen)
		default:
			out = fmt.Appendf(out, "0000000000 65535 f \n")
		}
	}
	out = fmt.Appendf(out, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /XRefStm %d >>\nstartxref\n%d\n%%%%EOF\n",
		len(d.xref), d.Trailer["Root"].(Ref).Num, info.Num, lastXref(t, base), at)
	d = open(t, out)
	assert.Equal(t, []string{pageOne, pageTwo}, contents(t, d))
	assert.Equal(t, String("Newer title"), infoTitle(d))
	n, _ := d.Sections()
	assert.Equal(t, 2, n)
	assert.False(t, d.rebuilt, "read through /XRefStm, not by a scan")
}

// TestXrefLoops: a /Prev chain back to a section already read ends there,
// each section read once; nothing waits for a deadline.
func TestXrefLoops(t *testing.T) {
	d := open(t, pdfgen.PrevLoop.PDF())
	n, loop := d.Sections()
	assert.Equal(t, 2, n)
	assert.True(t, loop)

	self := pdfgen.Text("a section that is its own /Prev")
	at := lastXref(t, self)
	self = bytes.Replace(self, []byte("/Root 1 0 R"), fmt.Appendf(nil, "/Root 1 0 R /Prev %d", at), 1)
	// The trailer grew, not the offsets before it: startxref still holds.
	d = open(t, self)
	n, loop = d.Sections()
	assert.Equal(t, 1, n)
	assert.True(t, loop)
	assert.Len(t, contents(t, d), 1)

	// A hybrid's /XRefStm naming the table itself is a loop too.
	hyb := pdfgen.Text("x")
	hyb = bytes.Replace(hyb, []byte("/Root 1 0 R"), fmt.Appendf(nil, "/Root 1 0 R /XRefStm %d", lastXref(t, hyb)), 1)
	d = open(t, hyb)
	n, loop = d.Sections()
	assert.Equal(t, 1, n)
	assert.True(t, loop)
}

// TestRebuild: a file whose cross-reference data is missing or wrong is
// read by scanning it for objects, as viewers do; the last definition of
// an object wins, objects in object streams are found, the trailer is the
// last one (or a cross-reference stream's dictionary), encryption still
// applies.
func TestRebuild(t *testing.T) {
	breakStart := func(data []byte) []byte {
		i := bytes.LastIndex(data, []byte("startxref"))
		return append(append([]byte(nil), data[:i]...), "startxref\n9\n%%EOF\n"...)
	}
	table := readFile(t, "table.pdf")
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"startxref points nowhere", breakStart(table)},
		{"no cross-reference table", table[:bytes.LastIndex(table, []byte("xref"))]},
		{"every offset shifted", bytes.Replace(table, []byte("%PDF-1.7\n"), []byte("%PDF-1.7\n% a line a tool inserted\n"), 1)},
		{"a table past the end", bytes.Replace(table, []byte("xref\n0 10"), []byte("xref\n900000000 10"), 1)},
		{"object streams, no startxref", breakStart(readFile(t, "objstm.pdf"))},
		{"encrypted, no startxref", breakStart(readFile(t, "r4-aes-128.pdf"))},
		{"encrypted object streams, no startxref", breakStart(readFile(t, "r6-aes-256-objstm.pdf"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := open(t, tc.data)
			assert.True(t, d.rebuilt)
			assert.Equal(t, []string{pageOne, pageTwo}, contents(t, d))
			assert.Equal(t, String(title), infoTitle(d))
		})
	}
	t.Run("the last definition wins", func(t *testing.T) {
		data := append(breakStart(table), fmt.Appendf(nil, "7 0 obj\n%s\nendobj\n", stream("BT (later) Tj ET"))...)
		assert.Equal(t, []string{"BT (later) Tj ET", pageTwo}, contents(t, open(t, data)))
	})
	t.Run("nothing to rebuild from", func(t *testing.T) {
		_, err := Open([]byte("%PDF-1.7\n1 0 obj\n<< /Type /Font >>\nendobj\n"), Options{})
		require.ErrorIs(t, err, ErrMalformed)
	})
	t.Run("the catalog found without a trailer", func(t *testing.T) {
		data := pdfgen.Text("catalog only")
		data = data[:bytes.Index(data, []byte("xref"))]
		assert.Len(t, contents(t, open(t, data)), 1)
	})
}

func TestXrefBounds(t *testing.T) {
	for _, tc := range []struct{ name, trailerAt, xref string }{
		{"a table over the file's objects", "", "xref\n0 99999999\n"},
		{"a broken entry", "", "xref\n0 2\n0000000000 65535 f \nabc\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := pdfgen.Text("x")
			i := bytes.Index(doc, []byte("xref"))
			j := bytes.Index(doc, []byte("trailer"))
			bad := append(append(append([]byte(nil), doc[:i]...), tc.xref...), doc[j:]...)
			d := &Doc{data: bad, maxObjects: 1000, Trailer: Dict{}, cache: map[int]Object{}, busy: map[int]bool{}, objstms: map[int]*objStm{}}
			_, err := d.section(int64(i))
			require.ErrorIs(t, err, ErrMalformed)
			// Open still reads the file, by rebuilding.
			assert.Len(t, contents(t, open(t, bad)), 1)
		})
	}
}
