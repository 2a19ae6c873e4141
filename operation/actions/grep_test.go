package actions

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
