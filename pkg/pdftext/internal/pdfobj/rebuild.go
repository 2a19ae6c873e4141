package pdfobj

import (
	"bytes"
	"fmt"
	"strconv"
)

// rebuild replaces cross-reference data that is missing or wrong by a
// scan of the file for "N G obj", the way viewers cope with a damaged
// file: the last definition of an object wins; the trailer is the last
// "trailer" dictionary that names a catalog, else the newest
// cross-reference stream's dictionary that does; decryption is prepared
// from it before object streams are indexed (an encrypted file's object
// streams decode only with the key); a catalog found among the objects
// stands in for a trailer that names none.
func (d *Doc) rebuild() error {
	d.mem.Give(int64(len(d.xref)) * costXref)
	d.xref, d.frees, d.Trailer, d.crypt = nil, d.frees[:0], Dict{}, nil
	d.forget()
	d.rebuilt = true
	d.scan()
	d.Trailer = d.scannedTrailer()
	if err := d.prepareCrypt(); err != nil {
		return err
	}
	for num := range d.xref {
		if d.xref[num].kind != inFile {
			continue
		}
		o, err := d.resolveNum(num)
		if s, ok := o.(*Stream); err == nil && ok && s.Dict["Type"] == Name("ObjStm") {
			// Its header says which objects it holds.
			if _, err := d.objStm(num); err != nil {
				return err
			}
		}
	}
	if d.Trailer["Root"] == nil {
		for num := range d.xref {
			o, err := d.resolveNum(num)
			if dict, ok := o.(Dict); err == nil && ok && dict["Type"] == Name("Catalog") {
				d.Trailer["Root"] = Ref{num, int(d.xref[num].gen)}
				break
			}
		}
	}
	if _, ok := d.Resolve(d.Trailer["Root"]).(Dict); !ok {
		return fmt.Errorf("%w: no cross-reference table and no catalog found", ErrMalformed)
	}
	return nil
}

// scan records every "N G obj" of the file, the last one of each number
// winning.
func (d *Doc) scan() {
	type found struct {
		num int
		e   entry
	}
	var objs []found
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
		objs = grow(d.mem, objs, found{num, entry{kind: inFile, off: int64(start), gen: uint16(gen)}}, 32)
		d.check()
	}
	for k := len(objs) - 1; k >= 0; k-- {
		d.set(objs[k].num, objs[k].e)
	}
	d.mem.Give(int64(cap(objs)) * 32)
}

// scannedTrailer is the last "trailer" dictionary naming a catalog, else
// the dictionary of the cross-reference stream latest in the file that
// names one, else an empty one.
func (d *Doc) scannedTrailer() Dict {
	if i := bytes.LastIndex(d.data, []byte("trailer")); i >= 0 {
		p := d.parser(d.data, int64(i+len("trailer")))
		o, err := p.Object()
		d.keep(p)
		if err == nil {
			if t, ok := o.(Dict); ok && t["Root"] != nil {
				return t
			}
		}
	}
	var newest *Stream
	for num := range d.xref {
		if d.xref[num].kind != inFile {
			continue
		}
		o, err := d.resolveNum(num)
		if s, ok := o.(*Stream); err == nil && ok && s.Dict["Type"] == Name("XRef") && s.Dict["Root"] != nil {
			if newest == nil || s.Off > newest.Off {
				newest = s
			}
		}
	}
	if newest == nil {
		return Dict{}
	}
	t := Dict{}
	for k, v := range newest.Dict {
		t[k] = v
	}
	return t
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
