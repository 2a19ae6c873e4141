package actionsconfig_test

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actionsconfig"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// callAt runs name with args (no owner/repo added) through a Runner
// that logs at debug into logs.
func callAt(t *testing.T, f *fakeforge.Server, logs *bytes.Buffer, name string, args map[string]any) (bool, string) {
	t.Helper()
	d, ok := tool.Find(actionsconfig.Tools(), name)
	require.True(t, ok, name)
	c := f.Client()
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 5 * time.Second,
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	res := r.Call(context.Background(), d, args)
	schemacheck.Result(t, d, res)
	return res.IsError, fakeforge.Text(t, res)
}

// TestOrgAndUserLevels: an organisation's and the token user's secrets
// and variables take the same tools and checks as a repository's, on
// their own routes; a secret's value never comes back or reaches a log.
func TestOrgAndUserLevels(t *testing.T) {
	for _, c := range []struct {
		noun, route, ref string
		args             map[string]any
		listsSecrets     bool
	}{
		{"org", "/api/v1/orgs/acme", "organisation acme", map[string]any{"org": "acme"}, true},
		{"my", "/api/v1/user", "the token's user", map[string]any{}, false},
	} {
		t.Run(c.noun, func(t *testing.T) {
			f := fakeforge.New(t)
			var logs bytes.Buffer
			with := func(more map[string]any) map[string]any {
				out := map[string]any{}
				for k, v := range c.args {
					out[k] = v
				}
				for k, v := range more {
					out[k] = v
				}
				return out
			}
			v := map[string]any{"name": "REGION", "data": "eu-west"}
			f.JSON("GET "+c.route+"/actions/secrets", 200, []any{map[string]any{"name": "DEPLOY_KEY", "created_at": "2026-01-02T03:04:05Z"}})
			f.JSON("PUT "+c.route+"/actions/secrets/DEPLOY_KEY", 201, nil)
			f.JSON("PUT "+c.route+"/actions/secrets/GITEA_X", 400, map[string]any{"message": "invalid secret name"})
			f.JSON("DELETE "+c.route+"/actions/secrets/DEPLOY_KEY", 204, nil)
			f.JSON("GET "+c.route+"/actions/variables", 200, []any{v})
			f.JSON("GET "+c.route+"/actions/variables/REGION", 200, v)
			f.JSON("GET "+c.route+"/actions/variables/NOPE", 404, map[string]any{"message": "variable not found"})
			f.JSON("POST "+c.route+"/actions/variables/REGION", 201, nil)
			f.JSON("PUT "+c.route+"/actions/variables/REGION", 204, nil)
			f.JSON("DELETE "+c.route+"/actions/variables/REGION", 204, nil)

			_, listed := tool.Find(actionsconfig.Tools(), "list_"+c.noun+"_action_secrets")
			require.Equal(t, c.listsSecrets, listed, "the forges list an organisation's secrets, not a user's")
			if c.listsSecrets {
				isErr, text := callAt(t, f, &logs, "list_"+c.noun+"_action_secrets", with(nil))
				require.False(t, isErr, text)
				assert.JSONEq(t, `{"items":[{"name":"DEPLOY_KEY","created_at":"2026-01-02T03:04:05Z"}],"page":1,"has_more":false}`, text)
			}

			isErr, text := callAt(t, f, &logs, "upsert_"+c.noun+"_action_secret", with(map[string]any{"name": "DEPLOY_KEY", "value": secretValue}))
			require.False(t, isErr, text)
			assert.JSONEq(t, `{"set":true,"name":"DEPLOY_KEY"}`, text)
			assert.Equal(t, map[string]any{"data": secretValue}, lastBody(t, f))
			assert.Equal(t, c.route+"/actions/secrets/DEPLOY_KEY", f.Requests()[len(f.Requests())-1].Path)

			isErr, text = callAt(t, f, &logs, "upsert_"+c.noun+"_action_secret", with(map[string]any{"name": "GITEA_X", "value": secretValue}))
			assert.True(t, isErr)
			assert.Contains(t, text, "set Actions secret GITEA_X of "+c.ref+": the forge refused the request (400 Bad Request): invalid secret name")
			assert.NotContains(t, text, secretValue)

			isErr, text = callAt(t, f, &logs, "upsert_"+c.noun+"_action_secret", with(map[string]any{"name": "1BAD", "value": secretValue}))
			assert.True(t, isErr)
			assert.NotContains(t, text, secretValue)

			isErr, text = callAt(t, f, &logs, "delete_"+c.noun+"_action_secret", with(map[string]any{"name": "DEPLOY_KEY"}))
			require.False(t, isErr, text)
			assert.JSONEq(t, `{"deleted":true,"name":"DEPLOY_KEY"}`, text)

			isErr, text = callAt(t, f, &logs, "list_"+c.noun+"_action_variables", with(map[string]any{"limit": 5.0}))
			require.False(t, isErr, text)
			assert.JSONEq(t, `{"items":[{"name":"REGION","value":"eu-west"}],"page":1,"has_more":false}`, text)
			assert.Equal(t, "limit=5&page=1", f.Requests()[len(f.Requests())-1].RawQuery)

			isErr, text = callAt(t, f, &logs, "get_"+c.noun+"_action_variable", with(map[string]any{"name": "REGION"}))
			require.False(t, isErr, text)
			assert.JSONEq(t, `{"name":"REGION","value":"eu-west"}`, text)
			isErr, text = callAt(t, f, &logs, "get_"+c.noun+"_action_variable", with(map[string]any{"name": "NOPE"}))
			assert.True(t, isErr)
			assert.Contains(t, text, "Actions variable NOPE of "+c.ref+" not found (404)")

			for _, w := range []struct{ tool, method string }{{"create_" + c.noun + "_action_variable", "POST"}, {"update_" + c.noun + "_action_variable", "PUT"}} {
				isErr, text = callAt(t, f, &logs, w.tool, with(map[string]any{"name": "REGION", "value": "us-east"}))
				require.False(t, isErr, text)
				assert.JSONEq(t, `{"name":"REGION","value":"us-east"}`, text)
				assert.Equal(t, w.method, f.Requests()[len(f.Requests())-1].Method)
				assert.Equal(t, map[string]any{"value": "us-east"}, lastBody(t, f))
			}
			isErr, text = callAt(t, f, &logs, "delete_"+c.noun+"_action_variable", with(map[string]any{"name": "REGION"}))
			require.False(t, isErr, text)
			assert.JSONEq(t, `{"deleted":true,"name":"REGION"}`, text)

			assert.NotEmpty(t, logs.String())
			assert.NotContains(t, logs.String(), secretValue, "never logged")
		})
	}
}
