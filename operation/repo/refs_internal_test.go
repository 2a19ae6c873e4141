package repo

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestIsHexSHA: 4 to 64 hex digits, either case, name a commit directly.
func TestIsHexSHA(t *testing.T) {
	for ref, want := range map[string]bool{
		"abcd": true, "ABCDEF0123": true, strings.Repeat("a", 40): true, strings.Repeat("f", 64): true,
		"abc": false, strings.Repeat("a", 65): false, "main": false, "v1.0": false, "abcg": false, "": false,
	} {
		assert.Equal(t, want, isHexSHA(ref), ref)
	}
}
