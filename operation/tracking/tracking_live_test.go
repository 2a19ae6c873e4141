package tracking_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/tracking"
)

func TestLiveTrackedTimes(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	n := f.NewIssue(t, owner, repo, "Timed", "")
	defs := tracking.Tools()
	call := func(name string, args map[string]any) string {
		t.Helper()
		full := map[string]any{"owner": owner, "repo": repo, "index": n}
		for k, v := range args {
			full[k] = v
		}
		res := f.Call(t, defs, name, full)
		require.False(t, res.IsError, "%s: %s", name, fakeforge.Text(t, res))
		return fakeforge.Text(t, res)
	}

	var added struct{ ID int64 }
	out := call("add_issue_time", map[string]any{"seconds": 5400})
	assert.Contains(t, out, `"seconds":5400`)
	call("add_issue_time", map[string]any{"seconds": 60})
	require.NoError(t, jsonUnmarshal(out, &added))

	out = call("list_issue_tracked_times", nil)
	assert.Contains(t, out, fmt.Sprintf(`{"id":%d,"seconds":5400,"user":"%s"`, added.ID, f.User))
	assert.Contains(t, out, `"seconds":60`)
	res := f.Call(t, defs, "list_repo_tracked_times", map[string]any{"owner": owner, "repo": repo, "user": f.User})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`"seconds":5400,"user":"%s","repo":"%s/%s","issue":%d`, f.User, owner, repo, n))
	res = f.Call(t, defs, "list_my_tracked_times", map[string]any{"limit": 50})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`{"id":%d,"seconds":5400`, added.ID))

	call("delete_issue_time_entry", map[string]any{"entry_id": added.ID})
	out = call("list_issue_tracked_times", nil)
	assert.NotContains(t, out, `"seconds":5400`)
	assert.Contains(t, out, `"seconds":60`)
	call("reset_issue_time", nil)
	assert.Contains(t, call("list_issue_tracked_times", nil), `"items":[]`)
	res = f.Call(t, defs, "reset_issue_time", map[string]any{"owner": owner, "repo": repo, "index": n})
	require.True(t, res.IsError, "a second reset finds no time")
	assert.Equal(t, fmt.Sprintf("nothing to reset: you have no time recorded on issue %s/%s#%d (list_issue_tracked_times shows whose time is)", owner, repo, n), fakeforge.Text(t, res))
	res = f.Call(t, defs, "reset_issue_time", map[string]any{"owner": owner, "repo": repo, "index": n + 100})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("issue %s/%s#%d not found (404)", owner, repo, n+100))

	// Another user cannot see the private repository: the error names it
	// (issue 28, B.5).
	res = f.WithToken(f.Token2).Call(t, defs, "add_issue_time", map[string]any{"owner": owner, "repo": repo, "index": n, "seconds": 60})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("repository %s/%s not found (404)", owner, repo))
}

func TestLiveStopwatch(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	n := f.NewIssue(t, owner, repo, "Watched", "")
	defs := tracking.Tools()
	args := map[string]any{"owner": owner, "repo": repo, "index": n}
	call := func(name string, args map[string]any) string {
		t.Helper()
		res := f.Call(t, defs, name, args)
		require.False(t, res.IsError, "%s: %s", name, fakeforge.Text(t, res))
		return fakeforge.Text(t, res)
	}

	call("start_issue_stopwatch", args)
	assert.Contains(t, call("list_my_stopwatches", map[string]any{}), fmt.Sprintf(`{"repo":"%s/%s","issue":%d,"issue_title":"Watched"`, owner, repo, n))
	call("cancel_issue_stopwatch", args)
	assert.NotContains(t, call("list_my_stopwatches", map[string]any{}), fmt.Sprintf(`"%s/%s"`, owner, repo))

	call("start_issue_stopwatch", args)
	assert.JSONEq(t, fmt.Sprintf(`{"stopwatch":"stopped","issue":%d}`, n), call("stop_issue_stopwatch", args))
	assert.Contains(t, call("list_issue_tracked_times", args), `"seconds":`, "stopping records an entry")

	res := f.Call(t, defs, "stop_issue_stopwatch", args)
	assert.True(t, res.IsError, "no stopwatch is running")
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("stop the stopwatch on issue %s/%s#%d", owner, repo, n))
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// TestLiveTimesFilters: the since/before window and an unknown user
// filter, against the live forge.
func TestLiveTimesFilters(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	n := f.NewIssue(t, owner, repo, "Timed", "")
	defs := tracking.Tools()
	base := map[string]any{"owner": owner, "repo": repo, "index": n}
	res := f.Call(t, defs, "add_issue_time", map[string]any{"owner": owner, "repo": repo, "index": n, "seconds": 77})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	list := func(tool string, args map[string]any) string {
		t.Helper()
		full := map[string]any{}
		for k, v := range base {
			full[k] = v
		}
		for k, v := range args {
			full[k] = v
		}
		if tool == "list_repo_tracked_times" {
			delete(full, "index")
		}
		res := f.Call(t, defs, tool, full)
		require.False(t, res.IsError, "%s: %s", tool, fakeforge.Text(t, res))
		return fakeforge.Text(t, res)
	}
	for _, tool := range []string{"list_issue_tracked_times", "list_repo_tracked_times"} {
		assert.Contains(t, list(tool, map[string]any{"since": "2000-01-01"}), `"seconds":77`, tool)
		assert.NotContains(t, list(tool, map[string]any{"since": "2999-01-01"}), `"seconds":77`, tool)
		assert.NotContains(t, list(tool, map[string]any{"before": "2000-01-01"}), `"seconds":77`, tool)
	}
	res = f.Call(t, defs, "list_my_tracked_times", map[string]any{"since": "2999-01-01"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, defs, "list_repo_tracked_times", map[string]any{"owner": owner, "repo": repo, "user": "nosuchuser"})
	require.True(t, res.IsError)
	assert.Equal(t, "user nosuchuser not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
	res = f.Call(t, defs, "list_my_stopwatches", map[string]any{})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, fakeforge.Text(t, res))
}
