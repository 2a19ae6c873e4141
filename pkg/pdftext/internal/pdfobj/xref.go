package pdfobj

import (
	"bytes"
	"fmt"
)

// entry is where one object is: at an offset in the file (inFile), or
// the idx'th object of object stream stm (inStream); or that a newer
// section freed it (freed: older sections' entries for it no longer
// count); unknown is the zero value.
type entry struct {
	off  int64
	stm  int32
	idx  int32
	gen  uint16
	kind uint8
}

// Entry kinds.
const (
	unknown uint8 = iota
	inFile
	inStream
	freed
)

// maxSections bounds the cross-reference sections one file may chain
// (incremental updates); a /Prev chain that comes back to a section it
// has read is a loop, and ends at once.
const maxSections = 4096

// readXref reads the cross-reference sections from startxref back along
// /Prev (and /XRefStm of hybrid files), the newest entry for each object
// winning, and returns the merged trailer.
func (d *Doc) readXref() error {
	off, err := d.startxref()
	if err != nil {
		return err
	}
	seen := map[int64]bool{}
	for {
		trailer, err := d.visit(off, seen)
		if trailer == nil || err != nil {
			return err
		}
		merge := func(t Dict) {
			for k, v := range t {
				if _, ok := d.Trailer[k]; !ok && k != "Prev" && k != "XRefStm" {
					d.Trailer[k] = v
				}
			}
		}
		merge(trailer)
		// A hybrid file's stream entries come before its older sections,
		// and before its table's free entries, which hide the objects the
		// stream holds from readers older than PDF 1.5 (PDF 32000-2
		// §7.5.8.4): they free an object for the older sections only.
		if x, ok := trailer["XRefStm"].(int64); ok {
			t, err := d.visit(x, seen)
			if err != nil {
				return err
			}
			merge(t)
		}
		for _, n := range d.frees {
			d.set(n, entry{kind: freed})
		}
		d.frees = d.frees[:0]
		p, ok := trailer["Prev"].(int64)
		if !ok {
			return nil
		}
		off = p
	}
}

// visit reads the section at off, unless it was read before: a /Prev or
// /XRefStm loop, which ends the chain (nil, nil).
func (d *Doc) visit(off int64, seen map[int64]bool) (Dict, error) {
	if seen[off] {
		d.xrefLoop = true
		return nil, nil
	}
	if len(seen) >= maxSections {
		return nil, fmt.Errorf("%w: over %d cross-reference sections", ErrMalformed, maxSections)
	}
	seen[off] = true
	d.sections++
	d.check()
	return d.section(off)
}

// Sections says how many cross-reference sections Open read and whether
// a /Prev (or /XRefStm) chain came back to one it had read: a loop ends
// there rather than at a deadline, which a test can check without timing.
func (d *Doc) Sections() (read int, loop bool) { return d.sections, d.xrefLoop }

func (d *Doc) startxref() (int64, error) {
	tail := d.data[max(0, len(d.data)-4096):]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return 0, fmt.Errorf("%w: no startxref at its end", ErrMalformed)
	}
	l := d.lexer(tail, int64(i+len("startxref")))
	t := l.Next()
	if t.Kind != Int || t.Int < 0 || t.Int >= int64(len(d.data)) {
		return 0, fmt.Errorf("%w: startxref does not point into the file", ErrMalformed)
	}
	return t.Int, nil
}

// section reads the table or stream at off into d.xref.
func (d *Doc) section(off int64) (Dict, error) {
	if off < 0 || off >= int64(len(d.data)) {
		return nil, fmt.Errorf("%w: a cross-reference offset %d outside the file", ErrMalformed, off)
	}
	l := d.lexer(d.data, off)
	t := l.Next()
	if t.Kind == Keyword && string(t.Bytes) == "xref" {
		return d.table(l)
	}
	if t.Kind != Int {
		// Some writers are off by a few bytes: look a little around.
		if j := bytes.Index(d.data[max(0, off-32):min(int64(len(d.data)), off+32)], []byte("xref")); j >= 0 {
			return d.table(d.lexer(d.data, max(0, off-32)+int64(j)+4))
		}
		return nil, fmt.Errorf("%w: no cross-reference table at offset %d", ErrMalformed, off)
	}
	return d.xrefStream(off)
}

func (d *Doc) table(l *Lexer) (Dict, error) {
	for {
		t := l.Next()
		if t.Kind == Keyword && string(t.Bytes) == "trailer" {
			break
		}
		if t.Kind != Int {
			return nil, fmt.Errorf("%w: a broken cross-reference table", ErrMalformed)
		}
		n := l.Next()
		if n.Kind != Int || t.Int < 0 || n.Int < 0 || t.Int+n.Int > int64(d.maxObjects) {
			return nil, fmt.Errorf("%w: a cross-reference table of objects %d to %d, more than a file of its size can hold (%d)",
				ErrMalformed, t.Int, t.Int+n.Int, d.maxObjects)
		}
		for i := int64(0); i < n.Int; i++ {
			d.check()
			a, b, c := l.Next(), l.Next(), l.Next()
			if a.Kind != Int || b.Kind != Int || c.Kind != Keyword {
				return nil, fmt.Errorf("%w: a broken cross-reference table entry", ErrMalformed)
			}
			switch string(c.Bytes) {
			case "n":
				if a.Int > 0 {
					d.set(int(t.Int+i), entry{kind: inFile, off: a.Int, gen: uint16(b.Int)})
				}
			case "f":
				d.frees = grow(d.mem, d.frees, int(t.Int+i), 8) // see readXref
			}
		}
	}
	p := &Parser{Lex: l, Refs: true, mem: d.mem}
	o, err := p.Object()
	d.keep(p)
	if err != nil {
		return nil, err
	}
	trailer, ok := o.(Dict)
	if !ok {
		return nil, fmt.Errorf("%w: a cross-reference table without a trailer", ErrMalformed)
	}
	return trailer, nil
}

// set records e for object num unless a newer section already did.
func (d *Doc) set(num int, e entry) {
	if num <= 0 || num >= d.maxObjects {
		return
	}
	if num >= len(d.xref) {
		// Grown by doubling up to what the file's size allows, each
		// larger table charged before it is made.
		n := min(max(num+1, 2*len(d.xref)), d.maxObjects)
		d.mem.Take(int64(n) * costXref)
		grown := make([]entry, n)
		copy(grown, d.xref)
		d.mem.Give(int64(len(d.xref)) * costXref)
		d.xref = grown
	}
	if d.xref[num].kind == unknown {
		d.xref[num] = e
	}
}

func (d *Doc) xrefStream(off int64) (Dict, error) {
	o, _, err := d.objectAt(off, Ref{}, false)
	if err != nil {
		return nil, err
	}
	s, ok := o.(*Stream)
	if !ok || s.Dict["Type"] != Name("XRef") {
		return nil, fmt.Errorf("%w: no cross-reference stream at offset %d", ErrMalformed, off)
	}
	w, _ := s.Dict["W"].(Array)
	if len(w) < 3 {
		return nil, fmt.Errorf("%w: a cross-reference stream without /W", ErrMalformed)
	}
	var width [3]int
	for i := range width {
		v, _ := w[i].(int64)
		if v < 0 || v > 8 {
			return nil, fmt.Errorf("%w: a cross-reference field width of %d", ErrMalformed, v)
		}
		width[i] = int(v)
	}
	size, _ := s.Dict["Size"].(int64)
	if size < 0 || size > int64(d.maxObjects) {
		return nil, fmt.Errorf("%w: it declares %d objects, more than a file of its size can hold (%d)", ErrMalformed, size, d.maxObjects)
	}
	index, _ := s.Dict["Index"].(Array)
	if index == nil {
		index = Array{int64(0), size}
	}
	rowLen := width[0] + width[1] + width[2]
	if rowLen == 0 {
		return s.Dict, nil
	}
	data, err := d.streamBytes(s, int64(d.maxObjects)*int64(rowLen))
	defer d.Free(data)
	if err != nil && len(data) == 0 {
		return nil, fmt.Errorf("%w: its cross-reference stream: %v", ErrMalformed, err)
	}
	for i := 0; i+1 < len(index); i += 2 {
		first, _ := index[i].(int64)
		n, _ := index[i+1].(int64)
		if first < 0 || n < 0 || first+n > int64(d.maxObjects) {
			return nil, fmt.Errorf("%w: it declares objects %d to %d, more than a file of its size can hold (%d)", ErrMalformed, first, first+n, d.maxObjects)
		}
		for j := int64(0); j < n && len(data) >= rowLen; j++ {
			d.check()
			row := data[:rowLen]
			data = data[rowLen:]
			kind := int64(1)
			if width[0] > 0 {
				kind = field(row[:width[0]])
			}
			f2 := field(row[width[0] : width[0]+width[1]])
			f3 := field(row[width[0]+width[1]:])
			switch kind {
			case 0:
				d.set(int(first+j), entry{kind: freed})
			case 1:
				d.set(int(first+j), entry{kind: inFile, off: f2, gen: uint16(f3)})
			case 2:
				if f2 > 0 && f2 < int64(d.maxObjects) {
					d.set(int(first+j), entry{kind: inStream, stm: int32(f2), idx: int32(f3)})
				}
			}

		}
	}
	return s.Dict, nil
}

func field(b []byte) int64 {
	var v int64
	for _, c := range b {
		v = v<<8 | int64(c)
	}
	return v
}
