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
	// Tokens counts the tokens read, so a caller can bound (and a test
	// observe) the work a stream costs without timing it.
	Tokens int64
	// Check, when set, is called for each token and every 64 KiB within
	// one (a comment or a string may run for megabytes): it panics to
	// stop the work at a deadline.
	Check func()
	tmp   []byte
}

// checkEvery is how many bytes one token may run before the deadline is
// looked at again.
const checkEvery = 64 << 10

// long is called as a token runs on, at every byte of a slice lexer's
// input (a stream lexer looks at the deadline at each refill).
func (l *Lexer) long() {
	if l.pos&(checkEvery-1) == 0 && l.Check != nil {
		l.Check()
	}
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

// NewStreamLexer reads from r through a 4 KiB buffer: small enough that
// the many small content streams of a document cost little, large enough
// that a big one costs few reads.
func NewStreamLexer(r io.Reader) *Lexer {
	return NewStreamLexerBuf(r, make([]byte, 0, 4<<10))
}

// NewStreamLexerBuf reads from r through buf (its capacity, at least
// 16 bytes), so a caller reading many streams reuses one buffer.
func NewStreamLexerBuf(r io.Reader, buf []byte) *Lexer {
	return &Lexer{src: r, buf: buf[:0]}
}

// Buffer is the lexer's buffer, for the next NewStreamLexerBuf once the
// lexer is done with.
func (l *Lexer) Buffer() []byte { return l.buf[:0] }

// Offset is the position of the next byte in the input.
func (l *Lexer) Offset() int64 { return l.base + int64(l.pos) }

// fill makes at least one more byte available, reports false at the end.
func (l *Lexer) fill() bool { return l.pos < len(l.buf) || l.ensure(1) }

// ensure makes n bytes available from pos, keeping the unread ones across
// a refill (a name's "#xx" may straddle two reads); false when the input
// ends first.
func (l *Lexer) ensure(n int) bool {
	for len(l.buf)-l.pos < n {
		if l.eof {
			return false
		}
		if l.Check != nil {
			l.Check()
		}
		rest := copy(l.buf[:cap(l.buf)], l.buf[l.pos:])
		l.base += int64(l.pos)
		l.pos = 0
		m, err := l.src.Read(l.buf[rest:cap(l.buf)])
		l.buf = l.buf[:rest+m]
		if err != nil {
			l.eof = true
		}
	}
	return true
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
		l.long()
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
				l.long()
			}
		case c == '%':
			for {
				c, ok := l.peek()
				if !ok || c == '\n' || c == '\r' {
					break
				}
				l.pos++
				l.long()
			}
		default:
			return
		}
	}
}

// Next reads the next token.
func (l *Lexer) Next() Token {
	l.Tokens++
	if l.Check != nil {
		l.Check()
	}
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
			l.long()
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
