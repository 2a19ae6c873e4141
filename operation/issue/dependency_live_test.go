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

func TestLiveIssueDependencies(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	blocked := f.NewIssue(t, owner, repo, "Ship it", "")
	blocker := f.NewIssue(t, owner, repo, "Fix the build", "")
	call := f.RepoCaller(t, issue.Tools(), owner, repo)

	assert.JSONEq(t, fmt.Sprintf(`{"added":true,"issue":%d,"blocked_by":"%s/%s#%d"}`, blocked, owner, repo, blocker),
		call("add_issue_dependency", map[string]any{"index": blocked, "dependency": blocker}))
	assert.JSONEq(t, fmt.Sprintf(`{"items":[{"repo":"%s/%s","number":%d,"title":"Fix the build","state":"open","author":"%s"}],"page":1,"has_more":false}`, owner, repo, blocker, owner),
		call("list_issue_dependencies", map[string]any{"index": blocked}))
	assert.JSONEq(t, fmt.Sprintf(`{"items":[{"repo":"%s/%s","number":%d,"title":"Ship it","state":"open","author":"%s"}],"page":1,"has_more":false}`, owner, repo, blocked, owner),
		call("list_issue_dependents", map[string]any{"index": blocker}))
	assert.Contains(t, call("list_issue_dependents", map[string]any{"index": blocked}), `"items":[]`)

	call("remove_issue_dependency", map[string]any{"index": blocked, "dependency": blocker})
	assert.Contains(t, call("list_issue_dependencies", map[string]any{"index": blocked}), `"items":[]`)

	res := f.Call(t, issue.Tools(), "add_issue_dependency", map[string]any{"owner": owner, "repo": repo, "index": blocked, "dependency": 999})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("issue %s/%s#%d (dependency #999) not found (404)", owner, repo, blocked))
	call("add_issue_dependency", map[string]any{"index": blocked, "dependency": blocker})
	res = f.Call(t, issue.Tools(), "add_issue_dependency", map[string]any{"owner": owner, "repo": repo, "index": blocked, "dependency": blocker})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "already exist", "Gitea answers a repeated add with an error")
	// Another user cannot see the private repository: the error names it,
	// not the issue (issue 28, B.5).
	res = f.WithToken(f.Token2).Call(t, issue.Tools(), "list_issue_dependencies", map[string]any{"owner": owner, "repo": repo, "index": blocked})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("repository %s/%s not found (404)", owner, repo))
}
