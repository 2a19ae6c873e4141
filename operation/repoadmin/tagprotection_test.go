package repoadmin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

func TestTagProtections(t *testing.T) {
	f := fakeforge.New(t)
	rule := map[string]any{"id": 4, "name_pattern": "v*", "whitelist_usernames": []any{"alice"}, "whitelist_teams": nil,
		"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z"}
	const ruleJSON = `{"id":4,"name_pattern":"v*","users":["alice"],"teams":[],"updated_at":"2026-01-02T03:04:05Z"}`
	f.JSON("GET /api/v1/repos/o/r/tag_protections", 200, []any{rule})
	f.JSON("POST /api/v1/repos/o/r/tag_protections", 201, rule)
	f.JSON("GET /api/v1/repos/o/r/tag_protections/4", 200, rule)
	f.JSON("PATCH /api/v1/repos/o/r/tag_protections/4", 200, rule)
	f.JSON("DELETE /api/v1/repos/o/r/tag_protections/4", 204, nil)
	f.JSON("GET /api/v1/repos/o/r/tag_protections/9", 404, map[string]any{"message": "not found"})

	isErr, text := call(t, f, "list_tag_protections", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[`+ruleJSON+`],"page":1,"has_more":false}`, text)

	isErr, text = call(t, f, "create_tag_protection", map[string]any{"name_pattern": "v*", "users": []any{"alice"}})
	require.False(t, isErr, text)
	assert.JSONEq(t, ruleJSON, text)
	assert.Equal(t, map[string]any{"name_pattern": "v*", "whitelist_usernames": []any{"alice"}, "whitelist_teams": []any{}}, lastBody(t, f),
		"no teams given: none, never null")

	isErr, text = call(t, f, "edit_tag_protection", map[string]any{"id": 4, "teams": []any{}})
	require.False(t, isErr, text)
	assert.Equal(t, map[string]any{"whitelist_teams": []any{}}, lastBody(t, f), "only what was given")

	isErr, text = call(t, f, "edit_tag_protection", map[string]any{"id": 4})
	assert.True(t, isErr)
	assert.Contains(t, text, "give name_pattern, users or teams to change")

	isErr, text = call(t, f, "get_tag_protection", map[string]any{"id": 9})
	assert.True(t, isErr)
	assert.Contains(t, text, "tag protection 9 of repository o/r not found (404)")

	isErr, text = call(t, f, "delete_tag_protection", map[string]any{"id": 4})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"id":4}`, text)
}
