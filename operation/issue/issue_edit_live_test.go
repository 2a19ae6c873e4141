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

func TestLiveUpdateIssueAndState(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	n := f.NewIssue(t, owner, repo, "Old title", "Old body")
	defs := issue.Tools()
	args := func(extra map[string]any) map[string]any {
		m := map[string]any{"owner": owner, "repo": repo, "index": float64(n)}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}

	res := f.Call(t, defs, "update_issue", args(map[string]any{"title": "New title", "assignees": []any{f.User}}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"title":"New title"`)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`"assignees":["%s"]`, f.User))

	res = f.Call(t, defs, "get_issue_by_index", args(nil))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"body":"Old body"`, "a field not given is left alone")

	res = f.Call(t, defs, "issue_state_change", args(map[string]any{"state": "closed"}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"state":"closed"`)
	assert.Contains(t, fakeforge.Text(t, res), `"closed_at":`)

	res = f.Call(t, defs, "update_issue", args(map[string]any{"state": "open", "assignees": []any{}}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"state":"open"`)
	assert.Contains(t, fakeforge.Text(t, res), `"assignees":[]`, "an empty list removes the assignees")

	res = f.Call(t, defs, "issue_state_change", map[string]any{"owner": owner, "repo": repo, "index": 999.0, "state": "closed"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("issue %s/%s#999 not found (404)", owner, repo))
}

func TestLiveIssueCommentEditDelete(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	n := f.NewIssue(t, owner, repo, "Commented", "")
	id := f.NewComment(t, owner, repo, n, "First words")
	defs := issue.Tools()
	args := map[string]any{"owner": owner, "repo": repo, "comment_id": float64(id)}

	res := f.Call(t, defs, "get_issue_comment", args)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"body":"First words"`)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf(`"id":%d`, id))

	res = f.Call(t, defs, "edit_issue_comment", map[string]any{"owner": owner, "repo": repo, "comment_id": float64(id), "body": "Second words"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"body":"Second words"`)

	res = f.Call(t, defs, "delete_issue_comment", args)
	require.False(t, res.IsError, fakeforge.Text(t, res))

	res = f.Call(t, defs, "get_issue_comment", args)
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("comment %d in %s/%s not found (404)", id, owner, repo))

	readOnly := f.WithToken(f.TokenWithScopes(t, "read:issue", "read:repository"))
	id2 := f.NewComment(t, owner, repo, n, "Keep me")
	res = readOnly.Call(t, defs, "delete_issue_comment", map[string]any{"owner": owner, "repo": repo, "comment_id": float64(id2)})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "permission denied (403)")
}
