// Package pdfobj reads the object layer of a PDF file (PDF 32000-2 §7):
// tokens, objects, cross-reference tables and streams, object streams,
// stream filters and the standard security handler, within limits a
// hostile file cannot talk its way past: nesting, element counts, string
// lengths, decoded bytes and objects parsed are all bounded, and a loop
// in the file's structure (a /Prev chain, a reference to itself) ends.
package pdfobj

import (
	"errors"
	"fmt"
	"slices"
)

// Object is a PDF object: nil (null), bool, int64, float64, Name, String,
// Array, Dict, *Stream or Ref.
type Object any

// Name is a PDF name, without its slash.
type Name string

// String is a PDF string's bytes (decrypted).
type String string

// Array is a PDF array.
type Array []Object

// Dict is a PDF dictionary.
type Dict map[Name]Object

// Ref is an indirect reference.
type Ref struct {
	Num, Gen int
}

// Stream is a stream object: its dictionary and where its raw bytes are.
type Stream struct {
	Dict Dict
	Ref  Ref   // the object it is, for decryption
	Off  int64 // where its data starts in the file
	Len  int64 // its raw length
}

// Errors.
var (
	ErrMalformed = errors.New("malformed PDF")
	ErrLimit     = errors.New("the PDF takes too much work to read")
	ErrPassword  = errors.New("the PDF is encrypted and opens only with a password")
)

// Limits on one parsed object.
const (
	MaxDepth    = 64      // nested arrays and dictionaries
	MaxElements = 1 << 20 // elements of one array or dictionary
)

// Parser turns tokens into objects, within the limits above. Every value
// it builds is charged to its budget (mem) by its bytes before it is made;
// Spent says how much, so a caller whose values are transient (a content
// stream's operands) gives it back with Reset. maxValues, when set, also
// bounds how many values it builds between resets.
type Parser struct {
	Lex *Lexer
	mem *Budget
	// Spent is what the values built since the last Reset were charged.
	Spent     int64
	values    int64
	maxValues int64
	// decrypt, when set, decrypts each string of the object being read.
	decrypt func(s []byte) []byte
	peeked  Token // a token read ahead, when peek is set (by value: a
	peek    bool  // pointer made every number of an array a heap object)
	// Refs reads "N G R" as a reference (in a file; never in content).
	Refs bool
}

func (p *Parser) next() Token {
	if p.peek {
		p.peek = false
		return p.peeked
	}
	return p.Lex.Next()
}

// charge takes n bytes from the budget for a value about to be built.
func (p *Parser) charge(n int64) {
	p.mem.Take(n)
	p.Spent += n
}

// count adds a value to the count, failing with ErrLimit past maxValues.
func (p *Parser) count() error {
	p.values++
	if p.maxValues > 0 && p.values > p.maxValues {
		return fmt.Errorf("%w: over %d values in its objects", ErrLimit, p.maxValues)
	}
	return nil
}

// Reset gives back what the values built so far were charged (they are
// no longer held) and restarts the count.
func (p *Parser) Reset() {
	p.mem.Give(p.Spent)
	p.Spent, p.values = 0, 0
}

// Object reads one object.
func (p *Parser) Object() (Object, error) {
	return p.object(p.next(), 0)
}

// keyword is what a non-value token reads as in an object position.
type keyword string

// NewParser parses from l, charging mem (may be nil) for the values it
// builds, at most maxValues of them (0: no bound) between resets.
func NewParser(l *Lexer, mem *Budget, maxValues int64) *Parser {
	return &Parser{Lex: l, mem: mem, maxValues: maxValues}
}

// Value reads the object that starts with t (already read), for callers
// that read tokens themselves (a content stream's operands).
func (p *Parser) Value(t Token) (Object, error) { return p.object(t, 1) }

// IsKeyword reports whether o is a bare keyword, not a value.
func IsKeyword(o Object) bool { _, ok := o.(keyword); return ok }

func (p *Parser) object(t Token, depth int) (Object, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("%w: arrays or dictionaries nest more than %d deep", ErrMalformed, MaxDepth)
	}
	switch t.Kind {
	case EOF:
		return nil, fmt.Errorf("%w: the file ends inside an object", ErrMalformed)
	case Real:
		p.charge(costBoxed)
		return t.Real, nil
	case Int:
		p.charge(costBoxed)
		if !p.Refs {
			return t.Int, nil
		}
		// "N G R": look ahead two tokens.
		t2 := p.next()
		if t2.Kind == Int {
			t3 := p.next()
			if t3.Kind == Keyword && string(t3.Bytes) == "R" {
				if t.Int < 0 || t.Int > 1<<31 || t2.Int < 0 || t2.Int > 65535 {
					return nil, nil
				}
				p.charge(2 * costBoxed)
				return Ref{int(t.Int), int(t2.Int)}, nil
			}
			// Not a reference: unread t2 and t3 by parsing them later.
			p.pushBack2(t2, t3)
			return t.Int, nil
		}
		p.peeked, p.peek = t2, true
		return t.Int, nil
	case NameTok:
		p.charge(costString + int64(len(t.Bytes)))
		return Name(t.Bytes), nil
	case StringTok:
		b := t.Bytes
		p.charge(costString + int64(len(b)))
		if p.decrypt != nil {
			b = p.decrypt(append([]byte(nil), b...))
		}
		return String(b), nil
	case Keyword:
		switch string(t.Bytes) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "null":
			return nil, nil
		}
		return keyword(t.Bytes), nil
	case ArrayOpen:
		p.charge(3 * costBoxed)
		var a Array
		for {
			t := p.next()
			if t.Kind == ArrayClose {
				return a, nil
			}
			if t.Kind == EOF || t.Kind == DictClose {
				return a, nil
			}
			v, ok, err := p.element(t, depth, len(a), "an array")
			if err != nil {
				return nil, err
			}
			if ok {
				if len(a) == cap(a) {
					// Doubled (charged as costElement a value): append
					// grows a long array a quarter at a time.
					a = slices.Grow(a, max(len(a), 8))
				}
				a = append(a, v)
			}
		}
	case DictOpen:
		p.charge(costEntry)
		d := Dict{}
		for {
			t := p.next()
			if t.Kind == DictClose || t.Kind == EOF {
				return d, nil
			}
			if t.Kind != NameTok {
				// A stray value where a key should be: skip it.
				if t.Kind == ArrayOpen || t.Kind == DictOpen {
					if _, err := p.object(t, depth+1); err != nil {
						return nil, err
					}
				}
				continue
			}
			if len(d) == 0 {
				p.charge(costGroup) // a map's first group of eight slots
			}
			p.charge(costEntry - costElement + int64(len(t.Bytes)))
			k := Name(t.Bytes)
			v, ok, err := p.element(p.next(), depth, len(d), "a dictionary")
			if err != nil {
				return nil, err
			}
			if ok && v != nil {
				d[k] = v
			}
		}
	case ArrayClose, DictClose:
		return keyword("]"), nil
	}
	return nil, nil
}

// element reads the element of an array or dictionary (holding n) that
// starts with t: not ok for a bare keyword, which is skipped; ErrLimit
// past the value count or MaxElements. Its room in the array (or
// dictionary) is charged before the value is read.
func (p *Parser) element(t Token, depth, n int, what string) (v Object, ok bool, err error) {
	if n >= MaxElements {
		return nil, false, fmt.Errorf("%w: %s of over %d elements", ErrLimit, what, MaxElements)
	}
	p.charge(costElement)
	v, err = p.object(t, depth+1)
	if err != nil {
		return nil, false, err
	}
	if _, isKeyword := v.(keyword); isKeyword {
		return nil, false, nil
	}
	if err := p.count(); err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// pushBack2 returns two tokens to be read again, in order: the second is
// kept in a tiny queue in front of the lexer.
func (p *Parser) pushBack2(a, b Token) {
	// Only one token of look-ahead is stored; the other is re-lexed by
	// rewinding a slice lexer, which is all that reads references.
	p.peeked, p.peek = a, true
	if p.Lex.src == nil && b.Kind != EOF {
		p.Lex.pos = int(b.Off - p.Lex.base)
	}
}
