package issue_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

func TestLiveListRepoMilestones(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	base := fmt.Sprintf("/repos/%s/%s/milestones", owner, repo)
	var open, done struct{ ID int64 }
	f.Do(t, "POST", base, map[string]any{"title": "v1", "description": "First", "due_on": "2030-01-02T00:00:00Z"}, &open)
	f.Do(t, "POST", base, map[string]any{"title": "v0"}, &done)
	f.Do(t, "PATCH", fmt.Sprintf("%s/%d", base, done.ID), map[string]any{"state": "closed"}, nil)
	f.Do(t, "POST", fmt.Sprintf("/repos/%s/%s/issues", owner, repo), map[string]any{"title": "In v1", "milestone": open.ID}, nil)
	defs := issue.Tools()

	res := f.Call(t, defs, "list_repo_milestones", map[string]any{"owner": owner, "repo": repo})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`{"id":%d,"title":"v1","description":"First","state":"open","open_issues":1,"closed_issues":0,"due_on":"2030-01-02T`, open.ID))
	assert.NotContains(t, fakeforge.Text(t, res), `"v0"`, "open by default")

	res = f.Call(t, defs, "list_repo_milestones", map[string]any{"owner": owner, "repo": repo, "state": "closed"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"title":"v0","state":"closed"`)
	assert.Contains(t, fakeforge.Text(t, res), `"closed_at":`)

	res = f.WithToken(f.Token2).Call(t, defs, "list_repo_milestones", map[string]any{"owner": owner, "repo": repo})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("repository %s/%s not found (404)", owner, repo))
}

func TestLiveSearchIssues(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	word := "zebra" + repo[len(repo)-8:]
	n := f.NewIssue(t, owner, repo, "Find the "+word, "")
	f.NewIssue(t, owner, repo, "Something else", "")
	defs := issue.Tools()

	res := f.Call(t, defs, "search_issues", map[string]any{"query": word})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`{"repo":"%s/%s","number":%d,"title":"Find the %s"`, owner, repo, n, word))
	assert.NotContains(t, fakeforge.Text(t, res), "Something else")

	res = f.Call(t, defs, "search_issues", map[string]any{"query": word, "state": "closed"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"items":[]`)

	res = f.WithToken(f.Token2).Call(t, defs, "search_issues", map[string]any{"query": word})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"items":[]`, "another user does not see a private repository's issues")
}
