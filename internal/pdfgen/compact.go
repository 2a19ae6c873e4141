package pdfgen

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"strings"
)

// Compact writes a PDF of the given object bodies, numbered from 1 (the
// first is the catalog), the way real writers keep many objects in few
// bytes: every body packed says is put in one Flate-compressed object
// stream, and a cross-reference stream (numbered after it) says where
// each object lives. Streams cannot be packed. Hostile files use it to
// make millions of values out of a few kilobytes.
func Compact(objs []string, packed func(num int) bool) []byte {
	type loc struct {
		off    int
		stm    bool
		idx    int
		direct bool
	}
	locs := make([]loc, len(objs)+3)
	stm := len(objs) + 1
	xref := len(objs) + 2
	var head, body strings.Builder
	n := 0
	for i, o := range objs {
		num := i + 1
		if !packed(num) {
			continue
		}
		fmt.Fprintf(&head, "%d %d ", num, body.Len())
		body.WriteString(o)
		body.WriteByte('\n')
		locs[num] = loc{stm: true, idx: n}
		n++
	}
	var w bytes.Buffer
	w.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	for i, o := range objs {
		num := i + 1
		if locs[num].stm {
			continue
		}
		locs[num] = loc{off: w.Len(), direct: true}
		fmt.Fprintf(&w, "%d 0 obj\n%s\nendobj\n", num, o)
	}
	data := Zlib([]byte(head.String() + body.String()))
	locs[stm] = loc{off: w.Len(), direct: true}
	fmt.Fprintf(&w, "%d 0 obj\n<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n", stm, n, head.Len(), len(data))
	w.Write(data)
	w.WriteString("\nendstream\nendobj\n")
	// The cross-reference stream: type, offset or stream, index or
	// generation (W [1 4 4]).
	var rows []byte
	for num := range xref + 1 {
		l := locs[num]
		switch {
		case num == xref:
			l = loc{off: w.Len(), direct: true}
			fallthrough
		case l.direct:
			rows = append(rows, 1)
			rows = binary.BigEndian.AppendUint32(rows, uint32(l.off))
			rows = binary.BigEndian.AppendUint32(rows, 0)
		case l.stm:
			rows = append(rows, 2)
			rows = binary.BigEndian.AppendUint32(rows, uint32(stm))
			rows = binary.BigEndian.AppendUint32(rows, uint32(l.idx))
		default:
			rows = append(rows, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff)
		}
	}
	at := w.Len()
	fmt.Fprintf(&w, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 4] /Root 1 0 R /Length %d >>\nstream\n", xref, xref+1, len(rows))
	w.Write(rows)
	fmt.Fprintf(&w, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", at)
	return w.Bytes()
}

// Zlib is data Flate-compressed (zlib framing), as FlateDecode reads it.
func Zlib(data []byte) []byte {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	_, _ = zw.Write(data)
	_ = zw.Close()
	return z.Bytes()
}

// Stream is the body of a stream object: its dictionary entries (without
// the brackets and /Length) and its data as written.
func Stream(dict string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}
