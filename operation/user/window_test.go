package user_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/user"
)

// TestNotificationsWindow: since and before reach the forge; an empty
// window is refused before asking.
func TestNotificationsWindow(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/notifications", 200, []any{})
	f.JSON("GET /api/v1/repos/o/r/notifications", 200, []any{})
	for _, tt := range []struct {
		tool string
		args map[string]any
	}{
		{"check_notifications", map[string]any{}},
		{"list_repo_notifications", map[string]any{"owner": "o", "repo": "r"}},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			tt.args["since"], tt.args["before"] = "2026-01-02", "2026-01-03T04:05:06Z"
			res := f.Call(t, user.Tools(), tt.tool, tt.args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			reqs := f.Requests()
			q := f.LastQuery(t)
			assert.Equal(t, "2026-01-02T00:00:00Z", q.Get("since"))
			assert.Equal(t, "2026-01-03T04:05:06Z", q.Get("before"))
			tt.args["before"] = "2026-01-01"
			res = f.Call(t, user.Tools(), tt.tool, tt.args)
			require.True(t, res.IsError)
			assert.Len(t, f.Requests(), len(reqs))
		})
	}
}
