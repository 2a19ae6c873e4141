package actionsconfig_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/actionsconfig/

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actionsconfig"
)

// TestLiveSecretsLifecycle: a secret is set, replaced, listed by name
// only and deleted on a real forge; its value never comes back, and the
// forge's refusal of a reserved name reads as its own message.
func TestLiveSecretsLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := f.RepoCaller(t, actionsconfig.Tools(), owner, repo)

	text := call("upsert_repo_action_secret", map[string]any{"name": "DEPLOY_KEY", "value": secretValue})
	assert.JSONEq(t, `{"set":true,"name":"DEPLOY_KEY"}`, text)
	text = call("upsert_repo_action_secret", map[string]any{"name": "DEPLOY_KEY", "value": secretValue + "-2"})
	assert.JSONEq(t, `{"set":true,"name":"DEPLOY_KEY"}`, text, "replacing is the same call")

	text = call("list_repo_action_secrets", map[string]any{})
	assert.Contains(t, text, `"name":"DEPLOY_KEY"`)
	assert.NotContains(t, text, secretValue)

	res := f.Call(t, actionsconfig.Tools(), "upsert_repo_action_secret", map[string]any{"owner": owner, "repo": repo,
		"name": "GITEA_TOKEN", "value": secretValue})
	require.True(t, res.IsError)
	msg := fakeforge.Text(t, res)
	assert.Contains(t, msg, "set Actions secret GITEA_TOKEN of repository "+owner+"/"+repo)
	assert.NotContains(t, msg, secretValue)

	text = call("delete_repo_action_secret", map[string]any{"name": "DEPLOY_KEY"})
	assert.JSONEq(t, `{"deleted":true,"name":"DEPLOY_KEY"}`, text)
	text = call("list_repo_action_secrets", map[string]any{})
	assert.NotContains(t, text, "DEPLOY_KEY")

	res = f.Call(t, actionsconfig.Tools(), "delete_repo_action_secret", map[string]any{"owner": owner, "repo": repo, "name": "DEPLOY_KEY"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}

// TestLiveVariablesLifecycle: a variable is created, read, listed,
// updated and deleted on a real forge; creating one twice fails with the
// forge's reason.
func TestLiveVariablesLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := f.RepoCaller(t, actionsconfig.Tools(), owner, repo)

	text := call("create_repo_action_variable", map[string]any{"name": "REGION", "value": "eu-west"})
	assert.JSONEq(t, `{"name":"REGION","value":"eu-west"}`, text)
	text = call("get_repo_action_variable", map[string]any{"name": "REGION"})
	assert.JSONEq(t, `{"name":"REGION","value":"eu-west"}`, text)

	res := f.Call(t, actionsconfig.Tools(), "create_repo_action_variable", map[string]any{"owner": owner, "repo": repo,
		"name": "REGION", "value": "again"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "create Actions variable REGION of repository "+owner+"/"+repo)

	call("update_repo_action_variable", map[string]any{"name": "REGION", "value": "us-east"})
	text = call("list_repo_action_variables", map[string]any{})
	assert.Contains(t, text, `{"name":"REGION","value":"us-east"}`)

	text = call("delete_repo_action_variable", map[string]any{"name": "REGION"})
	assert.JSONEq(t, `{"deleted":true,"name":"REGION"}`, text)
	res = f.Call(t, actionsconfig.Tools(), "get_repo_action_variable", map[string]any{"owner": owner, "repo": repo, "name": "REGION"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}
