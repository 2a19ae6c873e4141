package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

// TestReadmeIntroCountsTheTools keeps the README's first paragraph, the
// one line a stranger reads first and `make docs` does not write, in step
// with the inventory: it said 165 tools for two rounds after there were
// 181.
func TestReadmeIntroCountsTheTools(t *testing.T) {
	b, err := os.ReadFile("README.md")
	require.NoError(t, err)
	intro := string(b[:min(len(b), 600)])
	assert.Contains(t, intro, fmt.Sprintf("(%d tools)", len(operation.All())))
}
