package webhook_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/webhook"
)

// TestOrgAndUserHooks: an organisation's and the token's user's webhooks
// take the repository's handlers on their own routes: the secret goes out
// in the body and never comes back, edit keeps what is not given, and
// errors name whose hook it is.
func TestOrgAndUserHooks(t *testing.T) {
	for _, c := range []struct {
		kind, route, missing string
		args                 map[string]any
	}{
		{"org", "/api/v1/orgs/acme/hooks", "webhook 9 of organisation acme not found (404)", map[string]any{"org": "acme"}},
		{"my", "/api/v1/user/hooks", "webhook 9 of your account not found (404)", map[string]any{}},
	} {
		t.Run(c.kind, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET "+c.route, 200, []any{rawHook})
			f.JSON("GET "+c.route+"/7", 200, rawHook)
			f.JSON("POST "+c.route, 201, rawHook)
			f.JSON("PATCH "+c.route+"/7", 200, rawHook)
			f.JSON("DELETE "+c.route+"/7", 204, nil)
			run := func(name string, more map[string]any) (bool, string) {
				args := map[string]any{}
				for k, v := range c.args {
					args[k] = v
				}
				for k, v := range more {
					args[k] = v
				}
				res := f.Call(t, webhook.Tools(), name, args)
				return res.IsError, fakeforge.Text(t, res)
			}
			isErr, text := run("list_"+c.kind+"_hooks", nil)
			require.False(t, isErr, text)
			noSecrets(t, text)
			assert.JSONEq(t, `{"items":[`+compactHook+`],"page":1,"has_more":false}`, text, "listed with its branch filter, as read")

			isErr, text = run("get_"+c.kind+"_hook", map[string]any{"hook_id": 7.0})
			require.False(t, isErr, text)
			assert.JSONEq(t, compactHook, text)

			isErr, text = run("create_"+c.kind+"_hook", map[string]any{"target_url": "http://hooks.example/x", "secret": "s3cret-value",
				"events": []any{"push", "issues"}, "branch_filter": "main"})
			require.False(t, isErr, text)
			assert.JSONEq(t, compactHook, text)
			b := body(t, f, -1)
			assert.Equal(t, map[string]any{"url": "http://hooks.example/x", "content_type": "json", "secret": "s3cret-value"}, b["config"])
			assert.Equal(t, "main", b["branch_filter"])
			assert.Equal(t, c.route, f.Requests()[len(f.Requests())-1].Path)

			isErr, text = run("edit_"+c.kind+"_hook", map[string]any{"hook_id": 7.0, "active": false})
			require.False(t, isErr, text)
			noSecrets(t, text)
			b = body(t, f, -1)
			assert.Equal(t, false, b["active"])
			assert.Equal(t, []any{"push", "issues"}, b["events"])
			assert.Equal(t, "Bearer hdr-value", b["authorization_header"])

			isErr, text = run("delete_"+c.kind+"_hook", map[string]any{"hook_id": 7.0})
			require.False(t, isErr, text)
			assert.JSONEq(t, `{"deleted":true,"id":7}`, text)

			isErr, text = run("get_"+c.kind+"_hook", map[string]any{"hook_id": 9.0})
			assert.True(t, isErr)
			assert.Contains(t, text, c.missing)
		})
	}
}
