package actions

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// A log search runs the pattern on every line of a log of megabytes. Most
// patterns an agent greps for are words ("error", "FAIL|panic"), and a line
// without one of them cannot match: a literal search (assembly in the
// standard library) skips those lines before the regular expression runs,
// and a pattern that is nothing but the words needs no regular expression.

// maxGrepInsts bounds a pattern's compiled size. RE2 runs in time linear
// in the line but proportional to the program too: `a{1000}b` (1,003
// instructions) took 0.4 to 3 s on one 64 KiB line of a's, and a log is
// searched a line at a time with the call's context checked between
// lines, so one line's match is the work a search can do past its
// deadline. At 128 instructions a full line (forgejo.MaxLineBytes) took
// at most 72 ms of CPU (BenchmarkGrepWorstLine); real patterns ("FAIL|
// panic", "(?i)error: .*timeout", a date) compile to a few dozen.
const maxGrepInsts = 128

// lineMatcher says whether a line matches a pattern.
type lineMatcher struct {
	re *regexp.Regexp
	// lits holds the words one of which any matching line contains (lower
	// case when fold); nil when the pattern has no such words.
	lits [][]byte
	fold bool
	// exact: containing one of lits is matching.
	exact bool
	buf   []byte
}

// newLineMatcher compiles pattern, or says, in words for the agent, why
// it is not one.
func newLineMatcher(pattern string) (*lineMatcher, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("grep is not a regular expression (RE2 syntax): %v", err)
	}
	p, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil { // unreachable: regexp.Compile parsed it so
		return nil, fmt.Errorf("grep is not a regular expression (RE2 syntax): %v", err)
	}
	p = p.Simplify()
	if prog, err := syntax.Compile(p); err != nil || len(prog.Inst) > maxGrepInsts {
		n := 0
		if err == nil {
			n = len(prog.Inst)
		}
		return nil, fmt.Errorf("grep is too large a pattern: it compiles to %d steps, and at most %d are searched for "+
			"(a counted repetition such as {1000} repeats what it follows); shorten it", n, maxGrepInsts)
	}
	m := &lineMatcher{re: re}
	if lits, fold, exact, ok := literals(p); ok {
		m.lits, m.fold, m.exact = lits, fold, exact
		if fold {
			for i, l := range m.lits {
				m.lits[i] = bytes.ToLower(l)
			}
		}
	}
	return m, nil
}

// Match reports whether line matches.
func (m *lineMatcher) Match(line []byte) bool {
	if m.lits == nil {
		return m.re.Match(line)
	}
	hay := line
	if m.fold {
		m.buf = append(m.buf[:0], line...)
		for i, c := range m.buf {
			if 'A' <= c && c <= 'Z' {
				m.buf[i] = c + 'a' - 'A'
			}
		}
		hay = m.buf
	}
	for _, l := range m.lits {
		if bytes.Contains(hay, l) {
			return m.exact || m.re.Match(line)
		}
	}
	return false
}

// literals finds words one of which every match of re contains: a literal,
// any literal of an alternation of them, or the longest such set in a
// concatenation. exact says a line containing one of them matches; fold
// that they match ignoring (ASCII) case. ok is false when re has none.
func literals(re *syntax.Regexp) (lits [][]byte, fold, exact, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		fold = re.Flags&syntax.FoldCase != 0
		s := string(re.Rune)
		if fold && !foldsInASCII(s) {
			return nil, false, false, false
		}
		return [][]byte{[]byte(s)}, fold, true, len(s) > 0
	case syntax.OpCapture:
		return literals(re.Sub[0])
	case syntax.OpAlternate:
		exact = true
		for i, sub := range re.Sub {
			l, f, e, ok := literals(sub)
			if !ok || i > 0 && f != fold {
				return nil, false, false, false
			}
			lits, fold, exact = append(lits, l...), f, exact && e
		}
		return lits, fold, exact, true
	case syntax.OpConcat:
		best := -1
		for _, sub := range re.Sub {
			l, f, _, ok := literals(sub)
			if ok && len(l) == 1 && (best < 0 || len(l[0]) > len(lits[0])) {
				lits, fold, best = l, f, len(l[0])
			}
		}
		return lits, fold, false, best > 0
	}
	return nil, false, false, false
}

// foldsInASCII says whether every letter that s matches ignoring case is
// ASCII, so a byte search with ASCII lower-casing finds all of them: not
// for non-ASCII s, nor for k and s, which (?i) also matches as the Kelvin
// sign U+212A and the long s U+017F (found by FuzzLineMatcher).
func foldsInASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; s[i] >= utf8.RuneSelf || c == 'k' || c == 's' {
			return false
		}
	}
	return true
}
