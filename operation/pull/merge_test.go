package pull_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
)

func withMerged(merged bool) map[string]any {
	out := map[string]any{}
	for k, v := range rawPull {
		out[k] = v
	}
	out["merged"] = merged
	return out
}

func TestAutoMerge(t *testing.T) {
	for _, tc := range []struct {
		name   string
		merged bool
		want   string
	}{
		{"scheduled", false, `{"number":4,"merged":false,"scheduled":true,"note":"scheduled: the forge merges it when the checks the base branch's protection rule requires pass; get_ci_status shows them, cancel_auto_merge cancels"}`},
		{"merged at once", true, `{"number":4,"merged":true,"scheduled":false,"note":"merged at once: no protection rule of the base branch requires status checks, or all it requires had passed"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			var body map[string]any
			f.Handle("POST /api/v1/repos/o/r/pulls/4/merge", func(w http.ResponseWriter, r *http.Request) {
				require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
				w.WriteHeader(http.StatusCreated)
			})
			f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, withMerged(tc.merged))
			res := f.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0, "auto_merge": true, "style": "squash"})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, tc.want, fakeforge.Text(t, res))
			assert.Equal(t, map[string]any{"Do": "squash", "merge_when_checks_succeed": true}, body)
		})
	}
	t.Run("the rule's checks named", func(t *testing.T) {
		f := fakeforge.New(t)
		f.Handle("POST /api/v1/repos/o/r/pulls/4/merge", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusCreated) })
		f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, withMerged(false))
		f.JSON("GET /api/v1/repos/o/r/branches/main", 200, map[string]any{"name": "main", "enable_status_check": true, "status_check_contexts": []string{"ci/test", "lint"}})
		res := f.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0, "auto_merge": true})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.Contains(t, fakeforge.Text(t, res), `"scheduled":true,"note":"scheduled: the forge merges it when the required checks (ci/test, lint) pass`)
	})
	t.Run("no rule: merged within seconds", func(t *testing.T) {
		defer pull.FastAutoMergeWait()()
		f := fakeforge.New(t)
		f.Handle("POST /api/v1/repos/o/r/pulls/4/merge", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusCreated) })
		reads := 0
		f.Handle("GET /api/v1/repos/o/r/pulls/4", func(w http.ResponseWriter, _ *http.Request) {
			reads++
			fakeforge.WriteJSON(w, 200, withMerged(reads > 2))
		})
		f.JSON("GET /api/v1/repos/o/r/branches/main", 200, map[string]any{"name": "main", "enable_status_check": false})
		res := f.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0, "auto_merge": true})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.Contains(t, fakeforge.Text(t, res), `"merged":true,"scheduled":false,"note":"merged at once`)
	})
	t.Run("no rule, not merged yet", func(t *testing.T) {
		defer pull.FastAutoMergeWait()()
		f := fakeforge.New(t)
		f.Handle("POST /api/v1/repos/o/r/pulls/4/merge", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusCreated) })
		f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, withMerged(false))
		f.JSON("GET /api/v1/repos/o/r/branches/main", 200, map[string]any{"name": "main", "enable_status_check": false})
		res := f.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0, "auto_merge": true})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.Contains(t, fakeforge.Text(t, res), "no protection rule of the base branch requires status checks: Gitea merges it within seconds whatever its checks say; Forgejo 10 waits until the head commit's statuses pass")
	})
	t.Run("already scheduled", func(t *testing.T) {
		f := fakeforge.New(t)
		f.JSON("POST /api/v1/repos/o/r/pulls/4/merge", 409, map[string]any{"message": "pull request is already scheduled to auto merge"})
		res := f.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0, "auto_merge": true})
		require.True(t, res.IsError)
		assert.Equal(t, "pull request o/r#4 already has a scheduled merge: cancel_auto_merge cancels it, to schedule another", fakeforge.Text(t, res))
	})
	t.Run("a moved head is not a scheduled merge", func(t *testing.T) {
		f := fakeforge.New(t)
		f.JSON("POST /api/v1/repos/o/r/pulls/4/merge", 409, map[string]any{"message": "head out of date"})
		for _, auto := range []bool{true, false} {
			res := f.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0, "auto_merge": auto, "head_sha": "abc"})
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), "merge pull request o/r#4")
			assert.Contains(t, fakeforge.Text(t, res), "head out of date")
			assert.NotContains(t, fakeforge.Text(t, res), "scheduled merge")
		}
	})
}

func TestCancelAutoMerge(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("DELETE /api/v1/repos/o/r/pulls/4/merge", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	f.JSON("DELETE /api/v1/repos/o/r/pulls/5/merge", 404, map[string]any{"message": "not found"})
	f.JSON("GET /api/v1/repos/o/r/pulls/5", 200, rawPull)
	f.JSON("DELETE /api/v1/repos/o/r/pulls/6/merge", 404, map[string]any{"message": "not found"})
	f.JSON("GET /api/v1/repos/o/r/issues/6", 200, map[string]any{"number": 6})

	res := f.Call(t, pull.Tools(), "cancel_auto_merge", map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"number":4,"cancelled":true}`, fakeforge.Text(t, res))

	res = f.Call(t, pull.Tools(), "cancel_auto_merge", map[string]any{"owner": "o", "repo": "r", "index": 5.0})
	require.True(t, res.IsError)
	assert.Equal(t, "pull request o/r#5 has no scheduled merge to cancel", fakeforge.Text(t, res))

	res = f.Call(t, pull.Tools(), "cancel_auto_merge", map[string]any{"owner": "o", "repo": "r", "index": 6.0})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "o/r#6 is an issue, not a pull request")

	res = f.Call(t, pull.Tools(), "cancel_auto_merge", map[string]any{"owner": "o", "repo": "r", "index": 7.0})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}

func TestUpdatePullBranch(t *testing.T) {
	f := fakeforge.New(t)
	var style string
	f.Handle("POST /api/v1/repos/o/r/pulls/4/update", func(w http.ResponseWriter, r *http.Request) {
		style = r.URL.Query().Get("style")
		w.WriteHeader(http.StatusOK)
	})
	f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, rawPull)
	f.JSON("POST /api/v1/repos/o/r/pulls/5/update", 409, map[string]any{"message": "merge failed because of conflict"})
	f.JSON("POST /api/v1/repos/o/r/pulls/6/update", 422, map[string]any{"message": ""})
	f.Handle("POST /api/v1/repos/o/r/pulls/7/update", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusForbidden) })

	res := f.Call(t, pull.Tools(), "update_pull_request_branch", map[string]any{"owner": "o", "repo": "r", "index": 4.0, "style": "rebase"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Equal(t, "rebase", style)
	assert.Contains(t, fakeforge.Text(t, res), `"head_sha":"c0ffee"`)

	f.Call(t, pull.Tools(), "update_pull_request_branch", map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	assert.Equal(t, "merge", style, "merge by default")

	for index, want := range map[float64]string{
		5: "the base's changes conflict with the branch; resolve them in the branch (change_files), then update again",
		6: "pull request o/r#6 is merged or closed: its branch is not updated",
		7: "this token may not push to the head branch by merge",
	} {
		res = f.Call(t, pull.Tools(), "update_pull_request_branch", map[string]any{"owner": "o", "repo": "r", "index": index})
		require.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), want)
	}
}
