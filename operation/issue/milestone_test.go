package issue_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

func TestListRepoMilestones(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/milestones", 200, []any{map[string]any{
		"id": 7, "title": "v1", "description": "First", "state": "closed", "open_issues": 1, "closed_issues": 4,
		"created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-02T00:00:00Z",
		"closed_at": "2026-01-03T00:00:00Z", "due_on": "2026-02-01T00:00:00Z",
	}})
	res := f.Call(t, issue.Tools(), "list_repo_milestones", map[string]any{"owner": "o", "repo": "r", "state": "closed", "name": "v"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":7,"title":"v1","description":"First","state":"closed","open_issues":1,"closed_issues":4,
		"due_on":"2026-02-01T00:00:00Z","closed_at":"2026-01-03T00:00:00Z"}],"page":1,"has_more":false}`, fakeforge.Text(t, res))
	assert.Equal(t, "limit=20&name=v&page=1&state=closed", f.Requests()[0].RawQuery)

	res = f.Call(t, issue.Tools(), "list_repo_milestones", map[string]any{"owner": "o", "repo": "gone"})
	assert.True(t, res.IsError)
	assert.Equal(t, "repository o/gone not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}

func TestSearchIssues(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/issues/search", 200, []any{rawIssue})
	res := f.Call(t, issue.Tools(), "search_issues", map[string]any{"query": "crash", "owner": "o", "labels": []any{"bug"}, "type": "all"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"repo":"o/r","number":3,"title":"Crash on start","state":"open","author":"alice",
		"labels":["bug"],"assignees":["bob"],"milestone":"v1","comments":2,
		"created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-03T03:04:05Z","html_url":"http://x/o/r/issues/3"}],
		"page":1,"has_more":false}`, fakeforge.Text(t, res))
	assert.Equal(t, "labels=bug&limit=20&owner=o&page=1&q=crash&state=open&type=", f.Requests()[0].RawQuery)

	f2 := fakeforge.New(t)
	f2.JSON("GET /api/v1/repos/issues/search", 403, map[string]any{"message": "token does not have required scope"})
	res = f2.Call(t, issue.Tools(), "search_issues", map[string]any{})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "search issues")
	assert.Contains(t, fakeforge.Text(t, res), "403")
}
