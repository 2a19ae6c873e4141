package pull_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLiveCommitPull finds an open PR by its head commit, a merged one by
// its merge commit, and names a commit pushed directly.
func TestLiveCommitPull(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := append(repo.Tools(), pull.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	call("create_branch", map[string]any{"branch": "two"})
	call("create_file", map[string]any{"path": "1.txt", "content": "1\n", "branch": "two"})
	call("create_file", map[string]any{"path": "2.txt", "content": "2\n", "branch": "two"})
	var pr struct {
		Number int64 `json:"number"`
		Merged bool  `json:"merged"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("create_pull_request", map[string]any{"head": "two", "base": "main", "title": "Two"})), &pr))

	var head struct {
		Commit string `json:"commit"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("create_file", map[string]any{"path": "2b.txt", "content": "2\n", "branch": "two"})), &head))
	var got struct {
		Number   int64  `json:"number"`
		Merged   bool   `json:"merged"`
		MergeSHA string `json:"merge_commit_sha"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("get_commit_pull_request", map[string]any{"sha": head.Commit})), &got))
	assert.Equal(t, pr.Number, got.Number, "an open PR by its head commit")
	assert.False(t, got.Merged)
	// The forge checks a PR's mergeability in the background; under load
	// that outlasts merge_pull_request's own retries.
	require.Eventually(t, func() bool {
		return strings.Contains(call("get_pull_request_by_index", map[string]any{"index": float64(pr.Number)}), `"mergeable":true`)
	}, 90*time.Second, time.Second)
	call("merge_pull_request", map[string]any{"index": float64(pr.Number)})
	require.NoError(t, json.Unmarshal([]byte(call("get_pull_request_by_index", map[string]any{"index": float64(pr.Number)})), &got))
	require.NotEmpty(t, got.MergeSHA)
	merge := got.MergeSHA
	got = struct {
		Number   int64  `json:"number"`
		Merged   bool   `json:"merged"`
		MergeSHA string `json:"merge_commit_sha"`
	}{}
	require.NoError(t, json.Unmarshal([]byte(call("get_commit_pull_request", map[string]any{"sha": merge})), &got))
	assert.Equal(t, pr.Number, got.Number, "a merged PR by its merge commit")
	assert.True(t, got.Merged)

	var direct struct {
		Commit string `json:"commit"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("create_file", map[string]any{"path": "3.txt", "content": "3\n"})), &direct))
	res := f.Call(t, defs, "get_commit_pull_request", map[string]any{"owner": owner, "repo": name, "sha": direct.Commit})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "or has it as its head: it was pushed directly")
}
