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

func TestReplaceAndClearIssueLabels(t *testing.T) {
	f := fakeforge.New(t)
	bug := map[string]any{"id": 1, "name": "bug", "color": "ff0000"}
	f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{bug, map[string]any{"id": 2, "name": "ui", "color": "00ff00"}})
	f.JSON("GET /api/v1/orgs/o/labels", 404, map[string]any{"message": "not found"})
	f.JSON("PUT /api/v1/repos/o/r/issues/3/labels", 200, []any{bug})
	f.Handle("DELETE /api/v1/repos/o/r/issues/3/labels", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })

	res := f.Call(t, issue.Tools(), "replace_issue_labels", map[string]any{"owner": "o", "repo": "r", "index": 3.0, "labels": []any{"Bug"}})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"name":"bug"`)
	var body map[string]any
	reqs := f.Requests()
	require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &body))
	assert.Equal(t, map[string]any{"labels": []any{1.0}}, body)

	res = f.Call(t, issue.Tools(), "replace_issue_labels", map[string]any{"owner": "o", "repo": "r", "index": 3.0, "labels": []any{}})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"labels":[]}`, fakeforge.Text(t, res))
	assert.Equal(t, "DELETE", f.Requests()[len(f.Requests())-1].Method)

	n := len(f.Requests())
	res = f.Call(t, issue.Tools(), "replace_issue_labels", map[string]any{"owner": "o", "repo": "r", "index": 3.0, "labels": []any{"bug", "nope"}})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "nope")
	for _, r := range f.Requests()[n:] {
		assert.Equal(t, "GET", r.Method, "an unknown label changes nothing")
	}
}

func TestDeleteIssue(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("DELETE /api/v1/repos/o/r/issues/3", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })
	f.JSON("DELETE /api/v1/repos/o/r/issues/4", 403, map[string]any{"message": "Forbidden"})
	res := f.Call(t, issue.Tools(), "delete_issue", map[string]any{"owner": "o", "repo": "r", "index": 3.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"index":3}`, fakeforge.Text(t, res))
	res = f.Call(t, issue.Tools(), "delete_issue", map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "deleting an issue needs admin rights on repository o/r")
}
