package star_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/star/

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/star"
)

// TestLiveStars: the second user stars a public repository, which then
// shows in their starred list, in another's view of it and among its
// stargazers, and unstars it; a missing repository is an error.
func TestLiveStars(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewPublicRepo(t)
	u2 := f.WithToken(f.Token2)
	defs := star.Tools()
	at := map[string]any{"owner": owner, "repo": repo}
	call := func(g *testforge.Forge, name string, args map[string]any) string {
		return g.CallOK(t, defs, name, args)
	}
	full := `"repo":"` + owner + "/" + repo + `"`

	assert.JSONEq(t, `{`+full+`,"starred":false}`, call(u2, "check_repo_star", at))
	assert.JSONEq(t, `{`+full+`,"starred":true}`, call(u2, "star_repo", at))
	assert.JSONEq(t, `{`+full+`,"starred":true}`, call(u2, "check_repo_star", at))
	assert.Contains(t, call(u2, "list_starred_repos", map[string]any{"limit": 50.0}), `"full_name":"`+owner+"/"+repo+`"`)
	assert.Contains(t, call(f, "list_starred_repos", map[string]any{"user": f.User2, "limit": 50.0}), `"full_name":"`+owner+"/"+repo+`"`)
	assert.Contains(t, call(f, "list_repo_stargazers", at), `"login":"`+f.User2+`"`)
	assert.JSONEq(t, `{`+full+`,"starred":false}`, call(u2, "unstar_repo", at))
	assert.JSONEq(t, `{`+full+`,"starred":false}`, call(u2, "check_repo_star", at))
	assert.NotContains(t, call(f, "list_repo_stargazers", at), f.User2)

	res := u2.Call(t, defs, "check_repo_star", map[string]any{"owner": owner, "repo": repo + "-missing"})
	require.True(t, res.IsError, "a missing repository is no silent false")
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}
