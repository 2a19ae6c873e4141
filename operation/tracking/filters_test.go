package tracking_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/tracking"
)

// TestTimesWindow: since and before reach the forge on the three time
// lists; an empty window is refused before asking.
func TestTimesWindow(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/3/times", 200, []any{})
	f.JSON("GET /api/v1/repos/o/r/times", 200, []any{})
	f.JSON("GET /api/v1/user/times", 200, []any{})
	for _, tt := range []struct {
		tool string
		args map[string]any
	}{
		{"list_issue_tracked_times", map[string]any{"owner": "o", "repo": "r", "index": 3.0}},
		{"list_repo_tracked_times", map[string]any{"owner": "o", "repo": "r"}},
		{"list_my_tracked_times", map[string]any{}},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			tt.args["since"], tt.args["before"] = "2026-01-02T00:00:00Z", "2026-01-03"
			res := f.Call(t, tracking.Tools(), tt.tool, tt.args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			reqs := f.Requests()
			q := f.LastQuery(t)
			assert.Equal(t, "2026-01-02T00:00:00Z", q.Get("since"))
			assert.Equal(t, "2026-01-03T00:00:00Z", q.Get("before"))
			tt.args["since"] = "2026-01-04"
			res = f.Call(t, tracking.Tools(), tt.tool, tt.args)
			require.True(t, res.IsError)
			assert.Equal(t, "invalid arguments: since (2026-01-04) must be earlier than before (2026-01-03)", fakeforge.Text(t, res))
			assert.Len(t, f.Requests(), len(reqs))
		})
	}
}

// TestRepoTimesUnknownUser: the user filter naming nobody says so,
// instead of "repository not found".
func TestRepoTimesUnknownUser(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/times", 404, map[string]string{"message": "user does not exist [uid: 0, name: nobody]"})
	res := f.Call(t, tracking.Tools(), "list_repo_tracked_times", map[string]any{"owner": "o", "repo": "r", "user": "nobody"})
	require.True(t, res.IsError)
	assert.Equal(t, "user nobody not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}
