package repo_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

var rawBranch = map[string]any{"name": "main", "protected": true, "user_can_push": true, "effective_branch_protection_name": "main",
	"commit": map[string]any{"id": "c0ffee", "message": "Fix the crash\n\nLong explanation.", "url": "http://x/c",
		"author": map[string]any{"name": "A", "email": "a@x", "username": "alice"}, "timestamp": "2026-01-02T03:04:05Z"}}

func TestListAndCreateBranches(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/branches", 200, []any{rawBranch})
	f.JSON("POST /api/v1/repos/o/r/branches", 201, map[string]any{"name": "feat", "commit": rawBranch["commit"]})
	res := f.Call(t, repo.Tools(), "list_branches", map[string]any{"owner": "o", "repo": "r", "limit": 5.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"name":"main","commit":"c0ffee","message":"Fix the crash","protected":true}],"page":1,"has_more":false}`, fakeforge.Text(t, res))
	assert.Contains(t, f.Requests()[0].RawQuery, "limit=5")

	res = f.Call(t, repo.Tools(), "create_branch", map[string]any{"owner": "o", "repo": "r", "branch": "feat", "from": "main"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"name":"feat","commit":"c0ffee","message":"Fix the crash"}`, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"new_branch_name":"feat","old_branch_name":"main"}`, string(f.Requests()[1].Body))

	f2 := fakeforge.New(t)
	f2.JSON("POST /api/v1/repos/o/r/branches", 409, map[string]string{"message": "The branch already exists."})
	res = f2.Call(t, repo.Tools(), "create_branch", map[string]any{"owner": "o", "repo": "r", "branch": "main"})
	assert.True(t, res.IsError)
	assert.Equal(t, "create branch main in o/r: conflict (409), it may already exist: The branch already exists.", fakeforge.Text(t, res))
}

func TestListRepoCommits(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/commits", 200, []any{map[string]any{
		"sha": "c0ffee", "url": "http://x/api/c", "html_url": "http://x/c", "created": "2026-01-02T03:04:05Z",
		"commit":  map[string]any{"message": "Add docs\n\nbody", "author": map[string]any{"name": "Alice A", "email": "a@x", "date": "2026-01-01T10:00:00Z"}},
		"author":  map[string]any{"login": "alice", "avatar_url": "http://x/a"},
		"parents": []any{map[string]any{"sha": "beef", "url": "http://x"}},
	}})
	res := f.Call(t, repo.Tools(), "list_repo_commits", map[string]any{"owner": "o", "repo": "r", "sha": "dev", "path": "docs"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var page struct {
		Items []map[string]any `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
	assert.Equal(t, []map[string]any{{"sha": "c0ffee", "message": "Add docs", "author": "alice", "date": "2026-01-01T10:00:00Z"}}, page.Items)
	q := f.Requests()[0].RawQuery
	for _, want := range []string{"sha=dev", "path=docs", "stat=false", "files=false"} {
		assert.Contains(t, q, want)
	}

	res = f.Call(t, repo.Tools(), "list_repo_commits", map[string]any{"owner": "o", "repo": "gone"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "repository o/gone not found (404)")
}
