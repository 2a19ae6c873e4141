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

var rawComment = map[string]any{
	"id": 77, "body": "Thanks", "user": map[string]any{"login": "carol", "avatar_url": "http://x/a"},
	"html_url": "http://x/o/r/issues/3#issuecomment-77", "issue_url": "http://x/o/r/issues/3",
	"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z",
}

func TestUpdateIssueSendsOnlyGivenFields(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PATCH /api/v1/repos/o/r/issues/3", 201, rawIssue)
	res := f.Call(t, issue.Tools(), "update_issue", map[string]any{"owner": "o", "repo": "r", "index": 3.0,
		"body": "", "assignees": []any{}, "milestone": 0.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"body":"","assignees":[],"milestone":0}`, string(f.Requests()[0].Body),
		"empty values are sent when given (they clear), absent ones are not")
	assert.Contains(t, fakeforge.Text(t, res), `"number":3,"title":"Crash on start"`)
	assert.NotContains(t, fakeforge.Text(t, res), `"body"`, "the agent sent the body; it is not echoed")

	res = f.Call(t, issue.Tools(), "update_issue", map[string]any{"owner": "o", "repo": "r", "index": 3.0, "title": "New", "state": "closed"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"title":"New","state":"closed"}`, string(f.Requests()[1].Body))
}

func TestUpdateIssueNothingToChange(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PATCH /api/v1/repos/o/r/issues/3", 201, rawIssue)
	res := f.Call(t, issue.Tools(), "update_issue", map[string]any{"owner": "o", "repo": "r", "index": 3.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{}`, string(f.Requests()[0].Body), "no field given, none sent: the issue comes back unchanged")
}

func TestIssueStateChange(t *testing.T) {
	f := fakeforge.New(t)
	closed := map[string]any{}
	for k, v := range rawIssue {
		closed[k] = v
	}
	closed["state"], closed["closed_at"] = "closed", "2026-01-04T00:00:00Z"
	f.JSON("PATCH /api/v1/repos/o/r/issues/3", 201, closed)
	res := f.Call(t, issue.Tools(), "issue_state_change", map[string]any{"owner": "o", "repo": "r", "index": 3.0, "state": "closed"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"state":"closed"}`, string(f.Requests()[0].Body))
	assert.Contains(t, fakeforge.Text(t, res), `"state":"closed"`)
	assert.Contains(t, fakeforge.Text(t, res), `"closed_at":"2026-01-04T00:00:00Z"`)

	res = f.Call(t, issue.Tools(), "issue_state_change", map[string]any{"owner": "o", "repo": "r", "index": 9.0, "state": "open"})
	assert.True(t, res.IsError)
	assert.Equal(t, "issue o/r#9 not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "issue_state_change", map[string]any{"owner": "o", "repo": "r", "index": 3.0, "state": "merged"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `argument "state" must be one of open, closed`)
}

func TestGetEditDeleteComment(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/comments/77", 200, rawComment)
	edited := map[string]any{}
	for k, v := range rawComment {
		edited[k] = v
	}
	edited["body"] = "Edited"
	f.JSON("PATCH /api/v1/repos/o/r/issues/comments/77", 200, edited)
	f.Handle("DELETE /api/v1/repos/o/r/issues/comments/77", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })
	args := map[string]any{"owner": "o", "repo": "r", "comment_id": 77.0}

	res := f.Call(t, issue.Tools(), "get_issue_comment", args)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"id":77,"author":"carol","body":"Thanks","created_at":"2026-01-02T03:04:05Z",
		"updated_at":"2026-01-02T03:04:05Z","html_url":"http://x/o/r/issues/3#issuecomment-77"}`, fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "edit_issue_comment", map[string]any{"owner": "o", "repo": "r", "comment_id": 77.0, "body": "Edited"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[1].Body, &sent))
	assert.Equal(t, map[string]any{"body": "Edited"}, sent)
	assert.Contains(t, fakeforge.Text(t, res), `"body":"Edited"`)

	res = f.Call(t, issue.Tools(), "delete_issue_comment", args)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"comment_id":77}`, fakeforge.Text(t, res))
	assert.Equal(t, "DELETE", f.Requests()[2].Method)

	res = f.Call(t, issue.Tools(), "get_issue_comment", map[string]any{"owner": "o", "repo": "r", "comment_id": 5.0})
	assert.True(t, res.IsError)
	assert.Equal(t, "comment 5 in o/r not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}
