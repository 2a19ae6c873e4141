package pdfobj

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
)

// Options bound one document.
type Options struct {
	// Memory is charged for everything the document holds by the file's
	// say: the cross-reference entries, the objects read (cached), the
	// bytes of streams decoded whole, decoders' state. Nil is a budget of
	// DefaultMemory.
	Memory *Budget
	// MaxDecoded bounds the bytes decoded from object streams.
	MaxDecoded int64
	// Check is called in every loop whose length the file decides (at
	// least once per 64 KiB of input, per object, per token); it panics to
	// stop the work (a deadline), so it must be cheap. It may be nil.
	Check func()
}

// DefaultMemory is the memory budget of a document opened without one.
const DefaultMemory = 16 << 20

// Fixed costs charged to the budget, in bytes.
const (
	costXref  = 24 // a cross-reference entry
	costCache = 48 // an object in the cache (the map's entry)
)

// Doc is an open PDF file.
type Doc struct {
	data       []byte
	xref       []entry
	maxObjects int
	Trailer    Dict
	cache      map[int]Object
	busy       map[int]bool // objects being resolved: a cycle ends at them
	mem        *Budget
	held       int64 // what the cache and the trailer hold, charged to mem
	decoded    int64 // object stream bytes decoded so far
	opt        Options
	crypt      *crypt
	objstms    map[int]*objStm // object streams indexed (nil: not one)
	stmKept    []*objStm       // those whose decoded bytes are kept, oldest first
	sections   int             // cross-reference sections read
	xrefLoop   bool            // a section chain came back to one already read
	frees      []int           // the free entries of the table being read
	rebuilt    bool            // the cross-reference data was rebuilt by a scan
	idle       []*inflater     // Flate decoders kept for the next stream
	rows       [][]byte        // predictor row buffers kept likewise
	ends       []int64         // where each "endstream" is, once a /Length proved wrong
}

// Open reads the cross-reference information of data (rebuilding it by a
// scan when it is damaged), and prepares decryption with the empty user
// password when the file is encrypted. A budget spent on the way is an
// ErrLimit error; a Check that panics (a deadline) panics through.
func Open(data []byte, opt Options) (doc *Doc, err error) {
	defer func() {
		if r := recover(); r != nil {
			if s, ok := r.(Stop); ok {
				doc, err = nil, s.Err
				return
			}
			panic(r)
		}
	}()
	if opt.Memory == nil {
		opt.Memory = NewBudget(DefaultMemory)
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
		mem:        opt.Memory,
		opt:        opt,
		objstms:    map[int]*objStm{},
	}
	err = d.readXref()
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
	d.forget()
	return nil
}

// forget drops the objects read so far (they were read still encrypted,
// or from cross-reference data a rebuild replaces), giving back what they
// were charged.
func (d *Doc) forget() {
	for _, st := range d.objstms {
		if st != nil {
			d.mem.Give(st.cost)
		}
	}
	for _, st := range d.stmKept {
		d.Free(st.data)
		st.data = nil
	}
	d.cache, d.objstms, d.stmKept = map[int]Object{}, map[int]*objStm{}, nil
	d.mem.Give(d.held)
	d.held = 0
}

// parser reads objects from the file at off, charging the values it
// builds to what the document holds.
func (d *Doc) parser(data []byte, off int64) *Parser {
	return &Parser{Lex: d.lexer(data, off), Refs: true, mem: d.mem}
}

// lexer reads tokens from data at off, looking at the deadline as it goes.
func (d *Doc) lexer(data []byte, off int64) *Lexer {
	l := NewLexer(data, off)
	l.Check = d.opt.Check
	return l
}

// keep records that the document holds what p built (cached objects,
// trailers), to be given back when the objects are forgotten.
func (d *Doc) keep(p *Parser) { d.held += p.Spent }

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
	d.cacheObject(num, o)
	return o, nil
}

// cacheObject keeps o as object num, charging the cache's entry.
func (d *Doc) cacheObject(num int, o Object) {
	d.mem.Take(costCache)
	d.held += costCache
	d.cache[num] = o
}

// objectAt parses "N G obj <object> [stream]" at off. want, when set, is
// the object expected there; decrypt says whether its strings are
// encrypted (not in a cross-reference stream).
func (d *Doc) objectAt(off int64, want Ref, decrypt bool) (Object, Ref, error) {
	p := d.parser(d.data, off)
	l := p.Lex
	n, g, kw := l.Next(), l.Next(), l.Next()
	if n.Kind != Int || g.Kind != Int || kw.Kind != Keyword || string(kw.Bytes) != "obj" {
		return nil, Ref{}, fmt.Errorf("%w: no object at offset %d", ErrMalformed, off)
	}
	ref := Ref{int(n.Int), int(g.Int)}
	if want.Num != 0 && ref.Num != want.Num {
		return nil, Ref{}, fmt.Errorf("%w: object %d is not at its offset", ErrMalformed, want.Num)
	}
	if decrypt && d.crypt != nil {
		p.decrypt = func(b []byte) []byte { return d.crypt.decryptString(ref, b) }
	}
	o, err := p.Object()
	if err != nil {
		p.Reset()
		return nil, ref, err
	}
	d.keep(p)
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
		length = d.streamEnd(start)
	}
	return &Stream{Dict: dict, Ref: ref, Off: start, Len: length}, ref, nil
}

// endsStream says whether b starts with (an end of line and) "endstream".
func endsStream(b []byte) bool {
	b = bytes.TrimLeft(b[:min(len(b), 64)], " \r\n\t\f\x00")
	return bytes.HasPrefix(b, []byte("endstream"))
}

// streamEnd is a stream's length found by looking for "endstream" after
// its start, less the end of line before it; without one, the rest of the
// file. Where every "endstream" is, is found once, on first need, so a
// file of many streams whose /Length is wrong costs one scan of it, not
// one per stream.
func (d *Doc) streamEnd(start int64) int64 {
	if d.ends == nil {
		d.ends = []int64{}
		for i := 0; ; {
			d.check()
			j := bytes.Index(d.data[i:], []byte("endstream"))
			if j < 0 {
				break
			}
			d.ends = grow(d.mem, d.ends, int64(i+j), 8)
			i += j + len("endstream")
		}
	}
	k, _ := slices.BinarySearch(d.ends, start)
	if k == len(d.ends) {
		return int64(len(d.data)) - start
	}
	i := d.ends[k]
	if i > start && d.data[i-1] == '\n' {
		i--
	}
	if i > start && d.data[i-1] == '\r' {
		i--
	}
	return i - start
}
