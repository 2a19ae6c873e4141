package pdfobj

import (
	"bytes"
	"fmt"
	"strconv"
)

// entry is where one object is: at an offset in the file (kind 1), or
// the idx'th object of object stream stm (kind 2); kind 0 is unknown.
type entry struct {
	off  int64
	stm  int32
	idx  int32
	gen  uint16
	kind uint8
}

// maxSections bounds the cross-reference sections one file may chain
// (incremental updates); a /Prev chain that comes back to a section it
// has read is a loop, and ends at once.
const maxSections = 4096

// readXref reads the cross-reference sections from startxref back along
// /Prev (and /XRefStm of hybrid files), the newest entry for each object
// winning, and returns the merged trailer.
func (d *Doc) readXref() error {
	start, err := d.startxref()
	if err != nil {
		return err
	}
	seen := map[int64]bool{}
	queue := []int64{start}
	for len(queue) > 0 {
		off := queue[0]
		queue = queue[1:]
		if seen[off] {
			continue // a /Prev loop: each section is read once
		}
		if len(seen) >= maxSections {
			return fmt.Errorf("%w: over %d cross-reference sections", ErrMalformed, maxSections)
		}
		seen[off] = true
		d.check()
		trailer, err := d.section(off)
		if err != nil {
			return err
		}
		for k, v := range trailer {
			if _, ok := d.Trailer[k]; !ok && k != "Prev" && k != "XRefStm" {
				d.Trailer[k] = v
			}
		}
		// A hybrid file's stream entries come before its older sections.
		if x, ok := trailer["XRefStm"].(int64); ok {
			queue = append([]int64{x}, queue...)
		}
		if p, ok := trailer["Prev"].(int64); ok {
			queue = append(queue, p)
		}
	}
	return nil
}

func (d *Doc) startxref() (int64, error) {
	tail := d.data[max(0, len(d.data)-4096):]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return 0, fmt.Errorf("%w: no startxref at its end", ErrMalformed)
	}
	l := NewLexer(tail, int64(i+len("startxref")))
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
	l := NewLexer(d.data, off)
	t := l.Next()
	if t.Kind == Keyword && string(t.Bytes) == "xref" {
		return d.table(l)
	}
	if t.Kind != Int {
		// Some writers are off by a few bytes: look a little around.
		if j := bytes.Index(d.data[max(0, off-32):min(int64(len(d.data)), off+32)], []byte("xref")); j >= 0 {
			return d.table(NewLexer(d.data, max(0, off-32)+int64(j)+4))
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
			if i&1023 == 0 {
				d.check()
			}
			a, b, c := l.Next(), l.Next(), l.Next()
			if a.Kind != Int || b.Kind != Int || c.Kind != Keyword {
				return nil, fmt.Errorf("%w: a broken cross-reference table entry", ErrMalformed)
			}
			if string(c.Bytes) == "n" && a.Int > 0 {
				d.set(int(t.Int+i), entry{kind: 1, off: a.Int, gen: uint16(b.Int)})
			}
		}
	}
	p := &Parser{Lex: l, Refs: true, cells: &d.cells, max: d.maxCells}
	o, err := p.Object()
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
		n := max(num+1, 2*len(d.xref))
		d.xref = append(d.xref, make([]entry, min(n, d.maxObjects)-len(d.xref))...)
	}
	if d.xref[num].kind == 0 {
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
			row := data[:rowLen]
			data = data[rowLen:]
			kind := int64(1)
			if width[0] > 0 {
				kind = field(row[:width[0]])
			}
			f2 := field(row[width[0] : width[0]+width[1]])
			f3 := field(row[width[0]+width[1]:])
			switch kind {
			case 1:
				d.set(int(first+j), entry{kind: 1, off: f2, gen: uint16(f3)})
			case 2:
				if f2 > 0 && f2 < int64(d.maxObjects) {
					d.set(int(first+j), entry{kind: 2, stm: int32(f2), idx: int32(f3)})
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

// reconstruct rebuilds the table by scanning the file for "N G obj", the
// way readers cope with a damaged or missing cross-reference table; the
// last definition of an object wins, and the trailer is the last one (or
// a cross-reference stream's dictionary, or the catalog found).
func (d *Doc) reconstruct() error {
	d.xref = d.xref[:0]
	d.Trailer = Dict{}
	var objs []struct {
		num int
		e   entry
	}
	data := d.data
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], []byte("obj"))
		if j < 0 {
			break
		}
		at := i + j
		i = at + 3
		if i < len(data) && !IsSpace(data[i]) && !IsDelim(data[i]) {
			continue
		}
		num, gen, start, ok := objHeader(data, at)
		if !ok {
			continue
		}
		objs = append(objs, struct {
			num int
			e   entry
		}{num, entry{kind: 1, off: int64(start), gen: uint16(gen)}})
		if len(objs)&1023 == 0 {
			d.check()
		}
	}
	for k := len(objs) - 1; k >= 0; k-- {
		d.set(objs[k].num, objs[k].e)
	}
	// Objects inside object streams.
	for num := range d.xref {
		if d.xref[num].kind != 1 {
			continue
		}
		o, err := d.resolveNum(num)
		if s, ok := o.(*Stream); err == nil && ok && s.Dict["Type"] == Name("ObjStm") {
			d.indexObjStm(num, s)
		}
	}
	for i := bytes.LastIndex(data, []byte("trailer")); i >= 0; {
		p := &Parser{Lex: NewLexer(data, int64(i+7)), Refs: true, cells: &d.cells, max: d.maxCells}
		if o, err := p.Object(); err == nil {
			if t, ok := o.(Dict); ok && t["Root"] != nil {
				d.Trailer = t
			}
		}
		break
	}
	if d.Trailer["Root"] == nil {
		for num := range d.xref {
			o, err := d.resolveNum(num)
			if err != nil {
				continue
			}
			if dict := dictOf(o); dict != nil && dict["Type"] == Name("Catalog") {
				d.Trailer["Root"] = Ref{num, int(d.xref[num].gen)}
				break
			}
			if s, ok := o.(*Stream); ok && s.Dict["Type"] == Name("XRef") && s.Dict["Root"] != nil {
				d.Trailer = s.Dict
				break
			}
		}
	}
	if d.Trailer["Root"] == nil {
		return fmt.Errorf("%w: no cross-reference table and no catalog found", ErrMalformed)
	}
	return nil
}

// objHeader reads "N G" backwards from the "obj" at at.
func objHeader(data []byte, at int) (num, gen, start int, ok bool) {
	i := at
	skip := func() {
		for i > 0 && IsSpace(data[i-1]) {
			i--
		}
	}
	digits := func() (int, bool) {
		end := i
		for i > 0 && data[i-1] >= '0' && data[i-1] <= '9' && end-i < 10 {
			i--
		}
		if i == end {
			return 0, false
		}
		v, err := strconv.Atoi(string(data[i:end]))
		return v, err == nil
	}
	skip()
	gen, ok1 := digits()
	skip()
	num, ok2 := digits()
	if !ok1 || !ok2 || (i > 0 && !IsSpace(data[i-1]) && !IsDelim(data[i-1])) {
		return 0, 0, 0, false
	}
	return num, gen, i, true
}
