package tool_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestProgressWithoutToken: without a progress token (a call that did not
// ask, --cli) Progress does nothing and ProgressReader hands back the
// reader itself, so progress costs nothing there; a cancelled context
// still reads through (cancellation is the HTTP request's business).
func TestProgressWithoutToken(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tool.Progress(ctx, 1, 2) // no reporter: no panic, nothing sent
	r := strings.NewReader(strings.Repeat("x", 2*tool.ProgressThreshold))
	assert.Same(t, r, tool.ProgressReader(ctx, r, 2*tool.ProgressThreshold).(*strings.Reader))
	n, err := io.Copy(io.Discard, tool.ProgressReader(ctx, r, 2*tool.ProgressThreshold))
	require.NoError(t, err)
	assert.EqualValues(t, 2*tool.ProgressThreshold, n)
	small := strings.NewReader("x")
	assert.Same(t, small, tool.ProgressReader(ctx, small, 1).(*strings.Reader), "below the threshold: no reports")
}
