package issue_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

func TestLiveIssueLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := issue.Tools()
	call := func(name string, args map[string]any) (bool, string) {
		res := f.Call(t, defs, name, args)
		return res.IsError, fakeforge.Text(t, res)
	}

	isErr, text := call("create_issue", map[string]any{"owner": owner, "repo": repo, "title": "Live issue", "body": "Body **md**"})
	require.False(t, isErr, text)
	var created struct {
		Number int64  `json:"number"`
		Title  string `json:"title"`
		Body   string `json:"body"`
		Author string `json:"author"`
		State  string `json:"state"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &created))
	assert.Equal(t, "Live issue", created.Title)
	assert.Equal(t, f.User, created.Author)
	assert.Equal(t, "open", created.State)

	isErr, text = call("get_issue_by_index", map[string]any{"owner": owner, "repo": repo, "index": float64(created.Number)})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"body":"Body **md**"`)

	// Compact against raw: the same issue as the forge sends it.
	var raw json.RawMessage
	f.Do(t, "GET", fmt.Sprintf("/repos/%s/%s/issues/%d", owner, repo, created.Number), nil, &raw)
	t.Logf("get_issue_by_index: compact %d bytes, forge JSON %d bytes, ratio %.2f", len(text), len(raw), float64(len(text))/float64(len(raw)))
	assert.Less(t, len(text)*3, len(raw), "compact result is under a third of the forge's JSON")

	isErr, text = call("list_repo_issues", map[string]any{"owner": owner, "repo": repo, "limit": 1.0})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"title":"Live issue"`)
	assert.Contains(t, text, `"has_more":false`)

	isErr, text = call("create_issue_comment", map[string]any{"owner": owner, "repo": repo, "index": float64(created.Number), "body": "A comment"})
	require.False(t, isErr, text)
	isErr, text = call("list_issue_comments", map[string]any{"owner": owner, "repo": repo, "index": float64(created.Number)})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"body":"A comment"`)
	assert.Contains(t, text, fmt.Sprintf(`"author":"%s"`, f.User))
}

func TestLiveIssuePaging(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	for i := 0; i < 3; i++ {
		f.NewIssue(t, owner, repo, fmt.Sprintf("Issue %d", i), "")
	}
	var page struct {
		Items   []struct{ Title string } `json:"items"`
		HasMore bool                     `json:"has_more"`
	}
	res := f.Call(t, issue.Tools(), "list_repo_issues", map[string]any{"owner": owner, "repo": repo, "limit": 2.0})
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
	assert.Len(t, page.Items, 2)
	assert.True(t, page.HasMore)
	res = f.Call(t, issue.Tools(), "list_repo_issues", map[string]any{"owner": owner, "repo": repo, "limit": 2.0, "page": 2.0})
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
	assert.Len(t, page.Items, 1)
	assert.False(t, page.HasMore)
}

func TestLiveIssueErrors(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	res := f.Call(t, issue.Tools(), "get_issue_by_index", map[string]any{"owner": owner, "repo": repo, "index": 999.0})
	assert.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("issue %s/%s#999 not found (404): it does not exist or this token cannot see it", owner, repo), fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "list_repo_issues", map[string]any{"owner": owner, "repo": "no-such-repo"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("repository %s/no-such-repo not found (404)", owner))

	readOnly := f.WithToken(f.TokenWithScopes(t, "read:issue", "read:repository"))
	res = readOnly.Call(t, issue.Tools(), "create_issue", map[string]any{"owner": owner, "repo": repo, "title": "nope"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("create an issue in repository %s/%s: permission denied (403)", owner, repo))
	assert.Contains(t, fakeforge.Text(t, res), "write:issue")

	bad := f.WithToken("0000000000000000000000000000000000000000")
	res = bad.Call(t, issue.Tools(), "get_issue_by_index", map[string]any{"owner": owner, "repo": repo, "index": 1.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "the forge rejected the token (401 Unauthorized)")
}
