package pdfobj

import (
	"bytes"
	"errors"
	"fmt"
)

// Options bound one document.
type Options struct {
	// MaxCells bounds the values built from the file's objects (arrays'
	// and dictionaries' elements), cached or not.
	MaxCells int64
	// MaxDecoded bounds the bytes decoded from object streams.
	MaxDecoded int64
	// Check is called now and then; it panics to stop the work (a
	// deadline). It may be nil.
	Check func()
}

// Doc is an open PDF file.
type Doc struct {
	data       []byte
	xref       []entry
	maxObjects int
	Trailer    Dict
	cache      map[int]Object
	busy       map[int]bool // objects being resolved: a cycle ends at them
	cells      int64
	maxCells   int64
	decoded    int64 // object stream bytes decoded so far
	opt        Options
	crypt      *crypt
	stms       map[int]bool // object streams already indexed
	sections   int          // cross-reference sections read
	xrefLoop   bool         // a section chain came back to one already read
	frees      []int        // the free entries of the table being read
	rebuilt    bool         // the cross-reference data was rebuilt by a scan
	idle       []*inflater  // Flate decoders kept for the next stream
}

// Open reads the cross-reference information of data (rebuilding it by a
// scan when it is damaged), and prepares decryption with the empty user
// password when the file is encrypted.
func Open(data []byte, opt Options) (*Doc, error) {
	if opt.MaxCells <= 0 {
		opt.MaxCells = 4 << 20
	}
	if opt.MaxDecoded <= 0 {
		opt.MaxDecoded = 32 << 20
	}
	d := &Doc{
		data:       data,
		maxObjects: int(min(int64(len(data))/4+1024, 1<<20)),
		Trailer:    Dict{},
		cache:      map[int]Object{},
		busy:       map[int]bool{},
		maxCells:   opt.MaxCells,
		opt:        opt,
		stms:       map[int]bool{},
	}
	err := d.readXref()
	if err == nil && d.Trailer["Root"] == nil {
		err = fmt.Errorf("%w: its trailer names no catalog", ErrMalformed)
	}
	if err == nil {
		err = d.prepareCrypt()
	}
	if err == nil {
		// An offset table that points at nothing sensible is rebuilt.
		if _, ok := d.Resolve(d.Trailer["Root"]).(Dict); !ok {
			err = fmt.Errorf("%w: its catalog cannot be read", ErrMalformed)
		}
	}
	if err != nil {
		if errors.Is(err, ErrLimit) || errors.Is(err, ErrPassword) {
			return nil, err
		}
		if rerr := d.rebuild(); rerr != nil {
			if errors.Is(rerr, ErrLimit) || errors.Is(rerr, ErrPassword) {
				return nil, rerr
			}
			return nil, err
		}
	}
	return d, nil
}

// prepareCrypt sets up decryption with the empty user password when the
// trailer names an encryption dictionary; the objects read before are
// forgotten, being still encrypted.
func (d *Doc) prepareCrypt() error {
	enc := d.Trailer["Encrypt"]
	if enc == nil {
		return nil
	}
	c, err := d.newCrypt(enc)
	if err != nil {
		return err
	}
	d.crypt = c
	d.cache, d.stms = map[int]Object{}, map[int]bool{}
	return nil
}

func (d *Doc) check() {
	if d.opt.Check != nil {
		d.opt.Check()
	}
}

// Resolve follows references (a chain of at most 32) to the object.
func (d *Doc) Resolve(o Object) Object {
	for range 32 {
		r, ok := o.(Ref)
		if !ok {
			return o
		}
		v, err := d.resolveNum(r.Num)
		if err != nil {
			if errors.Is(err, ErrLimit) {
				panic(Stop{err})
			}
			return nil
		}
		o = v
	}
	return nil
}

// Stop is the panic value for an error that must end the extraction (a
// budget spent), raised where the object API has no error to return.
type Stop struct{ Err error }

func (s Stop) Error() string { return s.Err.Error() }
func (s Stop) Unwrap() error { return s.Err }

func (d *Doc) resolveNum(num int) (Object, error) {
	if num <= 0 || num >= len(d.xref) {
		return nil, nil
	}
	if o, ok := d.cache[num]; ok {
		return o, nil
	}
	if d.busy[num] {
		return nil, nil // a reference to itself while being read
	}
	d.busy[num] = true
	defer delete(d.busy, num)
	d.check()
	e := d.xref[num]
	var o Object
	var err error
	switch e.kind {
	case inFile:
		o, _, err = d.objectAt(e.off, Ref{num, int(e.gen)}, true)
	case inStream:
		o, err = d.fromObjStm(num, e)
	}
	if err != nil {
		return nil, err
	}
	d.cache[num] = o
	return o, nil
}

// objectAt parses "N G obj <object> [stream]" at off. want, when set, is
// the object expected there; decrypt says whether its strings are
// encrypted (not in a cross-reference stream).
func (d *Doc) objectAt(off int64, want Ref, decrypt bool) (Object, Ref, error) {
	l := NewLexer(d.data, off)
	n, g, kw := l.Next(), l.Next(), l.Next()
	if n.Kind != Int || g.Kind != Int || kw.Kind != Keyword || string(kw.Bytes) != "obj" {
		return nil, Ref{}, fmt.Errorf("%w: no object at offset %d", ErrMalformed, off)
	}
	ref := Ref{int(n.Int), int(g.Int)}
	if want.Num != 0 && ref.Num != want.Num {
		return nil, Ref{}, fmt.Errorf("%w: object %d is not at its offset", ErrMalformed, want.Num)
	}
	p := &Parser{Lex: l, Refs: true, cells: &d.cells, max: d.maxCells}
	if decrypt && d.crypt != nil {
		p.decrypt = func(b []byte) []byte { return d.crypt.decryptString(ref, b) }
	}
	o, err := p.Object()
	if err != nil {
		return nil, ref, err
	}
	dict, isDict := o.(Dict)
	if !isDict {
		return o, ref, nil
	}
	t := p.next()
	if t.Kind != Keyword || string(t.Bytes) != "stream" {
		return o, ref, nil
	}
	// The data starts after the end of line that follows "stream".
	start := l.Offset()
	if start < int64(len(d.data)) && d.data[start] == '\r' {
		start++
	}
	if start < int64(len(d.data)) && d.data[start] == '\n' {
		start++
	}
	length := int64(-1)
	switch v := dict["Length"].(type) {
	case int64:
		length = v
	case Ref:
		if v.Num != ref.Num {
			if n, ok := d.Resolve(v).(int64); ok {
				length = n
			}
		}
	}
	if length < 0 || start+length > int64(len(d.data)) || !endsStream(d.data[start+length:]) {
		length = findEnd(d.data[start:])
	}
	return &Stream{Dict: dict, Ref: ref, Off: start, Len: length}, ref, nil
}

// endsStream says whether b starts with (an end of line and) "endstream".
func endsStream(b []byte) bool {
	b = bytes.TrimLeft(b[:min(len(b), 64)], " \r\n\t\f\x00")
	return bytes.HasPrefix(b, []byte("endstream"))
}

// findEnd is a stream's length found by looking for "endstream", less
// the end of line before it.
func findEnd(b []byte) int64 {
	i := bytes.Index(b, []byte("endstream"))
	if i < 0 {
		return int64(len(b))
	}
	if i > 0 && b[i-1] == '\n' {
		i--
	}
	if i > 0 && b[i-1] == '\r' {
		i--
	}
	return int64(i)
}

// fromObjStm reads object num from the object stream e names, indexing
// (and caching) every object of that stream on first use.
func (d *Doc) fromObjStm(num int, e entry) (Object, error) {
	stm := int(e.stm)
	if !d.stms[stm] {
		o, err := d.resolveNum(stm)
		if err != nil {
			return nil, err
		}
		s, ok := o.(*Stream)
		if !ok {
			return nil, nil
		}
		if err := d.indexObjStm(stm, s); err != nil {
			return nil, err
		}
	}
	return d.cache[num], nil
}

// indexObjStm parses every object of object stream s (number stm) into
// the cache, where the cross-reference data says the object lives there.
func (d *Doc) indexObjStm(stm int, s *Stream) error {
	d.stms[stm] = true
	n, _ := s.Dict["N"].(int64)
	first, _ := s.Dict["First"].(int64)
	if n <= 0 || first <= 0 {
		return nil
	}
	data, err := d.streamBytes(s, d.opt.MaxDecoded-d.decoded)
	d.decoded += int64(len(data))
	if errors.Is(err, ErrLimit) {
		return err
	}
	if first > int64(len(data)) {
		return nil
	}
	hl := NewLexer(data[:first], 0)
	for i := int64(0); i < n; i++ {
		a, b := hl.Next(), hl.Next()
		if a.Kind != Int || b.Kind != Int {
			break
		}
		num := int(a.Int)
		if num <= 0 || num >= len(d.xref) {
			continue
		}
		if e := d.xref[num]; e.kind == inFile || e.kind == freed || e.kind == inStream && int(e.stm) != stm {
			continue // a newer version lives elsewhere, or none does
		}
		if _, ok := d.cache[num]; ok {
			continue
		}
		if d.xref[num].kind == unknown {
			d.xref[num] = entry{kind: inStream, stm: int32(stm), idx: int32(i)}
		}
		off := first + b.Int
		if off < first || off >= int64(len(data)) {
			continue
		}
		p := &Parser{Lex: NewLexer(data, off), Refs: true, cells: &d.cells, max: d.maxCells}
		o, err := p.Object()
		if errors.Is(err, ErrLimit) {
			return err
		}
		if err == nil {
			d.cache[num] = o
		}
	}
	return nil
}
