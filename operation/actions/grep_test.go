package actions

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// TestLineMatcherAgreesWithRegexp: the literal shortcut never changes what
// matches.
func TestLineMatcherAgreesWithRegexp(t *testing.T) {
	lines := []string{"", "FAIL: TestX", "--- fail", "exit status 1", "ok pkg", "panic: boom", "Error: x", "ERRORS",
		"an error here", "compiling pkg/1", "COMPILING", "naïve Error", "FAILED", "xFAILx", "fail\tx", "status exit"}
	for _, tc := range []struct {
		pattern     string
		lits, exact bool
	}{
		{"FAIL", true, true},
		{"FAIL|exit status", true, true},
		{"(?i)error", true, true},
		{"(?i)(error|panic)", true, true},
		{"^FAIL", true, false},
		{"FAIL: Test[A-Z]", true, false},
		{"ex(it|ample)", true, false},
		{"(?i)naïve", false, false},
		{"[0-9]+", false, false},
		{"a|b*", false, false},
		{"", false, false},
	} {
		m, err := newLineMatcher(tc.pattern)
		require.NoError(t, err)
		assert.Equal(t, tc.lits, m.lits != nil, "%q has literals", tc.pattern)
		assert.Equal(t, tc.exact, m.exact, "%q is exactly its literals", tc.pattern)
		re := regexp.MustCompile(tc.pattern)
		for _, l := range lines {
			assert.Equal(t, re.MatchString(l), m.Match([]byte(l)), "%q on %q", tc.pattern, l)
		}
	}
}

// TestGrepPatternSize: a pattern whose program is larger than
// maxGrepInsts is refused with words that say why and what to do.
func TestGrepPatternSize(t *testing.T) {
	_, err := newLineMatcher(`a{1000}b`)
	require.Error(t, err)
	assert.Equal(t, "grep is too large a pattern: it compiles to 1003 steps, and at most 128 are searched for "+
		"(a counted repetition such as {1000} repeats what it follows); shorten it", err.Error())
	for _, p := range []string{`FAIL|panic|timeout`, `(?i)error: .*timed? ?out`, `\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}`, `[\p{L}\p{N}_]{100}`} {
		_, err := newLineMatcher(p)
		assert.NoError(t, err, p)
	}
}

// FuzzLineMatcher: the literal shortcut never changes what a pattern
// matches, on any line; a pattern the matcher takes compiles to at most
// maxGrepInsts instructions.
func FuzzLineMatcher(f *testing.F) {
	for _, s := range [][2]string{{"FAIL", "--- FAIL: TestX"}, {"(?i)(error|panic)", "PANIC: boom"}, {"^FAIL", "xFAIL"},
		{"ex(it|ample)", "exit status 1"}, {"(?i)naïve", "NAÏVE"}, {"a|b*", ""}, {"[0-9]+", "v1.2"}, {`(?i)k`, "\u212a"}} {
		f.Add(s[0], []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, pattern string, line []byte) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			m, err := newLineMatcher(pattern)
			if err != nil {
				return
			}
			re := regexp.MustCompile(pattern)
			require.Equal(t, re.Match(line), m.Match(line), "%q on %q", pattern, line)
		})
	})
}

// BenchmarkGrepWorstLine: the costliest pattern a search takes (129 RE2
// instructions, no literal to skip lines by) on a full line
// (forgejo.MaxLineBytes) it must scan to the end: the work a search can
// do after its call's deadline, since the context is checked per line.
func BenchmarkGrepWorstLine(b *testing.B) {
	m, err := newLineMatcher(`(?:a?){42}a{41}b`)
	require.NoError(b, err)
	line := append([]byte("b"), bytes.Repeat([]byte("a"), forgejo.MaxLineBytes-1)...)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if m.Match(line) {
			b.Fatal("matched")
		}
	}
}
