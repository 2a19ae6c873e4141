package actionsconfig_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actionsconfig"
)

// TestLiveOrgAndUserLevels: an organisation's and a user's secrets and
// variables go through their whole life on a real forge with the same
// tools as a repository's; a secret's value never comes back.
func TestLiveOrgAndUserLevels(t *testing.T) {
	f := testforge.Get(t)
	org := f.NewOrg(t)
	user := f.NewUser(t) // a user of the test's own: its secrets are no other test's

	for _, c := range []struct {
		noun, ref string
		on        *testforge.Forge
		args      map[string]any
	}{
		{"org", "organisation " + org, f, map[string]any{"org": org}},
		{"my", "the token's user", user, map[string]any{}},
	} {
		t.Run(c.noun, func(t *testing.T) {
			call := func(name string, more map[string]any) (bool, string) {
				args := map[string]any{}
				for k, v := range c.args {
					args[k] = v
				}
				for k, v := range more {
					args[k] = v
				}
				res := c.on.Call(t, actionsconfig.Tools(), name, args)
				return res.IsError, fakeforge.Text(t, res)
			}
			isErr, text := call("upsert_"+c.noun+"_action_secret", map[string]any{"name": "DEPLOY_KEY", "value": secretValue})
			require.False(t, isErr, text)
			assert.JSONEq(t, `{"set":true,"name":"DEPLOY_KEY"}`, text)
			if c.noun == "org" {
				isErr, text = call("list_org_action_secrets", nil)
				require.False(t, isErr, text)
				assert.Contains(t, text, `"name":"DEPLOY_KEY"`)
				assert.NotContains(t, text, secretValue)
			}
			isErr, text = call("upsert_"+c.noun+"_action_secret", map[string]any{"name": "GITEA_TOKEN", "value": secretValue})
			require.True(t, isErr)
			assert.Contains(t, text, "set Actions secret GITEA_TOKEN of "+c.ref)
			assert.NotContains(t, text, secretValue)
			isErr, text = call("delete_"+c.noun+"_action_secret", map[string]any{"name": "DEPLOY_KEY"})
			require.False(t, isErr, text)
			isErr, text = call("delete_"+c.noun+"_action_secret", map[string]any{"name": "DEPLOY_KEY"})
			require.True(t, isErr)
			assert.Contains(t, text, "not found (404)")

			isErr, text = call("create_"+c.noun+"_action_variable", map[string]any{"name": "REGION", "value": "eu-west"})
			require.False(t, isErr, text)
			isErr, text = call("create_"+c.noun+"_action_variable", map[string]any{"name": "REGION", "value": "again"})
			require.True(t, isErr, text)
			assert.Contains(t, text, "create Actions variable REGION of "+c.ref)
			isErr, text = call("update_"+c.noun+"_action_variable", map[string]any{"name": "REGION", "value": "us-east"})
			require.False(t, isErr, text)
			isErr, text = call("get_"+c.noun+"_action_variable", map[string]any{"name": "REGION"})
			require.False(t, isErr, text)
			assert.JSONEq(t, `{"name":"REGION","value":"us-east"}`, text)
			isErr, text = call("list_"+c.noun+"_action_variables", nil)
			require.False(t, isErr, text)
			assert.Contains(t, text, `{"name":"REGION","value":"us-east"}`)
			isErr, text = call("delete_"+c.noun+"_action_variable", map[string]any{"name": "REGION"})
			require.False(t, isErr, text)
			isErr, text = call("get_"+c.noun+"_action_variable", map[string]any{"name": "REGION"})
			require.True(t, isErr)
			assert.Contains(t, text, "not found (404)")
		})
	}
}
