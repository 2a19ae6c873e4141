package repoadmin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

func repoJSON(fullName string) map[string]any {
	return map[string]any{"full_name": fullName, "private": true, "default_branch": "main",
		"updated_at": "2026-01-02T03:04:05Z", "html_url": "https://forge/" + fullName}
}

func TestDeleteRepoAsksTheNameAgain(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("DELETE /api/v1/repos/o/r", 204, nil)
	isErr, text := call(t, f, "delete_repo", map[string]any{"confirm": "o/other"})
	assert.True(t, isErr)
	assert.Equal(t, `confirm must be "o/r", the repository to delete; nothing was deleted`, text)
	assert.Empty(t, f.Requests())
	isErr, text = call(t, f, "delete_repo", map[string]any{"confirm": "o/r"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"full_name":"o/r"}`, text)
}

func TestTransferRepo(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/transfer", 202, repoJSON("o/r"))
	f.JSON("POST /api/v1/repos/o/moved/transfer", 201, repoJSON("org/moved"))
	f.JSON("POST /api/v1/repos/o/r/transfer/accept", 202, repoJSON("me/r"))
	f.JSON("POST /api/v1/repos/o/r/transfer/reject", 200, repoJSON("o/r"))

	isErr, text := call(t, f, "transfer_repo", map[string]any{"new_owner": "bob"})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"pending":true`, "still under its owner: bob must accept")
	assert.Equal(t, map[string]any{"new_owner": "bob"}, lastBody(t, f))

	isErr, text = call(t, f, "transfer_repo", map[string]any{"owner": "o", "repo": "moved", "new_owner": "org", "team_ids": []any{"3"}})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"full_name":"org/moved"`)
	assert.Contains(t, text, `"pending":false`)
	assert.Equal(t, map[string]any{"new_owner": "org", "team_ids": []any{3.0}}, lastBody(t, f))

	isErr, text = call(t, f, "transfer_repo", map[string]any{"new_owner": "org", "team_ids": []any{"devs"}})
	assert.True(t, isErr)
	assert.Contains(t, text, `team_ids: "devs" is not a team ID (list_org_teams)`)

	isErr, text = call(t, f, "accept_repo_transfer", map[string]any{})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"full_name":"me/r"`)
	isErr, text = call(t, f, "reject_repo_transfer", map[string]any{})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"full_name":"o/r"`)
}

func TestCreateRepoFromTemplate(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "me", "id": 1})
	f.JSON("POST /api/v1/repos/o/r/generate", 201, repoJSON("me/app"))
	isErr, text := call(t, f, "create_repo_from_template", map[string]any{"name": "app"})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"full_name":"me/app"`)
	assert.Equal(t, map[string]any{"owner": "me", "name": "app", "description": "", "private": false, "git_content": true,
		"topics": false, "labels": false, "webhooks": false, "avatar": false, "git_hooks": false}, lastBody(t, f))

	isErr, text = call(t, f, "create_repo_from_template", map[string]any{"name": "app", "new_owner": "org",
		"include": []any{"labels", "topics"}, "private": true})
	require.False(t, isErr, text)
	assert.Equal(t, map[string]any{"owner": "org", "name": "app", "description": "", "private": true, "git_content": false,
		"topics": true, "labels": true, "webhooks": false, "avatar": false, "git_hooks": false}, lastBody(t, f))
}

// TestConvertMirrorIsRefusedOnGitea: Gitea has no conversion route; the
// gate says so before sending.
func TestConvertMirror(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "13.0.5+gitea-1.22.0"})
	f.JSON("POST /api/v1/repos/o/r/convert", 200, repoJSON("o/r"))
	isErr, text := call(t, f, "convert_mirror_repo", map[string]any{})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"full_name":"o/r"`)

	g := fakeforge.New(t)
	g.JSON("GET /api/v1/version", 200, map[string]any{"version": "1.26.0"})
	isErr, text = call(t, g, "convert_mirror_repo", map[string]any{})
	assert.True(t, isErr)
	assert.Contains(t, text, "Gitea")
	assert.Empty(t, g.RequestsTo("POST", "/api/v1/repos/o/r/convert"), "refused before sending")
}
