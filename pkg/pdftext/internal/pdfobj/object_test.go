package pdfobj

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parse(in string, refs bool) (Object, error) {
	p := NewParser(NewLexer([]byte(in), 0), nil, 0)
	p.Refs = refs
	return p.Object()
}

func TestParser(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want Object
	}{
		{"a reference", "12 0 R", Ref{12, 0}},
		{"numbers that are not a reference", "[1 2 3 4 R]", Array{int64(1), int64(2), Ref{3, 4}}},
		{"two numbers then a name", "[1 2 /N]", Array{int64(1), int64(2), Name("N")}},
		{"a number then a name", "[7 /N]", Array{int64(7), Name("N")}},
		{"a reference out of range is null", "[-1 0 R 5 70000 R]", Array{nil, nil}},
		{"a dictionary", "<< /A 1 /B (s) /C [true null] /D << /E /F >> >>",
			Dict{"A": int64(1), "B": String("s"), "C": Array{true, nil}, "D": Dict{"E": Name("F")}}},
		{"null values leave a key out", "<< /A null /B 2 >>", Dict{"B": int64(2)}},
		{"a stray value where a key should be", "<< 1 /A 2 [3] /B 4 >>", Dict{"A": int64(2), "B": int64(4)}},
		{"a keyword in an array is skipped", "[1 foo 2]", Array{int64(1), int64(2)}},
		{"an array that ends with the file", "[1 2", Array{int64(1), int64(2)}},
		{"a dictionary that ends with the file", "<< /A 1", Dict{"A": int64(1)}},
		{"a dictionary closing an array", "[1 >> 2", Array{int64(1)}},
		{"a real", "-2.5", -2.5},
		{"a bare keyword", "endobj", keyword("endobj")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parse(tc.in, true)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("without Refs, R is a keyword", func(t *testing.T) {
		got, err := parse("[1 0 R]", false)
		require.NoError(t, err)
		assert.Equal(t, Array{int64(1), int64(0)}, got)
	})
}

func TestParserLimits(t *testing.T) {
	_, err := parse(strings.Repeat("[", MaxDepth+2), true)
	require.ErrorIs(t, err, ErrMalformed)
	assert.Contains(t, err.Error(), "nest more than 64 deep")

	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	_, err = parse(ok, true)
	require.NoError(t, err, "64 deep is allowed")

	_, err = parse("", true)
	require.ErrorIs(t, err, ErrMalformed)

	// The value count bounds values across objects, until a reset.
	p := NewParser(NewLexer([]byte("[1 2 3] [4 5] [6]"), 0), nil, 4)
	_, err = p.Object()
	require.NoError(t, err)
	_, err = p.Object()
	require.ErrorIs(t, err, ErrLimit)
	p.Reset()
	_, err = p.Object()
	require.NoError(t, err)
}

// TestParserCharges: values are charged to the budget by their bytes
// before they are built (a string by its length, an array by its
// elements), so a budget refuses a long string or a long array at the
// charge, with Stop; Reset gives back what was charged.
func TestParserCharges(t *testing.T) {
	b := NewBudget(1 << 20)
	p := NewParser(NewLexer([]byte("[1 2 3] ("+strings.Repeat("x", 1000)+")"), 0), b, 0)
	_, err := p.Object()
	require.NoError(t, err)
	array := b.Held()
	assert.GreaterOrEqual(t, array, int64(3*(costElement+costBoxed)), "three elements")
	_, err = p.Object()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, b.Held()-array, int64(1000), "a string by its bytes")
	p.Reset()
	assert.Zero(t, b.Held())
	assert.Equal(t, p.Spent, int64(0))

	for _, in := range []string{"(" + strings.Repeat("x", 2<<20) + ")", "[" + strings.Repeat("<<>> ", 40000) + "]", "/" + strings.Repeat("n", 1<<20)} {
		b := NewBudget(1 << 20)
		p := NewParser(NewLexer([]byte(in), 0), b, 0)
		p.Lex.MaxString = 4 << 20
		var stop Stop
		func() {
			defer func() { stop, _ = recover().(Stop) }()
			_, _ = p.Object()
		}()
		require.ErrorIs(t, stop.Err, ErrLimit, "%.20s", in)
		assert.LessOrEqual(t, b.Peak(), int64(1<<20))
	}
}

func TestParserDecrypts(t *testing.T) {
	p := NewParser(NewLexer([]byte("<< /T (abc) /A [<6465>] >>"), 0), nil, 0)
	p.decrypt = func(s []byte) []byte { return []byte(strings.ToUpper(string(s))) }
	got, err := p.Object()
	require.NoError(t, err)
	assert.Equal(t, Dict{"T": String("ABC"), "A": Array{String("DE")}}, got)
}

func TestValue(t *testing.T) {
	// Content streams: the caller reads the first token itself.
	l := NewLexer([]byte("[(a) 1] /N"), 0)
	p := NewParser(l, nil, 0)
	v, err := p.Value(l.Next())
	require.NoError(t, err)
	assert.Equal(t, Array{String("a"), int64(1)}, v)
	v, err = p.Value(l.Next())
	require.NoError(t, err)
	assert.Equal(t, Name("N"), v)
	assert.True(t, IsKeyword(keyword("Tj")))
	assert.False(t, IsKeyword(Name("Tj")))
}
