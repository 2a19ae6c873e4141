package issue_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// rawIssue is what the forge sends: far more than an agent needs.
var rawIssue = map[string]any{
	"id": 41, "number": 3, "title": "Crash on start", "body": "It crashes.", "state": "open",
	"url": "http://x/api/v1/repos/o/r/issues/3", "html_url": "http://x/o/r/issues/3",
	"user":      map[string]any{"id": 1, "login": "alice", "avatar_url": "http://x/avatars/1", "email": "a@x"},
	"labels":    []any{map[string]any{"id": 5, "name": "bug", "color": "ff0000", "url": "http://x/labels/5"}},
	"assignees": []any{map[string]any{"id": 2, "login": "bob", "avatar_url": "http://x/avatars/2"}},
	"milestone": map[string]any{"id": 7, "title": "v1", "state": "open"},
	"comments":  2, "created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-03T03:04:05Z",
	"repository": map[string]any{"id": 9, "name": "r", "owner": "o", "full_name": "o/r"},
}

func TestGetIssueCompact(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/3", 200, rawIssue)
	res := f.Call(t, issue.Tools(), "get_issue_by_index", map[string]any{"owner": "o", "repo": "r", "index": 3.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"number":3,"title":"Crash on start","state":"open","body":"It crashes.","author":"alice",
		"labels":["bug"],"assignees":["bob"],"milestone":"v1","comments":2,
		"created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-03T03:04:05Z","html_url":"http://x/o/r/issues/3"}`,
		fakeforge.Text(t, res))
	raw, _ := json.Marshal(rawIssue)
	assert.Less(t, len(fakeforge.Text(t, res)), len(raw), "compact is smaller than the forge's JSON")
}

func TestGetIssueNotFound(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, issue.Tools(), "get_issue_by_index", map[string]any{"owner": "forgeadmin", "repo": "demo", "index": 999.0})
	assert.True(t, res.IsError)
	assert.Equal(t, "issue forgeadmin/demo#999 not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}

func TestListIssuesQueryAndPaging(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/issues", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<http://x/api/v1/repos/o/r/issues?page=3&limit=2>; rel="next"`)
		fakeforge.WriteJSON(w, 200, []any{rawIssue, rawIssue})
	})
	f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{map[string]any{"id": 1, "name": "bug"}, map[string]any{"id": 2, "name": "ui"}})
	res := f.Call(t, issue.Tools(), "list_repo_issues", map[string]any{
		"owner": "o", "repo": "r", "state": "closed", "labels": []any{"bug", "ui"}, "query": "crash", "page": 2.0, "limit": 2.0,
	})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var page struct {
		Items   []map[string]any `json:"items"`
		Page    int              `json:"page"`
		HasMore bool             `json:"has_more"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
	assert.Len(t, page.Items, 2)
	assert.Equal(t, 2, page.Page)
	assert.True(t, page.HasMore)
	assert.NotContains(t, page.Items[0], "body", "lists leave bodies out")
	q := f.Requests()[len(f.Requests())-1].RawQuery
	for _, want := range []string{"state=closed", "type=issues", "labels=bug%2Cui", "q=crash", "page=2", "limit=2"} {
		assert.Contains(t, q, want)
	}
}

func TestListIssuesLastPage(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/issues", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<http://x/api/v1/repos/o/r/issues?page=1&limit=2>; rel="first"`)
		fakeforge.WriteJSON(w, 200, []any{})
	})
	res := f.Call(t, issue.Tools(), "list_repo_issues", map[string]any{"owner": "o", "repo": "r"})
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, fakeforge.Text(t, res))
}

func TestCreateIssueAndComment(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/issues", 201, rawIssue)
	f.JSON("POST /api/v1/repos/o/r/issues/3/comments", 201, map[string]any{
		"id": 77, "body": "Thanks", "user": map[string]any{"login": "carol"}, "html_url": "http://x/o/r/issues/3#issuecomment-77",
		"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z"})
	res := f.Call(t, issue.Tools(), "create_issue", map[string]any{"owner": "o", "repo": "r", "title": "Crash on start",
		"body": "It crashes.", "assignees": []any{"bob"}, "milestone": 7.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, "Crash on start", sent["title"])
	assert.Equal(t, []any{"bob"}, sent["assignees"])
	assert.Equal(t, 7.0, sent["milestone"])

	res = f.Call(t, issue.Tools(), "create_issue_comment", map[string]any{"owner": "o", "repo": "r", "index": 3.0, "body": "Thanks"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"id":77,"author":"carol","body":"Thanks","created_at":"2026-01-02T03:04:05Z",
		"updated_at":"2026-01-02T03:04:05Z","html_url":"http://x/o/r/issues/3#issuecomment-77"}`, fakeforge.Text(t, res))
}

func TestCreateIssueScopeError(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/issues", 403, map[string]string{"message": "token does not have at least one of required scope(s): [write:issue]"})
	res := f.Call(t, issue.Tools(), "create_issue", map[string]any{"owner": "o", "repo": "r", "title": "t"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "create an issue in repository o/r: permission denied (403): token does not have at least one of required scope(s): [write:issue]")
}

func TestListComments(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/3/comments", 200, []any{
		map[string]any{"id": 1, "body": "first", "user": map[string]any{"login": "a"}},
		nil,
	})
	res := f.Call(t, issue.Tools(), "list_issue_comments", map[string]any{"owner": "o", "repo": "r", "index": 3.0, "limit": 5.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"items":[{"id":1,"author":"a","body":"first"`)
	assert.Contains(t, fakeforge.Text(t, res), `"has_more":false`)
}
