package rpcguard

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unsafe"
)

// stats are what a scan counted in one region of a message.
type stats struct {
	values    int  // JSON values, member names included
	depth     int  // deepest nesting of arrays and objects, from the message
	space     int  // bytes of white space between tokens
	badNumber bool // a number literal no decoder should be given (numberOK)
}

func (s *stats) add(o stats) {
	s.values += o.values
	s.depth = max(s.depth, o.depth)
	s.space += o.space
	s.badNumber = s.badNumber || o.badNumber
}

// span is a value's bytes in the message: b[start:end]; end 0 when absent.
type span struct{ start, end int }

func (s span) ok() bool                         { return s.end > 0 }
func (s span) of(b []byte) []byte               { return b[s.start:s.end] }
func (s span) size() int                        { return s.end - s.start }
func (s span) startsWith(c byte, b []byte) bool { return s.ok() && b[s.start] == c }

// members of the top-level object and of params that the scan tracks.
const (
	mJSONRPC = iota
	mID
	mMethod
	mParams
	mResult
	mError
	nTop
)

var topNames = [nTop]string{"jsonrpc", "id", "method", "params", "result", "error"}

const (
	pName = iota
	pArguments
	pMeta
	nParams
)

var paramNames = [nParams]string{"name", "arguments", "_meta"}

// scan is one pass over a message: it validates the JSON, finds the
// members above and counts values and depth, without decoding anything
// but member names (and those only when they hold escapes).
type scan struct {
	b []byte
	i int

	top     [nTop]span
	topBad  string // a member named twice, or like a member but for case
	params  [nParams]span
	parBad  string // the same, among the members of params
	args    stats  // in params.arguments
	rest    stats  // everywhere else
	isObj   bool   // the message is an object
	invalid bool   // the message is not valid JSON
}

func newScan(b []byte) *scan {
	s := &scan{b: b}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '{' {
		s.isObj = true
		s.invalid = !s.message()
	} else {
		s.invalid = !s.value(0, &s.rest)
	}
	if !s.invalid {
		s.ws()
		s.invalid = s.i != len(s.b)
	}
	return s
}

// message scans the top-level object.
func (s *scan) message() bool {
	s.i++ // {
	s.rest.values++
	s.rest.depth = 1
	return s.members(func(key []byte) bool {
		k := identify(key, topNames[:], s.top[:], &s.topBad)
		start := s.i
		var ok bool
		if k == mParams && s.i < len(s.b) && s.b[s.i] == '{' {
			ok = s.paramsObject()
		} else {
			ok = s.value(1, &s.rest)
		}
		if ok && k >= 0 && !s.top[k].ok() {
			s.top[k] = span{start, s.i}
		}
		return ok
	})
}

// paramsObject scans an object value of params.
func (s *scan) paramsObject() bool {
	s.i++ // {
	s.rest.values++
	s.rest.depth = max(s.rest.depth, 2)
	return s.members(func(key []byte) bool {
		k := identify(key, paramNames[:], s.params[:], &s.parBad)
		start := s.i
		st := &s.rest
		if k == pArguments && !s.params[pArguments].ok() {
			st = &s.args
		}
		if !s.value(2, st) {
			return false
		}
		if k >= 0 && !s.params[k].ok() {
			s.params[k] = span{start, s.i}
		}
		return true
	})
}

// members scans the members of an object whose '{' was just read, calling
// member for each value with s.i at its start; it counts the names in
// s.rest.
func (s *scan) members(member func(key []byte) bool) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return true
	}
	for {
		s.ws()
		start := s.i
		if !s.str() {
			return false
		}
		s.rest.values++
		key := s.b[start+1 : s.i-1]
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return false
		}
		s.i++
		s.ws()
		if !member(key) {
			return false
		}
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// identify returns the index of the member named key among names, or -1;
// a second member of a name (seen holds the spans found so far), or one
// whose name differs from one of names only by case (Go's decoders,
// mcp-go's included, would take it for that member), is noted in bad.
func identify(key []byte, names []string, seen []span, bad *string) int {
	if bytes.IndexByte(key, '\\') >= 0 {
		var k string
		if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &k) != nil {
			return -1 // cannot happen: str validated it
		}
		key = []byte(k)
	}
	for i, n := range names {
		switch {
		case string(key) == n:
			if seen[i].ok() && *bad == "" {
				*bad = n
			}
			return i
		case bytes.EqualFold(key, []byte(n)):
			if *bad == "" {
				*bad = n
			}
			return -1
		}
	}
	return -1
}

// value scans one JSON value at s.i, nested in base containers, adding
// what it holds to st. It walks iteratively: no nesting can exhaust the
// stack.
func (s *scan) value(base int, st *stats) bool {
	var kinds bitstack // per open container: true for an object
	depth := 0
	for {
		// A value is expected at s.i.
		st.space += s.ws()
		if s.i >= len(s.b) {
			return false
		}
		st.values++
		switch s.b[s.i] {
		case '{', '[':
			obj := s.b[s.i] == '{'
			s.i++
			depth++
			st.depth = max(st.depth, base+depth)
			kinds.push(obj)
			st.space += s.ws()
			if s.i < len(s.b) && (obj && s.b[s.i] == '}' || !obj && s.b[s.i] == ']') {
				s.i++
				depth--
				kinds.pop()
				break // an empty container is a complete value
			}
			if obj && !s.key(st) {
				return false
			}
			continue // its first value
		case '"':
			if !s.str() {
				return false
			}
		case 't':
			if !s.lit("true") {
				return false
			}
		case 'f':
			if !s.lit("false") {
				return false
			}
		case 'n':
			if !s.lit("null") {
				return false
			}
		default:
			start := s.i
			if !s.num() {
				return false
			}
			if !numberOK(s.b[start:s.i]) {
				st.badNumber = true
			}
		}
		// A value ended: close containers until one expects another value.
		for {
			if depth == 0 {
				return true
			}
			st.space += s.ws()
			if s.i >= len(s.b) {
				return false
			}
			c := s.b[s.i]
			s.i++
			obj := kinds.top()
			if c == ',' {
				if obj && !s.key(st) {
					return false
				}
				break
			}
			if obj && c == '}' || !obj && c == ']' {
				depth--
				kinds.pop()
				continue
			}
			return false
		}
	}
}

// key scans `"name" :` inside an object, counting the name as a value.
func (s *scan) key(st *stats) bool {
	st.space += s.ws()
	if !s.str() {
		return false
	}
	st.values++
	st.space += s.ws()
	if s.i >= len(s.b) || s.b[s.i] != ':' {
		return false
	}
	s.i++
	return true
}

// ws skips white space and returns how much.
func (s *scan) ws() int {
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return s.i - start
		}
	}
	return s.i - start
}

// str scans a string; UTF-8 was checked for the whole message.
func (s *scan) str() bool {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return false
	}
	s.i++
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return true
		case c == '\\':
			s.i++
			if s.i >= len(s.b) {
				return false
			}
			switch s.b[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				if s.i+4 >= len(s.b) {
					return false
				}
				for _, h := range s.b[s.i+1 : s.i+5] {
					if !isHex(h) {
						return false
					}
				}
				s.i += 5
			default:
				return false
			}
		case c < 0x20:
			return false
		default:
			s.i++
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func (s *scan) lit(word string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// num scans a number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scan) num() bool {
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if !s.digits() {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

func (s *scan) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// numberOK reports whether a number literal is one a decoder may be given:
// at most MaxNumberBytes long and finite as a float64, as mcp-go decodes
// every number. Go's decoders copy a literal whole to parse it (a 16 MiB
// literal cost about 200 MB) and quote it whole in their error, which
// went back to the client; a literal past float64's range is such an
// error too.
func numberOK(lit []byte) bool {
	if len(lit) > MaxNumberBytes {
		return false
	}
	if bytes.IndexAny(lit, "eE") < 0 {
		return true // at most 64 digits: finite
	}
	// Not retained by ParseFloat, so no copy is needed.
	_, err := strconv.ParseFloat(unsafe.String(&lit[0], len(lit)), 64)
	return err == nil
}
