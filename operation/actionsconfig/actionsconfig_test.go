package actionsconfig_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actionsconfig"
)

const secretValue = "s3cr3t-value-never-echoed"

// call runs name on o/r through a Runner that logs at debug into logs
// (callAt), and checks the result against its outputSchema.
func call(t *testing.T, f *fakeforge.Server, logs *bytes.Buffer, name string, args map[string]any) (bool, string) {
	t.Helper()
	args["owner"], args["repo"] = "o", "r"
	return callAt(t, f, logs, name, args)
}

func lastBody(t *testing.T, f *fakeforge.Server) map[string]any {
	t.Helper()
	reqs := f.Requests()
	require.NotEmpty(t, reqs)
	var m map[string]any
	require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &m))
	return m
}

// TestSecrets: a secret's value goes to the forge in the body and never
// comes back: not in a result, an error (the forge's or ours) or a log.
func TestSecrets(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("GET /api/v1/repos/o/r/actions/secrets", 200, []any{
		map[string]any{"name": "DEPLOY_KEY", "data": "", "created_at": "2026-01-02T03:04:05Z"}})
	f.JSON("PUT /api/v1/repos/o/r/actions/secrets/DEPLOY_KEY", 201, nil)
	f.JSON("PUT /api/v1/repos/o/r/actions/secrets/GITEA_X", 400, map[string]any{"message": "invalid secret name"})
	f.JSON("DELETE /api/v1/repos/o/r/actions/secrets/DEPLOY_KEY", 204, nil)

	isErr, text := call(t, f, &logs, "list_repo_action_secrets", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"name":"DEPLOY_KEY","created_at":"2026-01-02T03:04:05Z"}],"page":1,"has_more":false}`, text)

	isErr, text = call(t, f, &logs, "upsert_repo_action_secret", map[string]any{"name": "DEPLOY_KEY", "value": secretValue})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"set":true,"name":"DEPLOY_KEY"}`, text)
	assert.Equal(t, map[string]any{"data": secretValue}, lastBody(t, f))
	assert.Equal(t, "/api/v1/repos/o/r/actions/secrets/DEPLOY_KEY", f.Requests()[len(f.Requests())-1].Path)

	isErr, text = call(t, f, &logs, "upsert_repo_action_secret", map[string]any{"name": "GITEA_X", "value": secretValue})
	assert.True(t, isErr)
	assert.Contains(t, text, "set Actions secret GITEA_X of repository o/r: the forge refused the request (400 Bad Request): invalid secret name")

	sent := len(f.Requests())
	for _, bad := range []map[string]any{
		{"name": "1BAD", "value": secretValue},
		{"name": "A/B", "value": secretValue},
		{"name": "OK", "value": strings.Repeat(secretValue, 3000)},
	} {
		isErr, text = call(t, f, &logs, "upsert_repo_action_secret", bad)
		assert.True(t, isErr, text)
		assert.Contains(t, text, "invalid arguments for upsert_repo_action_secret")
		assert.NotContains(t, text, secretValue)
	}
	assert.Len(t, f.Requests(), sent, "refused arguments send nothing")

	isErr, text = call(t, f, &logs, "delete_repo_action_secret", map[string]any{"name": "DEPLOY_KEY"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"name":"DEPLOY_KEY"}`, text)
	assert.Equal(t, "DELETE", f.Requests()[len(f.Requests())-1].Method)

	assert.NotEmpty(t, logs.String())
	assert.NotContains(t, logs.String(), secretValue, "never logged")
}

func TestVariables(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	v := map[string]any{"name": "REGION", "data": "eu-west", "owner_id": 0, "repo_id": 4}
	f.JSON("GET /api/v1/repos/o/r/actions/variables", 200, []any{v})
	f.JSON("GET /api/v1/repos/o/r/actions/variables/REGION", 200, v)
	f.JSON("GET /api/v1/repos/o/r/actions/variables/NOPE", 404, map[string]any{"message": "variable not found"})
	f.JSON("POST /api/v1/repos/o/r/actions/variables/REGION", 201, nil)
	f.JSON("POST /api/v1/repos/o/r/actions/variables/TAKEN", 409, map[string]any{"message": "variable name TAKEN already exists"})
	f.JSON("PUT /api/v1/repos/o/r/actions/variables/REGION", 204, nil)
	f.JSON("DELETE /api/v1/repos/o/r/actions/variables/REGION", 204, nil)

	isErr, text := call(t, f, &logs, "list_repo_action_variables", map[string]any{"limit": 5.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"name":"REGION","value":"eu-west"}],"page":1,"has_more":false}`, text)
	assert.Equal(t, "limit=5&page=1", f.Requests()[len(f.Requests())-1].RawQuery)

	isErr, text = call(t, f, &logs, "get_repo_action_variable", map[string]any{"name": "REGION"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"name":"REGION","value":"eu-west"}`, text)

	isErr, text = call(t, f, &logs, "get_repo_action_variable", map[string]any{"name": "NOPE"})
	assert.True(t, isErr)
	assert.Contains(t, text, "Actions variable NOPE of repository o/r not found (404)")

	for _, c := range []struct{ tool, method string }{{"create_repo_action_variable", "POST"}, {"update_repo_action_variable", "PUT"}} {
		isErr, text = call(t, f, &logs, c.tool, map[string]any{"name": "REGION", "value": "us-east"})
		require.False(t, isErr, text)
		assert.JSONEq(t, `{"name":"REGION","value":"us-east"}`, text)
		assert.Equal(t, c.method, f.Requests()[len(f.Requests())-1].Method)
		assert.Equal(t, map[string]any{"value": "us-east"}, lastBody(t, f))
	}

	isErr, text = call(t, f, &logs, "create_repo_action_variable", map[string]any{"name": "TAKEN", "value": "x"})
	assert.True(t, isErr)
	assert.Contains(t, text, "create Actions variable TAKEN of repository o/r")
	assert.Contains(t, text, "already exists")

	isErr, text = call(t, f, &logs, "delete_repo_action_variable", map[string]any{"name": "REGION"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"name":"REGION"}`, text)
}

// TestAnnotationsMatchMethods: what each tool says it does is what it
// sends.
func TestAnnotationsMatchMethods(t *testing.T) {
	for _, d := range actionsconfig.Tools() {
		assert.Equal(t, "actions-config", d.Toolset.ID, d.Name)
		assert.False(t, d.Toolset.Default, "%s is not in the default selection", d.Name)
		switch {
		case strings.HasSuffix(d.Name, "_runner_registration_token"):
			// It makes a token when there is none: a write, never a delete.
			assert.False(t, d.Annotations.ReadOnly, d.Name)
			assert.False(t, d.Annotations.Destructive, d.Name)
		case strings.HasPrefix(d.Name, "list_"), strings.HasPrefix(d.Name, "get_"), strings.HasPrefix(d.Name, "search_"):
			assert.True(t, d.Annotations.ReadOnly, d.Name)
		case strings.HasPrefix(d.Name, "create_"), strings.HasPrefix(d.Name, "register_"):
			assert.False(t, d.Annotations.Destructive, d.Name)
		default:
			assert.True(t, d.Annotations.Destructive, "%s replaces or deletes", d.Name)
		}
	}
}
