package star_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/star"
)

func TestStars(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PUT /api/v1/user/starred/o/r", 204, nil)
	f.JSON("DELETE /api/v1/user/starred/o/r", 204, nil)
	f.JSON("GET /api/v1/user/starred/o/r", 204, nil)
	f.JSON("GET /api/v1/user/starred/o/plain", 404, nil)
	f.JSON("GET /api/v1/repos/o/plain", 200, map[string]any{"full_name": "o/plain"})
	f.JSON("GET /api/v1/user/starred/o/gone", 404, nil)
	f.JSON("GET /api/v1/repos/o/gone", 404, map[string]any{"message": "not found"})
	repo := map[string]any{"full_name": "o/r", "default_branch": "main", "stars_count": 2, "html_url": "http://forge/o/r", "updated_at": "2026-01-02T03:04:05Z"}
	f.JSON("GET /api/v1/user/starred", 200, []any{repo})
	f.JSON("GET /api/v1/users/ann/starred", 200, []any{repo, repo})
	f.JSON("GET /api/v1/repos/o/r/stargazers", 200, []any{map[string]any{"login": "ann"}})
	const listed = `{"full_name":"o/r","private":false,"default_branch":"main","open_issues":0,"open_pulls":0,"stars":2,
		"updated_at":"2026-01-02T03:04:05Z","html_url":"http://forge/o/r"}`

	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"star_repo", map[string]any{"owner": "o", "repo": "r"}, `{"repo":"o/r","starred":true}`},
		{"unstar_repo", map[string]any{"owner": "o", "repo": "r"}, `{"repo":"o/r","starred":false}`},
		{"check_repo_star", map[string]any{"owner": "o", "repo": "r"}, `{"repo":"o/r","starred":true}`},
		{"check_repo_star", map[string]any{"owner": "o", "repo": "plain"}, `{"repo":"o/plain","starred":false}`},
		{"list_starred_repos", map[string]any{}, `{"items":[` + listed + `],"page":1,"has_more":false}`},
		{"list_starred_repos", map[string]any{"user": "ann", "limit": 2.0}, `{"items":[` + listed + `,` + listed + `],"page":1,"has_more":true}`},
		{"list_repo_stargazers", map[string]any{"owner": "o", "repo": "r"}, `{"items":[{"login":"ann"}],"page":1,"has_more":false}`},
	} {
		res := f.Call(t, star.Tools(), c.tool, c.args)
		require.False(t, res.IsError, "%s: %s", c.tool, fakeforge.Text(t, res))
		assert.JSONEq(t, c.want, fakeforge.Text(t, res), c.tool)
	}
	res := f.Call(t, star.Tools(), "check_repo_star", map[string]any{"owner": "o", "repo": "gone"})
	assert.True(t, res.IsError, "a missing repository is no silent false")
	assert.Contains(t, fakeforge.Text(t, res), "repository o/gone not found (404)")
	res = f.Call(t, star.Tools(), "list_starred_repos", map[string]any{"user": "a/b"})
	assert.True(t, res.IsError)
}
