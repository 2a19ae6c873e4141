package webhook_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/webhook"
)

// rawHook is what the forge sends, including what must never reach an agent.
var rawHook = map[string]any{
	"id": 7, "type": "gitea", "branch_filter": "main",
	"config": map[string]any{"url": "http://hooks.example/x", "content_type": "json", "secret": "s3cret-value"},
	"events": []string{"push", "issues"}, "active": true, "authorization_header": "Bearer hdr-value",
	"updated_at": "2026-01-02T03:04:05Z", "created_at": "2026-01-02T03:04:05Z",
}

const compactHook = `{"id":7,"type":"gitea","url":"http://hooks.example/x","content_type":"json",
	"events":["push","issues"],"branch_filter":"main","active":true,"updated_at":"2026-01-02T03:04:05Z"}`

func call(t *testing.T, f *fakeforge.Server, name string, args map[string]any) (bool, string) {
	t.Helper()
	args["owner"], args["repo"] = "o", "r"
	res := f.Call(t, webhook.Tools(), name, args)
	return res.IsError, fakeforge.Text(t, res)
}

func body(t *testing.T, f *fakeforge.Server, i int) map[string]any {
	t.Helper()
	reqs := f.Requests()
	var m map[string]any
	require.NoError(t, json.Unmarshal(reqs[len(reqs)+i].Body, &m))
	return m
}

func noSecrets(t *testing.T, text string) {
	t.Helper()
	assert.NotContains(t, text, "s3cret")
	assert.NotContains(t, text, "hdr-value")
}

func TestListAndGet(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/hooks", 200, []any{rawHook})
	f.JSON("GET /api/v1/repos/o/r/hooks/7", 200, rawHook)
	isErr, text := call(t, f, "list_repo_hooks", map[string]any{})
	require.False(t, isErr, text)
	noSecrets(t, text)
	assert.Contains(t, text, `"url":"http://hooks.example/x"`)
	assert.Contains(t, text, `"branch_filter":"main"`, "the SDK's list dropped it; the raw read keeps it")

	isErr, text = call(t, f, "get_repo_hook", map[string]any{"hook_id": 7.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, compactHook, text)
}

func TestCreateSendsSecretButNeverReturnsIt(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/hooks", 201, rawHook)
	isErr, text := call(t, f, "create_repo_hook", map[string]any{"target_url": "http://hooks.example/x", "secret": "s3cret-value"})
	require.False(t, isErr, text)
	noSecrets(t, text)
	b := body(t, f, -1)
	assert.Equal(t, "gitea", b["type"])
	assert.Equal(t, map[string]any{"url": "http://hooks.example/x", "content_type": "json", "secret": "s3cret-value"}, b["config"])
	assert.Equal(t, []any{"push"}, b["events"])
	assert.Equal(t, true, b["active"])
}

func TestEditKeepsWhatIsNotGiven(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/hooks/7", 200, rawHook)
	f.JSON("PATCH /api/v1/repos/o/r/hooks/7", 200, rawHook)
	isErr, text := call(t, f, "edit_repo_hook", map[string]any{"hook_id": 7.0, "active": false})
	require.False(t, isErr, text)
	noSecrets(t, text)
	b := body(t, f, -1)
	assert.Equal(t, false, b["active"])
	assert.Nil(t, b["config"], "url and content type unchanged")
	assert.Equal(t, []any{"push", "issues"}, b["events"])
	assert.Equal(t, "main", b["branch_filter"])
	assert.Equal(t, "Bearer hdr-value", b["authorization_header"], "the forge would otherwise clear it")

	isErr, text = call(t, f, "edit_repo_hook", map[string]any{"hook_id": 7.0, "target_url": "http://new.example/"})
	require.False(t, isErr, text)
	assert.Equal(t, map[string]any{"url": "http://new.example/"}, body(t, f, -1)["config"])
}

func TestDeleteTestAndErrors(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("DELETE /api/v1/repos/o/r/hooks/7", 204, nil)
	f.JSON("POST /api/v1/repos/o/r/hooks/7/tests", 204, nil)
	isErr, text := call(t, f, "delete_repo_hook", map[string]any{"hook_id": 7.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"id":7}`, text)
	isErr, text = call(t, f, "test_repo_hook", map[string]any{"hook_id": 7.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"queued":true,"id":7}`, text)

	isErr, text = call(t, f, "get_repo_hook", map[string]any{"hook_id": 9.0})
	assert.True(t, isErr)
	assert.Equal(t, "webhook 9 in o/r not found (404): it does not exist or this token cannot see it", text)
	isErr, text = call(t, f, "edit_repo_hook", map[string]any{"hook_id": 9.0, "active": true})
	assert.True(t, isErr)
	assert.Contains(t, text, "webhook 9 in o/r not found (404)")
}
