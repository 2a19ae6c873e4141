package issue_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

func TestListIssueDependencies(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/3/dependencies", 200, []any{rawIssue})
	f.JSON("GET /api/v1/repos/o/r/issues/3/blocks", 200, []any{})
	res := f.Call(t, issue.Tools(), "list_issue_dependencies", map[string]any{"owner": "o", "repo": "r", "index": 3, "limit": 1})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"repo":"o/r","number":3,"title":"Crash on start","state":"open","author":"alice"}],"page":1,"has_more":true}`, fakeforge.Text(t, res))
	assert.Equal(t, "limit=1&page=1", f.Requests()[0].RawQuery)

	res = f.Call(t, issue.Tools(), "list_issue_dependents", map[string]any{"owner": "o", "repo": "r", "index": 3})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, issue.Tools(), "list_issue_dependents", map[string]any{"owner": "o", "repo": "r", "index": 4})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "issue o/r#4 not found (404)")
	assert.Contains(t, fakeforge.Text(t, res), "404")
}

func TestChangeIssueDependency(t *testing.T) {
	f := fakeforge.New(t)
	var bodies []string
	f.Handle("/api/v1/repos/o/r/issues/3/dependencies", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, r.Method+" "+string(b))
		fakeforge.WriteJSON(w, 201, rawIssue)
	})
	res := f.Call(t, issue.Tools(), "add_issue_dependency", map[string]any{"owner": "o", "repo": "r", "index": 3, "dependency": 5})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"added":true,"issue":3,"blocked_by":"o/r#5"}`, fakeforge.Text(t, res))
	res = f.Call(t, issue.Tools(), "remove_issue_dependency", map[string]any{"owner": "o", "repo": "r", "index": 3, "dependency": 5})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"removed":true,"issue":3,"blocked_by":"o/r#5"}`, fakeforge.Text(t, res))
	require.Len(t, bodies, 2)
	assert.JSONEq(t, `{"owner":"o","repo":"r","index":5}`, bodies[0][len("POST "):])
	assert.JSONEq(t, `{"owner":"o","repo":"r","index":5}`, bodies[1][len("DELETE "):])

	res = f.Call(t, issue.Tools(), "add_issue_dependency", map[string]any{"owner": "o", "repo": "r", "index": 4, "dependency": 5})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "issue o/r#4 (dependency #5) not found (404)")
}
