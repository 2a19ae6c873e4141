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

// TestPullToolOnAnIssue: a pull request tool given an issue's number says
// so, instead of "pull request not found".
func TestPullToolOnAnIssue(t *testing.T) {
	const want = "o/r#7 is an issue, not a pull request: use get_issue_by_index and the other issue tools for it, or list_repo_pull_requests to find pull requests"
	tests := []struct {
		tool  string
		route string
		args  map[string]any
	}{
		{"get_pull_request_by_index", "GET /api/v1/repos/o/r/pulls/7", nil},
		{"get_pull_request_diff", "GET /api/v1/repos/o/r/pulls/7.diff", nil},
		{"list_pull_request_files", "GET /api/v1/repos/o/r/pulls/7/files", nil},
		{"merge_pull_request", "POST /api/v1/repos/o/r/pulls/7/merge", nil},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON(tt.route, 404, map[string]string{"message": "GetPullRequestByIndex"})
			f.JSON("GET /api/v1/repos/o/r/issues/7", 200, map[string]any{"number": 7, "title": "an issue", "state": "open"})
			res := f.Call(t, pull.Tools(), tt.tool, map[string]any{"owner": "o", "repo": "r", "index": 7.0})
			require.True(t, res.IsError)
			assert.Equal(t, want, fakeforge.Text(t, res))
		})
	}
	t.Run("a missing number stays not found", func(t *testing.T) {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/repos/o/r/pulls/8", 404, nil)
		f.JSON("GET /api/v1/repos/o/r/issues/8", 404, nil)
		res := f.Call(t, pull.Tools(), "get_pull_request_by_index", map[string]any{"owner": "o", "repo": "r", "index": 8.0})
		require.True(t, res.IsError)
		assert.Equal(t, "pull request o/r#8 not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
	})
}

// TestMergeOptions: the merge commit's title and message and the deletion
// of the head branch reach the forge under the names it reads.
func TestMergeOptions(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("POST /api/v1/repos/o/r/pulls/4/merge", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, rawPull)
	res := f.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0,
		"title": "Merge the fix", "message": "Because.", "delete_branch": true})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, map[string]any{"Do": "merge", "MergeTitleField": "Merge the fix", "MergeMessageField": "Because.",
		"delete_branch_after_merge": true}, sent)
}
