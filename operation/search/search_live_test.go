package search_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/search"
)

func TestLiveSearchRepos(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := search.Tools()

	res := f.Call(t, defs, "search_repos", map[string]any{"query": repo})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`{"full_name":"%s/%s","description":"test repo of %s","private":true`, owner, repo, t.Name()))

	res = f.WithToken(f.Token2).Call(t, defs, "search_repos", map[string]any{"query": repo})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"items":[]`, "another user does not find a private repository")
}

func TestLiveSearchUsers(t *testing.T) {
	f := testforge.Get(t)
	res := f.Call(t, search.Tools(), "search_users", map[string]any{"query": f.User2})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`"login":"%s"`, f.User2))
	assert.NotContains(t, fakeforge.Text(t, res), `"email"`)
}

func TestLiveSearchOrgTeams(t *testing.T) {
	f := testforge.Get(t)
	org := f.NewOrg(t)
	f.Do(t, "POST", "/orgs/"+org+"/teams", map[string]any{"name": "reviewers", "permission": "read",
		"units": []string{"repo.code"}}, nil)

	res := f.Call(t, search.Tools(), "search_org_teams", map[string]any{"org": org, "query": "review"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"name":"reviewers"`)
	assert.NotContains(t, fakeforge.Text(t, res), `"Owners"`)

	res = f.Call(t, search.Tools(), "search_org_teams", map[string]any{"org": "no-such-org-here"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation no-such-org-here not found (404)")
}
