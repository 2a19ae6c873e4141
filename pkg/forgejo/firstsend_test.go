package forgejo_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// OnFirstSend's function runs once, when a request really leaves: not for
// a route the guard refuses, and not for the work it started itself.
func TestOnFirstSend(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r", http.StatusOK, map[string]any{"name": "r"})
	c := f.Client()
	calls := 0
	ctx := forgejo.OnFirstSend(context.Background(), func() { calls++ })

	_, _, err := c.SDK(ctx).GetRepoBranch("o", "r", "../../victim")
	require.Error(t, err)
	assert.Zero(t, calls, "a refused route sends nothing, so it is no first send")
	assert.Empty(t, f.Requests())

	_, _, err = c.SDK(forgejo.WithoutFirstSend(ctx)).GetRepo("o", "r")
	require.NoError(t, err)
	assert.Zero(t, calls, "requests under WithoutFirstSend do not count")

	for range 3 {
		_, _, err = c.SDK(ctx).GetRepo("o", "r")
		require.NoError(t, err)
	}
	assert.Equal(t, 1, calls, "the first send only")
}
