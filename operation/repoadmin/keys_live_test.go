package repoadmin_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repoadmin"
)

// TestLiveTagProtections: release tags are protected for one user, the
// rule read, narrowed and deleted on a real forge.
func TestLiveTagProtections(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := f.RepoCaller(t, repoadmin.Tools(), owner, repo)

	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, call("list_tag_protections", map[string]any{}))
	var rule repoadmin.TagProtection
	require.NoError(t, json.Unmarshal([]byte(call("create_tag_protection", map[string]any{"name_pattern": "v*", "users": []any{owner}})), &rule))
	assert.Equal(t, "v*", rule.NamePattern)
	assert.Equal(t, []string{owner}, rule.Users)
	assert.Equal(t, []string{}, rule.Teams)
	id := map[string]any{"id": rule.ID}

	require.NoError(t, json.Unmarshal([]byte(call("edit_tag_protection", map[string]any{"id": rule.ID, "name_pattern": "release-*"})), &rule))
	assert.Equal(t, "release-*", rule.NamePattern)
	assert.Equal(t, []string{owner}, rule.Users, "the users stay when not given")
	require.NoError(t, json.Unmarshal([]byte(call("edit_tag_protection", map[string]any{"id": rule.ID, "users": []any{}})), &rule))
	assert.Equal(t, []string{}, rule.Users, "an empty list clears them")
	assert.Contains(t, call("get_tag_protection", id), `"name_pattern":"release-*"`)
	assert.Contains(t, call("list_tag_protections", map[string]any{}), `"name_pattern":"release-*"`)

	assert.JSONEq(t, `{"deleted":true,"id":`+itoa(rule.ID)+`}`, call("delete_tag_protection", id))
	res := f.Call(t, repoadmin.Tools(), "get_tag_protection", map[string]any{"owner": owner, "repo": repo, "id": rule.ID})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}

// TestLiveDeployKeys: a read-only key is added, read, listed and deleted
// on a real forge; the same key twice is the forge's refusal, named.
func TestLiveDeployKeys(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := f.RepoCaller(t, repoadmin.Tools(), owner, repo)
	line := publicKeyLine(t, "ci@b1")

	var k repoadmin.DeployKey
	require.NoError(t, json.Unmarshal([]byte(call("create_deploy_key", map[string]any{"title": "ci", "key": line})), &k))
	assert.Equal(t, "ci", k.Title)
	assert.True(t, k.ReadOnly)
	assert.Contains(t, k.Fingerprint, "SHA256:")
	assert.Contains(t, call("get_deploy_key", map[string]any{"id": k.ID}), `"title":"ci"`)
	assert.Contains(t, call("list_deploy_keys", map[string]any{}), `"fingerprint":"`+k.Fingerprint+`"`)

	res := f.Call(t, repoadmin.Tools(), "create_deploy_key", map[string]any{"owner": owner, "repo": repo, "title": "again", "key": line})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "add deploy key again to repository "+owner+"/"+repo)

	assert.JSONEq(t, `{"deleted":true,"id":`+itoa(k.ID)+`}`, call("delete_deploy_key", map[string]any{"id": k.ID}))
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, call("list_deploy_keys", map[string]any{}))
}
