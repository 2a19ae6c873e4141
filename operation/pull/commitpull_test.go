package pull_test

import (
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
)

func TestCommitPull(t *testing.T) {
	f := fakeforge.New(t)
	merged := map[string]any{}
	for k, v := range rawPull {
		merged[k] = v
	}
	merged["merged"], merged["state"], merged["merge_commit_sha"] = true, "closed", "abc1234"
	f.JSON("GET /api/v1/repos/o/r/commits/c0ffee1/pull", 200, merged)
	f.JSON("GET /api/v1/repos/o/r/commits/deadbee/pull", 404, map[string]any{"message": "pull request does not exist"})
	f.JSON("GET /api/v1/repos/o/r/commits/c0ffee0/pull", 404, map[string]any{"message": "pull request does not exist"})
	open := maps.Clone(rawPull)
	open["head"] = map[string]any{"label": "fix", "ref": "fix", "sha": "c0ffee0", "repo_id": 9, "repo": rawRepo}
	f.JSON("GET /api/v1/repos/o/r/pulls", 200, []any{open})

	res := f.Call(t, pull.Tools(), "get_commit_pull_request", map[string]any{"owner": "o", "repo": "r", "sha": "c0ffee1"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"number":4`)
	assert.Contains(t, fakeforge.Text(t, res), `"merged":true`)

	res = f.Call(t, pull.Tools(), "get_commit_pull_request", map[string]any{"owner": "o", "repo": "r", "sha": "deadbee"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "no pull request merged as commit deadbee or has it as its head: it was pushed directly")

	// An open PR's head commit: the route knows only merged ones.
	res = f.Call(t, pull.Tools(), "get_commit_pull_request", map[string]any{"owner": "o", "repo": "r", "sha": "c0ffee0"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"head_sha":"c0ffee0"`)

	n := len(f.Requests())
	res = f.Call(t, pull.Tools(), "get_commit_pull_request", map[string]any{"owner": "o", "repo": "r", "sha": "main"})
	require.True(t, res.IsError, "a branch name is not a SHA")
	assert.Len(t, f.Requests(), n)
}
