package tracking_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/tracking"
)

var rawTime = map[string]any{"id": 9, "created": "2026-01-02T03:04:05Z", "time": 5400, "user_id": 1, "user_name": "alice",
	"issue_id": 30, "issue": map[string]any{"number": 3, "title": "T", "repository": map[string]any{"full_name": "o/r"}}}

const compactTime = `{"id":9,"seconds":5400,"user":"alice","repo":"o/r","issue":3,"created_at":"2026-01-02T03:04:05Z"}`

func TestAddIssueTime(t *testing.T) {
	f := fakeforge.New(t)
	var sent string
	f.Handle("POST /api/v1/repos/o/r/issues/3/times", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sent = string(b)
		fakeforge.WriteJSON(w, 200, rawTime)
	})
	res := f.Call(t, tracking.Tools(), "add_issue_time", map[string]any{"owner": "o", "repo": "r", "index": 3, "seconds": 5400})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, compactTime, fakeforge.Text(t, res))
	assert.Contains(t, sent, `"time":5400`)

	res = f.Call(t, tracking.Tools(), "add_issue_time", map[string]any{"owner": "o", "repo": "r", "index": 4, "seconds": 60})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "issue o/r#4 not found (404)")
}

func TestListTrackedTimes(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/3/times", 200, []any{rawTime})
	f.JSON("GET /api/v1/repos/o/r/times", 200, []any{rawTime})
	f.JSON("GET /api/v1/user/times", 200, []any{rawTime})
	want := `{"items":[` + compactTime + `],"page":1,"has_more":false}`

	res := f.Call(t, tracking.Tools(), "list_issue_tracked_times", map[string]any{"owner": "o", "repo": "r", "index": 3})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, want, fakeforge.Text(t, res))

	res = f.Call(t, tracking.Tools(), "list_repo_tracked_times", map[string]any{"owner": "o", "repo": "r", "user": "alice"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, want, fakeforge.Text(t, res))
	assert.Equal(t, "limit=20&page=1&user=alice", f.Requests()[1].RawQuery)

	res = f.Call(t, tracking.Tools(), "list_my_tracked_times", map[string]any{"limit": 5, "page": 2})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[`+compactTime+`],"page":2,"has_more":false}`, fakeforge.Text(t, res))
	assert.Equal(t, "limit=5&page=2", f.Requests()[2].RawQuery)

	res = f.Call(t, tracking.Tools(), "list_repo_tracked_times", map[string]any{"owner": "o", "repo": "gone"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "repository o/gone not found (404)")
}

func TestDeleteAndResetTime(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("DELETE /api/v1/repos/o/r/issues/3/times/9", 204, nil)
	f.JSON("DELETE /api/v1/repos/o/r/issues/3/times", 204, nil)
	res := f.Call(t, tracking.Tools(), "delete_issue_time_entry", map[string]any{"owner": "o", "repo": "r", "index": 3, "entry_id": 9})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"entry_id":9}`, fakeforge.Text(t, res))
	res = f.Call(t, tracking.Tools(), "reset_issue_time", map[string]any{"owner": "o", "repo": "r", "index": 3})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"reset":true,"issue":3}`, fakeforge.Text(t, res))

	res = f.Call(t, tracking.Tools(), "delete_issue_time_entry", map[string]any{"owner": "o", "repo": "r", "index": 3, "entry_id": 8})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "time entry 8 of issue o/r#3 not found (404)")
}

// TestResetIssueTimeSaysWhichIsMissing: the forge answers 404 for an
// issue without time of the user's as for a missing issue (bodies as Gitea
// 1.26 sends them); the error tells them apart.
func TestResetIssueTimeSaysWhichIsMissing(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("DELETE /api/v1/repos/o/r/issues/3/times", 404, map[string]any{"message": "tracked_time does not exist"})
	f.JSON("GET /api/v1/repos/o/r/issues/3", 200, map[string]any{"number": 3, "title": "T"})
	f.JSON("DELETE /api/v1/repos/o/r/issues/9/times", 404, map[string]any{"message": "not found",
		"errors": []string{"issue does not exist [id: 0, repo_id: 1, index: 9]"}})
	f.JSON("GET /api/v1/repos/o/r/issues/9", 404, map[string]any{"message": "not found"})
	tests := []struct {
		index     int
		want, not string
	}{
		{3, "nothing to reset: you have no time recorded on issue o/r#3", "not found"},
		{9, "issue o/r#9 not found (404)", "nothing to reset"},
	}
	for _, tt := range tests {
		res := f.Call(t, tracking.Tools(), "reset_issue_time", map[string]any{"owner": "o", "repo": "r", "index": tt.index})
		require.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), tt.want)
		assert.NotContains(t, fakeforge.Text(t, res), tt.not)
	}
}

func TestStopwatches(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/issues/3/stopwatch/start", 201, nil)
	f.JSON("POST /api/v1/repos/o/r/issues/3/stopwatch/stop", 201, nil)
	f.JSON("DELETE /api/v1/repos/o/r/issues/3/stopwatch/delete", 204, nil)
	f.JSON("POST /api/v1/repos/o/r/issues/4/stopwatch/stop", 409, map[string]any{"message": "cannot stop a non existent stopwatch"})
	f.JSON("GET /api/v1/user/stopwatches", 200, []any{map[string]any{"created": "2026-01-02T03:04:05Z", "seconds": 42,
		"duration": "42s", "issue_index": 3, "issue_title": "T", "repo_owner_name": "o", "repo_name": "r"}})
	for name, state := range map[string]string{"start_issue_stopwatch": "started", "stop_issue_stopwatch": "stopped", "cancel_issue_stopwatch": "cancelled"} {
		res := f.Call(t, tracking.Tools(), name, map[string]any{"owner": "o", "repo": "r", "index": 3})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.JSONEq(t, `{"stopwatch":"`+state+`","issue":3}`, fakeforge.Text(t, res))
	}
	res := f.Call(t, tracking.Tools(), "list_my_stopwatches", map[string]any{})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"repo":"o/r","issue":3,"issue_title":"T","seconds":42,"started_at":"2026-01-02T03:04:05Z"}],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, tracking.Tools(), "stop_issue_stopwatch", map[string]any{"owner": "o", "repo": "r", "index": 4})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "stop the stopwatch on issue o/r#4")
	assert.Contains(t, fakeforge.Text(t, res), "409")
}
