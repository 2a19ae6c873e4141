package pin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pin"
)

func call(t *testing.T, f *fakeforge.Server, name string, args map[string]any) (bool, string) {
	t.Helper()
	args["owner"], args["repo"] = "o", "r"
	res := f.Call(t, pin.Tools(), name, args)
	return res.IsError, fakeforge.Text(t, res)
}

func TestPinTools(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/pinned", 200, []any{map[string]any{"number": 4, "title": "Roadmap", "state": "open",
		"user": map[string]any{"login": "ann"}, "pin_order": 1, "html_url": "http://forge/o/r/issues/4", "body": "long body"}})
	f.JSON("GET /api/v1/repos/o/r/pulls/pinned", 200, []any{map[string]any{"number": 9, "title": "Big change", "state": "open",
		"user": map[string]any{"login": "bob"}, "pin_order": 2, "html_url": "http://forge/o/r/pulls/9"}})
	f.JSON("POST /api/v1/repos/o/r/issues/4/pin", 204, nil)
	f.JSON("DELETE /api/v1/repos/o/r/issues/4/pin", 204, nil)
	f.JSON("PATCH /api/v1/repos/o/r/issues/4/pin/2", 204, nil)
	f.JSON("POST /api/v1/repos/o/r/issues/5/pin", 400, map[string]any{"message": "You can't pin more Issues"})

	isErr, text := call(t, f, "list_pinned_issues", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"number":4,"title":"Roadmap","state":"open","author":"ann","position":1,
		"html_url":"http://forge/o/r/issues/4"}],"page":1,"has_more":false}`, text)
	isErr, text = call(t, f, "list_pinned_issues", map[string]any{"kind": "pulls"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"number":9,"title":"Big change","state":"open","is_pull":true,"author":"bob","position":2,
		"html_url":"http://forge/o/r/pulls/9"}],"page":1,"has_more":false}`, text)

	for _, c := range []struct {
		tool, method, want string
		more               map[string]any
	}{
		{"pin_issue", "POST", `{"number":4,"pinned":true}`, nil},
		{"unpin_issue", "DELETE", `{"number":4,"pinned":false}`, nil},
		{"move_issue_pin", "PATCH", `{"number":4,"pinned":true,"position":2}`, map[string]any{"position": 2.0}},
	} {
		args := map[string]any{"index": 4.0}
		for k, v := range c.more {
			args[k] = v
		}
		isErr, text = call(t, f, c.tool, args)
		require.False(t, isErr, text)
		assert.JSONEq(t, c.want, text)
		reqs := f.Requests()
		assert.Equal(t, c.method, reqs[len(reqs)-1].Method)
	}

	isErr, text = call(t, f, "pin_issue", map[string]any{"index": 5.0})
	assert.True(t, isErr)
	assert.Contains(t, text, "pin issue o/r#5: the forge refused the request (400 Bad Request): You can't pin more Issues")
	isErr, text = call(t, f, "move_issue_pin", map[string]any{"index": 4.0, "position": 0.0})
	assert.True(t, isErr, "position counts from 1: %s", text)
}
