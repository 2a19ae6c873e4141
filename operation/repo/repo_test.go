package repo_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

var rawRepo = map[string]any{
	"id": 9, "name": "demo", "full_name": "alice/demo", "description": "A demo", "private": true,
	"owner": map[string]any{"login": "alice", "avatar_url": "http://x/a"}, "default_branch": "main",
	"open_issues_count": 2, "open_pr_counter": 1, "stars_count": 3, "html_url": "http://x/alice/demo",
	"clone_url": "http://x/alice/demo.git", "updated_at": "2026-01-02T03:04:05Z",
	"permissions": map[string]any{"admin": true, "push": true, "pull": true},
}

func TestListMyRepos(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user/repos", 200, []any{rawRepo})
	res := f.Call(t, repo.Tools(), "list_my_repos", map[string]any{"limit": 1.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"full_name":"alice/demo","description":"A demo","private":true,"default_branch":"main",
		"open_issues":2,"open_pulls":1,"stars":3,"updated_at":"2026-01-02T03:04:05Z","html_url":"http://x/alice/demo"}],
		"page":1,"has_more":true}`, fakeforge.Text(t, res), "a full page without a Link header may have more")
	assert.Contains(t, f.Requests()[0].RawQuery, "limit=1")
}

func TestCreateRepo(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/user/repos", 201, rawRepo)
	res := f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "demo", "private": true, "auto_init": true})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, "demo", sent["name"])
	assert.Equal(t, true, sent["private"])
	assert.Equal(t, true, sent["auto_init"])
}

func TestCreateRepoConflict(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/user/repos", 409, map[string]string{"message": "The repository with the same name already exists."})
	res := f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "demo"})
	assert.True(t, res.IsError)
	assert.Equal(t, `create repository "demo": conflict (409), it may already exist: The repository with the same name already exists.`, fakeforge.Text(t, res))
}

func TestCreateRepoRejectsBadName(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "../etc"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `argument "name" must contain letters, digits`)
	assert.Empty(t, f.Requests(), "bad input never reaches the forge")
}
