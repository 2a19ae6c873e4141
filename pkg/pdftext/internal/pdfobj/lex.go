package pdfobj

import (
	"io"
	"strconv"
)

// Lexer reads PDF tokens (PDF 32000-2 §7.2, §7.3) from a byte slice (the
// file) or from a stream (a decoded content stream, read through a small
// buffer so a 32 MiB content stream is never held whole). Every token is
// bounded: a string or name longer than MaxString is cut (the rest read
// and dropped), so the memory a token costs does not follow the input.
type Lexer struct {
	src  io.Reader // nil when buf is the whole input
	buf  []byte
	pos  int
	base int64 // offset of buf[0] in the input
	eof  bool
	// MaxString bounds a string, name or keyword token; 0 is 1 MiB.
	MaxString int
	tmp       []byte
}

// Kind is what a token is.
type Kind uint8

// Token kinds.
const (
	EOF Kind = iota
	Int
	Real
	NameTok
	StringTok
	Keyword
	ArrayOpen
	ArrayClose
	DictOpen
	DictClose
)

// Token is one token. Bytes (names without the slash, strings decoded,
// keywords) is valid until the next call of Next.
type Token struct {
	Kind  Kind
	Int   int64
	Real  float64
	Bytes []byte
	Off   int64 // where the token starts in the input
}

const defaultMaxString = 1 << 20

// NewLexer reads from the whole of data, starting at off.
func NewLexer(data []byte, off int64) *Lexer {
	if off < 0 || off > int64(len(data)) {
		off = int64(len(data))
	}
	return &Lexer{buf: data, pos: int(off), eof: true}
}

// NewStreamLexer reads from r through a 32 KiB buffer.
func NewStreamLexer(r io.Reader) *Lexer {
	return &Lexer{src: r, buf: make([]byte, 0, 32<<10)}
}

// Offset is the position of the next byte in the input.
func (l *Lexer) Offset() int64 { return l.base + int64(l.pos) }

// fill makes at least one more byte available, reports false at the end.
func (l *Lexer) fill() bool {
	if l.pos < len(l.buf) {
		return true
	}
	if l.eof {
		return false
	}
	l.base += int64(len(l.buf))
	l.buf = l.buf[:cap(l.buf)]
	for {
		n, err := l.src.Read(l.buf)
		if n > 0 {
			l.buf, l.pos = l.buf[:n], 0
			if err != nil {
				l.eof = true
			}
			return true
		}
		if err != nil {
			l.eof, l.buf, l.pos = true, l.buf[:0], 0
			return false
		}
	}
}

func (l *Lexer) peek() (byte, bool) {
	if !l.fill() {
		return 0, false
	}
	return l.buf[l.pos], true
}

func (l *Lexer) next() (byte, bool) {
	c, ok := l.peek()
	if ok {
		l.pos++
	}
	return c, ok
}

// IsSpace reports PDF white space.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

// IsDelim reports PDF delimiters.
func IsDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func (l *Lexer) max() int {
	if l.MaxString > 0 {
		return l.MaxString
	}
	return defaultMaxString
}

// skipSpace skips white space and comments.
func (l *Lexer) skipSpace() {
	for {
		c, ok := l.peek()
		if !ok {
			return
		}
		switch {
		case IsSpace(c):
			l.pos++
			for l.pos < len(l.buf) && IsSpace(l.buf[l.pos]) {
				l.pos++
			}
		case c == '%':
			for {
				c, ok := l.peek()
				if !ok || c == '\n' || c == '\r' {
					break
				}
				l.pos++
			}
		default:
			return
		}
	}
}

// Next reads the next token.
func (l *Lexer) Next() Token {
	l.skipSpace()
	t := Token{Off: l.Offset()}
	c, ok := l.next()
	if !ok {
		return t
	}
	l.tmp = l.tmp[:0]
	switch c {
	case '[':
		t.Kind = ArrayOpen
	case ']':
		t.Kind = ArrayClose
	case '{', '}':
		t.Kind, t.Bytes = Keyword, append(l.tmp, c)
	case '/':
		t.Kind, t.Bytes = NameTok, l.name()
	case '(':
		t.Kind, t.Bytes = StringTok, l.literal()
	case '<':
		if c, ok := l.peek(); ok && c == '<' {
			l.pos++
			t.Kind = DictOpen
			return t
		}
		t.Kind, t.Bytes = StringTok, l.hex()
	case '>':
		if c, ok := l.peek(); ok && c == '>' {
			l.pos++
		}
		t.Kind = DictClose
	case ')':
		// A stray delimiter: a keyword nothing knows, so it is skipped.
		t.Kind, t.Bytes = Keyword, append(l.tmp, c)
	default:
		l.pos--
		word := l.regular()
		if isNum, isInt := number(word); isNum {
			return numberToken(t, word, isInt)
		}
		t.Kind, t.Bytes = Keyword, word
	}
	return t
}

func numberToken(t Token, word []byte, isInt bool) Token {
	if isInt {
		if v, err := strconv.ParseInt(string(word), 10, 64); err == nil {
			t.Kind, t.Int, t.Real = Int, v, float64(v)
			return t
		}
	}
	v, _ := strconv.ParseFloat(realText(word), 64)
	t.Kind, t.Real = Real, v
	return t
}

// realText mends the reals PDF writers produce that Go does not parse:
// "-.5" is fine, but "--5", "5-" and "1.2.3" are not.
func realText(w []byte) string {
	s := string(w)
	for len(s) > 1 && (s[0] == '-' || s[0] == '+') && (s[1] == '-' || s[1] == '+') {
		s = s[1:]
	}
	end := 0
	dot := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case (c == '-' || c == '+') && i == 0:
		case c == '.' && !dot:
			dot = true
		default:
			return s[:end]
		}
		end = i + 1
	}
	return s
}

// number says whether word is a number and whether an integer.
func number(w []byte) (isNum, isInt bool) {
	if len(w) == 0 {
		return false, false
	}
	digits, dot := 0, false
	for i, c := range w {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dot = true
		case c == '-' || c == '+':
			if i > 0 && w[i-1] != '-' && w[i-1] != '+' {
				return digits > 0, false
			}
		default:
			return false, false
		}
	}
	if digits == 0 {
		return false, false
	}
	return true, !dot
}

// regular reads a run of regular characters.
func (l *Lexer) regular() []byte {
	for {
		// The run within the buffer at once, then byte by byte across a
		// refill.
		start := l.pos
		for l.pos < len(l.buf) && !IsSpace(l.buf[l.pos]) && !IsDelim(l.buf[l.pos]) {
			l.pos++
		}
		if n := min(l.pos-start, l.max()-len(l.tmp)); n > 0 {
			l.tmp = append(l.tmp, l.buf[start:start+n]...)
		}
		c, ok := l.peek()
		if !ok || IsSpace(c) || IsDelim(c) {
			return l.tmp
		}
		l.pos++
		if len(l.tmp) < l.max() {
			l.tmp = append(l.tmp, c)
		}
	}
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func (l *Lexer) name() []byte {
	for {
		c, ok := l.peek()
		if !ok || IsSpace(c) || IsDelim(c) {
			return l.tmp
		}
		l.pos++
		if c == '#' {
			if d := l.twoHex(); d >= 0 {
				c = byte(d)
			}
		}
		if len(l.tmp) < l.max() {
			l.tmp = append(l.tmp, c)
		}
	}
}

// twoHex reads the two hex digits of a name's #xx, or returns -1 leaving
// them unread.
func (l *Lexer) twoHex() int {
	if !l.fill() || l.pos+1 >= len(l.buf) {
		return -1
	}
	a, ok1 := unhex(l.buf[l.pos])
	b, ok2 := unhex(l.buf[l.pos+1])
	if !ok1 || !ok2 {
		return -1
	}
	l.pos += 2
	return int(a<<4 | b)
}

func (l *Lexer) hex() []byte {
	var hi byte
	half := false
	for {
		c, ok := l.next()
		if !ok || c == '>' {
			break
		}
		v, isHex := unhex(c)
		if !isHex {
			continue
		}
		if half {
			if len(l.tmp) < l.max() {
				l.tmp = append(l.tmp, hi<<4|v)
			}
		} else {
			hi = v
		}
		half = !half
	}
	if half && len(l.tmp) < l.max() {
		l.tmp = append(l.tmp, hi<<4)
	}
	return l.tmp
}

func (l *Lexer) literal() []byte {
	depth := 1
	add := func(c byte) {
		if len(l.tmp) < l.max() {
			l.tmp = append(l.tmp, c)
		}
	}
	for {
		c, ok := l.next()
		if !ok {
			return l.tmp
		}
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return l.tmp
			}
		case '\r':
			// An end of line in a string is a line feed, whatever it was.
			if c, ok := l.peek(); ok && c == '\n' {
				l.pos++
			}
			c = '\n'
		case '\\':
			c, ok = l.next()
			if !ok {
				return l.tmp
			}
			switch c {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if c, ok := l.peek(); ok && c == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if c >= '0' && c <= '7' {
					v := int(c - '0')
					for range 2 {
						d, ok := l.peek()
						if !ok || d < '0' || d > '7' {
							break
						}
						l.pos++
						v = v*8 + int(d-'0')
					}
					c = byte(v)
				}
			}
		}
		add(c)
	}
}

// SkipTo moves past the next occurrence of word in a slice lexer (used to
// skip inline image data and stream bodies); false when it is not found.
func (l *Lexer) SkipTo(word []byte) bool {
	for {
		if !l.fill() {
			return false
		}
		c := l.buf[l.pos]
		l.pos++
		if c != word[0] {
			continue
		}
		i := 1
		for ; i < len(word); i++ {
			d, ok := l.peek()
			if !ok || d != word[i] {
				break
			}
			l.pos++
		}
		if i == len(word) {
			return true
		}
	}
}

// SkipInlineData skips an inline image's data after ID: up to "EI"
// between white space (or at the end), PDF 32000-2 §8.9.7.
func (l *Lexer) SkipInlineData() {
	prevSpace := true
	for {
		c, ok := l.next()
		if !ok {
			return
		}
		if c == 'E' && prevSpace {
			if d, ok := l.peek(); ok && d == 'I' {
				l.pos++
				e, ok := l.peek()
				if !ok || IsSpace(e) {
					return
				}
			}
		}
		prevSpace = IsSpace(c)
	}
}
