package pdfobj

import (
	"errors"
	"slices"
)

// Object streams (PDF 32000-2 §7.5.7) are read as their objects are
// wanted: the first time one of a stream's objects is, the stream is
// decoded and its header (which object is at which offset) indexed; each
// object is parsed when it is wanted, not all at once, so a stream of
// 60,000 fonts costs the fonts a page shows. The decoded bytes of the last
// few streams are kept (charged to the budget); a stream decoded again
// counts against MaxDecoded again, which bounds the work of a file that
// makes its objects hop between streams.

// maxStmsKept is how many object streams' decoded bytes are kept.
const maxStmsKept = 4

// costStmEntry is what one entry of a stream's header index holds.
const costStmEntry = 16

type objStm struct {
	s     *Stream
	first int64
	index []stmEntry // by object number; the first entry of a number wins
	data  []byte     // decoded, or nil when not kept
	cost  int64      // the index's charge
}

type stmEntry struct {
	num int
	off int64
}

// fromObjStm reads object num from the object stream e names.
func (d *Doc) fromObjStm(num int, e entry) (Object, error) {
	st, err := d.objStm(int(e.stm))
	if st == nil || err != nil {
		return nil, err
	}
	i, found := slices.BinarySearchFunc(st.index, num, func(x stmEntry, n int) int { return x.num - n })
	if !found {
		return nil, nil
	}
	data, err := d.stmData(st)
	if err != nil {
		return nil, err
	}
	off := st.first + st.index[i].off
	if off < st.first || off >= int64(len(data)) {
		return nil, nil
	}
	p := d.parser(data, off)
	o, err := p.Object()
	if err != nil {
		p.Reset() // nothing of it is kept
		if errors.Is(err, ErrLimit) {
			return nil, err
		}
		return nil, nil
	}
	d.keep(p)
	return o, nil
}

// objStm returns object stream stm, its header indexed on first use (and
// the cross-reference entries a rebuild did not know set from it); nil
// when stm is not an object stream.
func (d *Doc) objStm(stm int) (st *objStm, err error) {
	if st, ok := d.objstms[stm]; ok {
		return st, nil
	}
	d.objstms[stm] = nil // a stream that holds itself finds nothing
	defer func() {
		if r := recover(); r != nil {
			// Stopped part way (the budget, a deadline): not indexed, so
			// it is indexed whole if asked again.
			delete(d.objstms, stm)
			if st != nil {
				d.mem.Give(st.cost)
			}
			panic(r)
		}
	}()
	o, err := d.resolveNum(stm)
	if err != nil {
		return nil, err
	}
	s, ok := o.(*Stream)
	if !ok {
		return nil, nil
	}
	n, _ := s.Dict["N"].(int64)
	first, _ := s.Dict["First"].(int64)
	if n <= 0 || first <= 0 {
		return nil, nil
	}
	st = &objStm{s: s, first: first}
	data, err := d.stmData(st)
	if err != nil {
		return nil, err
	}
	if first > int64(len(data)) {
		return nil, nil
	}
	hl := d.lexer(data[:first], 0)
	for i := int64(0); i < n; i++ {
		a, b := hl.Next(), hl.Next()
		if a.Kind != Int || b.Kind != Int {
			break
		}
		num := int(a.Int)
		if num <= 0 || num >= len(d.xref) {
			continue
		}
		if d.xref[num].kind == unknown {
			d.xref[num] = entry{kind: inStream, stm: int32(stm), idx: int32(i)}
		}
		d.mem.Take(costStmEntry)
		st.cost += costStmEntry
		st.index = append(st.index, stmEntry{num, b.Int})
	}
	slices.SortStableFunc(st.index, func(x, y stmEntry) int { return x.num - y.num })
	st.index = slices.CompactFunc(st.index, func(x, y stmEntry) bool { return x.num == y.num })
	d.objstms[stm] = st
	return st, nil
}

// stmData is st's decoded bytes, decoded again if they were let go; the
// bytes of at most maxStmsKept streams are kept.
func (d *Doc) stmData(st *objStm) ([]byte, error) {
	if st.data != nil {
		return st.data, nil
	}
	data, err := d.streamBytes(st.s, d.opt.MaxDecoded-d.decoded)
	d.decoded += int64(len(data))
	if errors.Is(err, ErrLimit) {
		return nil, err
	}
	if len(d.stmKept) == maxStmsKept {
		old := d.stmKept[0]
		d.stmKept = d.stmKept[1:]
		d.Free(old.data)
		old.data = nil
	}
	st.data = data
	d.stmKept = append(d.stmKept, st)
	return data, nil
}
