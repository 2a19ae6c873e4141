package pdfobj

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// show writes a token as the tests expect it: its kind and value.
func show(t Token) string {
	switch t.Kind {
	case Int:
		return fmt.Sprintf("int %d", t.Int)
	case Real:
		return fmt.Sprintf("real %g", t.Real)
	case NameTok:
		return fmt.Sprintf("name %q", t.Bytes)
	case StringTok:
		return fmt.Sprintf("string %q", t.Bytes)
	case Keyword:
		return fmt.Sprintf("kw %s", t.Bytes)
	case ArrayOpen:
		return "["
	case ArrayClose:
		return "]"
	case DictOpen:
		return "<<"
	case DictClose:
		return ">>"
	}
	return "eof"
}

// lexAll reads every token of l, with its offset.
func lexAll(l *Lexer) (toks []string, offs []int64) {
	for range 10_000 {
		t := l.Next()
		if t.Kind == EOF {
			return toks, offs
		}
		toks, offs = append(toks, show(t)), append(offs, t.Off)
	}
	panic("the lexer does not end")
}

// lexCases are inputs with the tokens PDF 32000-2 §7.2-§7.3 makes of them.
var lexCases = []struct {
	name, in string
	want     []string
}{
	{"integers", "12 -3 +4 0 007", []string{"int 12", "int -3", "int 4", "int 0", "int 7"}},
	{"reals", "0.5 -.5 4. +.25 -0.0", []string{"real 0.5", "real -0.5", "real 4", "real 0.25", "real -0"}},
	{"reals writers get wrong", "--5 5- 1.2.3 1-2", []string{"real -5", "real 5", "real 1.2", "real 1"}},
	{"an integer too large is a real", "99999999999999999999", []string{"real 1e+20"}},
	{"not numbers", "1e3 - . +", []string{"kw 1e3", "kw -", "kw .", "kw +"}},
	{"names", "/Name /A#20B /#41#42 /a#2 /a#zz /", []string{`name "Name"`, `name "A B"`, `name "AB"`, `name "a#2"`, `name "a#zz"`, `name ""`}},
	{"names end at delimiters", "/a/b[/c]/d(e)", []string{`name "a"`, `name "b"`, "[", `name "c"`, "]", `name "d"`, `string "e"`}},
	{"literal strings", `(a\(b\)c) (nested (paren) ok) () (\\)`, []string{`string "a(b)c"`, `string "nested (paren) ok"`, `string ""`, `string "\\"`}},
	{"escapes", `(\n\r\t\b\f\q\101\12\0011\7)`, []string{`string "\n\r\t\b\fqA\n\x011\a"`}},
	{"ends of line in strings", "(line\r\nbreak\rhere\nok) (cont\\\r\nin\\\nued)", []string{`string "line\nbreak\nhere\nok"`, `string "continued"`}},
	{"an unterminated string", "(abc", []string{`string "abc"`}},
	{"hex strings", "<48 65 6c6C6F> <414> <4x1> <>", []string{`string "Hello"`, `string "A@"`, `string "A"`, `string ""`}},
	{"dictionaries and arrays", "<</A [1 2]>>", []string{"<<", `name "A"`, "[", "int 1", "int 2", "]", ">>"}},
	{"comments", "1 % a comment ) ( <\n2%x\r3", []string{"int 1", "int 2", "int 3"}},
	{"keywords", "obj endobj 1 0 R true false null stream", []string{"kw obj", "kw endobj", "int 1", "int 0", "kw R", "kw true", "kw false", "kw null", "kw stream"}},
	{"stray delimiters", ") { } >", []string{"kw )", "kw {", "kw }", ">>"}},
	{"white space of every kind", "1\x00\t\n\f\r 2", []string{"int 1", "int 2"}},
}

func TestLexer(t *testing.T) {
	for _, tc := range lexCases {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := lexAll(NewLexer([]byte(tc.in), 0))
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestStreamLexer: a stream read one byte at a time (every token, "#xx"
// included, straddles a refill) lexes exactly as the whole slice does,
// offsets included.
func TestStreamLexer(t *testing.T) {
	for _, tc := range lexCases {
		t.Run(tc.name, func(t *testing.T) {
			want, wantOff := lexAll(NewLexer([]byte(tc.in), 0))
			got, gotOff := lexAll(NewStreamLexer(iotest.OneByteReader(strings.NewReader(tc.in))))
			assert.Equal(t, want, got)
			assert.Equal(t, wantOff, gotOff)
		})
	}
}

func TestLexerOffsets(t *testing.T) {
	l := NewLexer([]byte("%PDF\n12 0 obj"), 5)
	_, offs := lexAll(l)
	assert.Equal(t, []int64{5, 8, 10}, offs)
	assert.Equal(t, int64(4), l.Tokens, "Tokens counts every call, the one at the end too")
	// An offset outside the data starts at its end.
	got, _ := lexAll(NewLexer([]byte("1 2"), 99))
	assert.Empty(t, got)
}

// TestLexerMaxString: a token longer than MaxString is cut, the rest read
// and dropped, so the next token is still right.
func TestLexerMaxString(t *testing.T) {
	in := "(abcdefgh) /abcdefgh <6162636465666768> abcdefgh 1"
	for name, l := range map[string]*Lexer{
		"slice":  NewLexer([]byte(in), 0),
		"stream": NewStreamLexer(iotest.OneByteReader(strings.NewReader(in))),
	} {
		t.Run(name, func(t *testing.T) {
			l.MaxString = 4
			got, _ := lexAll(l)
			assert.Equal(t, []string{`string "abcd"`, `name "abcd"`, `string "abcd"`, "kw abcd", "int 1"}, got)
		})
	}
	// The default bound is 1 MiB.
	big := "(" + strings.Repeat("x", 2<<20) + ")"
	tok := NewLexer([]byte(big), 0).Next()
	assert.Len(t, tok.Bytes, 1<<20)
}

func TestSkipInlineData(t *testing.T) {
	for _, tc := range []struct{ in, next string }{
		{"\x00EI\xffEIx EI Q", "kw Q"}, // "EI" inside the data is not the end
		{"abc\nEI\nQ", "kw Q"},         // the end after white space
		{"EI Q", "kw Q"},               // data that is empty
		{"no end at all", "eof"},       // runs to the end
		{"xEI EI\rET", "kw ET"},        // "xEI" is data
		{strings.Repeat("E", 100) + " EI 1", "int 1"},
	} {
		l := NewStreamLexer(iotest.OneByteReader(strings.NewReader(tc.in)))
		l.SkipInlineData()
		assert.Equal(t, tc.next, show(l.Next()), "%q", tc.in)
	}
}

// TestLexerBigStream: a content stream over the 32 KiB buffer lexes whole
// across refills, with offsets into the stream.
func TestLexerBigStream(t *testing.T) {
	var b bytes.Buffer
	for i := range 20_000 {
		fmt.Fprintf(&b, "%d /N#41me%d (s) ", i, i)
	}
	l := NewStreamLexer(&b)
	n := 0
	for {
		tok := l.Next()
		if tok.Kind == EOF {
			break
		}
		if tok.Kind == NameTok {
			require.Equal(t, fmt.Sprintf("NAme%d", n), string(tok.Bytes))
			n++
		}
	}
	assert.Equal(t, 20_000, n)
}
