package repoadmin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

const mirrorSecret = "mirror-pa55-never-echoed"

func TestPushMirrors(t *testing.T) {
	f := fakeforge.New(t)
	m := map[string]any{"repo_name": "r", "remote_name": "remote_mirror_abc", "remote_address": "https://bob:" + mirrorSecret + "@example.org/r.git",
		"interval": "8h0m0s", "sync_on_commit": true, "created": "2026-01-02T03:04:05Z", "last_update": "", "last_error": ""}
	const mJSON = `{"remote_name":"remote_mirror_abc","remote_address":"https://example.org/r.git","interval":"8h0m0s","sync_on_commit":true}`
	f.JSON("GET /api/v1/repos/o/r/push_mirrors", 200, []any{m})
	f.JSON("POST /api/v1/repos/o/r/push_mirrors", 200, m)
	f.JSON("DELETE /api/v1/repos/o/r/push_mirrors/remote_mirror_abc", 204, nil)
	f.JSON("POST /api/v1/repos/o/r/push_mirrors-sync", 200, nil)
	f.JSON("POST /api/v1/repos/o/r/mirror-sync", 200, nil)
	f.JSON("POST /api/v1/repos/o/bad/push_mirrors", 400, map[string]any{"message": "invalid address https://bob:" + mirrorSecret + "@example.org"})

	isErr, text := call(t, f, "list_push_mirrors", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[`+mJSON+`],"page":1,"has_more":false}`, text)

	isErr, text = call(t, f, "add_push_mirror", map[string]any{"remote_address": "https://example.org/r.git", "remote_username": "bob",
		"remote_password": mirrorSecret, "sync_on_commit": true})
	require.False(t, isErr, text)
	assert.JSONEq(t, mJSON, text)
	assert.NotContains(t, text, mirrorSecret)
	assert.Equal(t, map[string]any{"remote_address": "https://example.org/r.git", "remote_username": "bob", "remote_password": mirrorSecret,
		"interval": "8h0m0s", "sync_on_commit": true}, lastBody(t, f))

	isErr, text = call(t, f, "add_push_mirror", map[string]any{"owner": "o", "repo": "bad", "remote_address": "https://bob:" + mirrorSecret + "@example.org",
		"remote_password": mirrorSecret})
	assert.True(t, isErr)
	assert.Contains(t, text, "add a push mirror to repository o/bad")
	assert.NotContains(t, text, mirrorSecret, "the forge's message quoted it: scrubbed")

	sent := len(f.Requests())
	isErr, text = call(t, f, "add_push_mirror", map[string]any{"remote_address": "https://example.org/r.git", "interval": "daily"})
	assert.True(t, isErr)
	assert.Contains(t, text, "interval must be a duration such as 8h0m0s")
	assert.Len(t, f.Requests(), sent)

	isErr, text = call(t, f, "sync_push_mirrors", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"queued":true,"full_name":"o/r"}`, text)
	isErr, text = call(t, f, "sync_mirror", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"queued":true,"full_name":"o/r"}`, text)
	isErr, text = call(t, f, "delete_push_mirror", map[string]any{"remote_name": "remote_mirror_abc"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"remote_name":"remote_mirror_abc"}`, text)
}

func TestMigrateRepo(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/migrate", 201, repoJSON("me/copy"))
	isErr, text := call(t, f, "migrate_repo", map[string]any{"owner": nil, "clone_addr": "https://example.org/a.git", "repo_name": "copy",
		"auth_token": mirrorSecret, "mirror": true, "include": []any{"issues", "labels"}})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"full_name":"me/copy"`)
	assert.Equal(t, map[string]any{"clone_addr": "https://example.org/a.git", "repo_name": "copy", "mirror": true, "private": false,
		"service": "git", "description": "", "auth_token": mirrorSecret, "issues": true, "labels": true}, lastBody(t, f))

	g := fakeforge.New(t)
	g.JSON("POST /api/v1/repos/migrate", 422, map[string]any{"message": "You can not import from disallowed hosts: token " + mirrorSecret})
	isErr, text = call(t, g, "migrate_repo", map[string]any{"owner": nil, "clone_addr": "https://u:" + mirrorSecret + "@127.0.0.1/a.git",
		"repo_name": "copy", "repo_owner": "org", "auth_token": mirrorSecret})
	assert.True(t, isErr)
	assert.Contains(t, text, "migrate https://127.0.0.1/a.git into repository org/copy")
	assert.Contains(t, text, "disallowed hosts")
	assert.NotContains(t, text, mirrorSecret)
}
