package repoadmin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

func TestCollaborators(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PUT /api/v1/repos/o/r/collaborators/bob", 204, nil)
	f.JSON("GET /api/v1/repos/o/r/collaborators/bob", 204, nil)
	f.JSON("GET /api/v1/repos/o/r/collaborators/bob/permission", 200, map[string]any{
		"permission": "write", "role_name": "write", "user": map[string]any{"login": "bob"}})
	f.JSON("DELETE /api/v1/repos/o/r/collaborators/bob", 204, nil)
	f.JSON("GET /api/v1/repos/o/r/collaborators/eve", 404, map[string]any{"message": "not found"})
	f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"full_name": "o/r"})
	f.JSON("GET /api/v1/repos/o/gone/collaborators/eve", 404, map[string]any{"message": "not found"})
	f.JSON("GET /api/v1/repos/o/gone", 404, map[string]any{"message": "repository does not exist"})

	isErr, text := call(t, f, "add_collaborator", map[string]any{"user": "bob"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"user":"bob","permission":"write","role":"write","collaborator":true}`, text)
	assert.Equal(t, map[string]any{"permission": "write"}, lastBodyOf(t, f, "PUT", "/api/v1/repos/o/r/collaborators/bob"), "write unless told")

	isErr, text = call(t, f, "check_collaborator", map[string]any{"user": "bob"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"user":"bob","collaborator":true}`, text)
	isErr, text = call(t, f, "check_collaborator", map[string]any{"user": "eve"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"user":"eve","collaborator":false}`, text)
	isErr, text = call(t, f, "check_collaborator", map[string]any{"repo": "gone", "owner": "o", "user": "eve"})
	assert.True(t, isErr, "a missing repository is not a 'no'")
	assert.Contains(t, text, "repository o/gone not found (404)")

	isErr, text = call(t, f, "remove_collaborator", map[string]any{"user": "bob"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"user":"bob"}`, text)

	isErr, text = call(t, f, "add_collaborator", map[string]any{"user": "bob", "permission": "owner"})
	assert.True(t, isErr)
	assert.Contains(t, text, "must be one of read, write, admin")
}

func TestRepoTeams(t *testing.T) {
	f := fakeforge.New(t)
	team := map[string]any{"id": 3, "name": "devs", "permission": "write", "includes_all_repositories": false}
	f.JSON("GET /api/v1/repos/o/r/teams", 200, []any{team})
	f.JSON("GET /api/v1/repos/o/r/teams/devs", 200, team)
	f.JSON("PUT /api/v1/repos/o/r/teams/devs", 204, nil)
	f.JSON("DELETE /api/v1/repos/o/r/teams/devs", 204, nil)
	f.JSON("GET /api/v1/repos/o/r/teams/ops", 404, map[string]any{"message": "not found"})
	f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"full_name": "o/r"})
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "1.26.0"})

	isErr, text := call(t, f, "list_repo_teams", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"id":3,"name":"devs","permission":"write","includes_all_repositories":false,"can_create_org_repo":false}],"page":1,"has_more":false}`, text)
	isErr, text = call(t, f, "add_repo_team", map[string]any{"team": "devs"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"team":"devs","access":true,"detail":{"id":3,"name":"devs","permission":"write","includes_all_repositories":false,"can_create_org_repo":false}}`, text)
	isErr, text = call(t, f, "check_repo_team", map[string]any{"team": "ops"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"team":"ops","access":false}`, text)
	isErr, text = call(t, f, "remove_repo_team", map[string]any{"team": "devs"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"team":"devs"}`, text)
}

// TestAddRepoTeamTwice: Gitea's 422 for a team that already has access
// is the idempotent success; a 422 for another reason stays an error.
func TestAddRepoTeamTwice(t *testing.T) {
	f := fakeforge.New(t)
	team := map[string]any{"id": 3, "name": "Owners", "permission": "owner"}
	f.JSON("PUT /api/v1/repos/o/r/teams/Owners", 422, map[string]any{"message": "team 'Owners' is already added to repo"})
	f.JSON("GET /api/v1/repos/o/r/teams/Owners", 200, team)
	f.JSON("PUT /api/v1/repos/o/r/teams/devs", 422, map[string]any{"message": "team does not belong to the organisation"})
	f.JSON("GET /api/v1/repos/o/r/teams/devs", 404, map[string]any{"message": "not found"})
	f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"full_name": "o/r"})

	isErr, text := call(t, f, "add_repo_team", map[string]any{"team": "Owners"})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"access":true`)
	isErr, text = call(t, f, "add_repo_team", map[string]any{"team": "devs"})
	assert.True(t, isErr)
	assert.Contains(t, text, "add team devs of repository o/r: the forge rejected the input (422): team does not belong to the organisation")
}
