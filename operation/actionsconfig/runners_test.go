package actionsconfig_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

const regToken = "AAAAregistration-token-never-logged"

// TestRegistrationToken: Forgejo hands the token out on GET, Gitea on
// POST; either way it is in the result once and in no log, and a failure
// names the level without it.
func TestRegistrationToken(t *testing.T) {
	for _, c := range []struct {
		forge, version, method string
	}{
		{"Forgejo", "15.0.3+gitea-1.22.0", "GET"},
		{"Gitea", "1.26.0", "POST"},
	} {
		t.Run(c.forge, func(t *testing.T) {
			f := fakeforge.New(t)
			var logs bytes.Buffer
			f.JSON("GET /api/v1/version", 200, map[string]any{"version": c.version})
			f.JSON(c.method+" /api/v1/orgs/acme/actions/runners/registration-token", 200, map[string]any{"token": regToken})
			f.JSON(c.method+" /api/v1/orgs/nope/actions/runners/registration-token", 404, map[string]any{"message": "org not found"})
			isErr, text := callAt(t, f, &logs, "get_org_runner_registration_token", map[string]any{"org": "acme"})
			require.False(t, isErr, text)
			assert.Contains(t, text, `"token":"`+regToken+`"`)
			assert.Contains(t, text, "shown once")
			isErr, text = callAt(t, f, &logs, "get_org_runner_registration_token", map[string]any{"org": "nope"})
			require.True(t, isErr)
			assert.Contains(t, text, "organisation nope not found (404)")
			assert.NotContains(t, logs.String(), regToken)
			assert.NotEmpty(t, logs.String())
		})
	}
}

// TestRunnersInBothShapes: Forgejo lists runners as a list with label
// names, Gitea as an object with label objects; both read the same.
func TestRunnersInBothShapes(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
	f.JSON("GET /api/v1/repos/o/r/actions/runners", 200, []any{map[string]any{"id": 3, "name": "r1", "status": "idle",
		"labels": []string{"docker"}, "uuid": "u-1", "version": "v9", "owner_id": 0, "repo_id": 4}})
	f.JSON("GET /api/v1/user/actions/runners", 200, map[string]any{"total_count": 1, "runners": []any{map[string]any{"id": 5, "name": "g1",
		"status": "online", "busy": true, "labels": []any{map[string]any{"id": 1, "name": "ubuntu-latest", "type": "custom"}}}}})
	f.JSON("GET /api/v1/repos/o/r/actions/runners/3", 200, map[string]any{"id": 3, "name": "r1", "status": "offline", "labels": []string{"docker"}})
	f.JSON("DELETE /api/v1/repos/o/r/actions/runners/3", 204, nil)
	f.JSON("POST /api/v1/repos/o/r/actions/runners", 201, map[string]any{"id": 9, "uuid": "uu", "token": regToken})
	f.JSON("GET /api/v1/repos/o/r/actions/runners/jobs", 200, []any{map[string]any{"id": 12, "name": "build", "status": "waiting",
		"runs_on": []string{"docker"}, "handle": "h", "owner_id": 1}})
	repo := func(m map[string]any) map[string]any { m["owner"], m["repo"] = "o", "r"; return m }

	isErr, text := callAt(t, f, &logs, "list_repo_runners", repo(map[string]any{}))
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"id":3,"name":"r1","status":"idle","labels":["docker"],"version":"v9"}],"page":1,"has_more":false}`, text)
	isErr, text = callAt(t, f, &logs, "list_my_runners", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"id":5,"name":"g1","status":"online","busy":true,"labels":["ubuntu-latest"]}],"page":1,"has_more":false}`, text)
	isErr, text = callAt(t, f, &logs, "get_repo_runner", repo(map[string]any{"runner_id": 3.0}))
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"id":3,"name":"r1","status":"offline","labels":["docker"]}`, text)
	isErr, text = callAt(t, f, &logs, "delete_repo_runner", repo(map[string]any{"runner_id": 3.0}))
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"runner_id":3}`, text)
	isErr, text = callAt(t, f, &logs, "register_repo_runner", repo(map[string]any{"name": "new", "ephemeral": true}))
	require.False(t, isErr, text)
	assert.Contains(t, text, `"token":"`+regToken+`"`)
	assert.Equal(t, map[string]any{"name": "new", "description": "", "ephemeral": true}, lastBody(t, f))
	isErr, text = callAt(t, f, &logs, "search_repo_runner_jobs", repo(map[string]any{"labels": "docker"}))
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"id":12,"name":"build","status":"waiting","runs_on":["docker"]}]}`, text)
	assert.Equal(t, "labels=docker", f.Requests()[len(f.Requests())-1].RawQuery)
	assert.NotContains(t, logs.String(), regToken)
}

// TestRunnerRoutesGated: Forgejo 13 lacks the runner management routes
// and Gitea the job search: refused before anything is sent, saying what
// to do instead.
func TestRunnerRoutesGated(t *testing.T) {
	for _, c := range []struct {
		version, tool, instead string
	}{
		{"13.0.5+gitea-1.22.0", "list_org_runners", ""},
		{"13.0.5+gitea-1.22.0", "register_org_runner", "get_org_runner_registration_token gives the token"},
		{"1.26.0", "register_org_runner", ""},
		{"1.26.0", "search_org_runner_jobs", "list_workflow_runs status=queued"},
		{"15.0.3+gitea-1.22.0", "edit_org_runner", "Disabling or enabling a runner"},
	} {
		t.Run(c.version+" "+c.tool, func(t *testing.T) {
			f := fakeforge.New(t)
			var logs bytes.Buffer
			f.JSON("GET /api/v1/version", 200, map[string]any{"version": c.version})
			args := map[string]any{"org": "acme"}
			switch c.tool {
			case "register_org_runner":
				args["name"] = "x"
			case "edit_org_runner":
				args["runner_id"], args["disabled"] = 3.0, true
			}
			isErr, text := callAt(t, f, &logs, c.tool, args)
			require.True(t, isErr)
			assert.Contains(t, text, "has no such API route, so nothing was sent")
			assert.Contains(t, text, c.instead)
			for _, r := range f.Requests() {
				assert.Equal(t, "/api/v1/version", r.Path)
			}
		})
	}
}

// TestEditRunner: Gitea disables and enables a runner with PATCH
// {"disabled": …}, the one field its EditActionRunnerOption has, and
// answers the runner; a missing one is named.
func TestEditRunner(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "1.26.0"})
	f.JSON("PATCH /api/v1/repos/o/r/actions/runners/3", 200, map[string]any{"id": 3, "name": "r1", "status": "offline", "disabled": true,
		"labels": []any{map[string]any{"id": 1, "name": "docker", "type": "custom"}}})
	f.JSON("PATCH /api/v1/user/actions/runners/4", 404, map[string]any{"message": "runner not found"})
	isErr, text := callAt(t, f, &logs, "edit_repo_runner", map[string]any{"owner": "o", "repo": "r", "runner_id": 3.0, "disabled": true})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"id":3,"name":"r1","status":"offline","labels":["docker"],"disabled":true}`, text)
	assert.Equal(t, map[string]any{"disabled": true}, lastBody(t, f))
	isErr, text = callAt(t, f, &logs, "edit_my_runner", map[string]any{"runner_id": 4.0, "disabled": false})
	require.True(t, isErr)
	assert.Equal(t, "runner 4 of the token's user not found (404): it does not exist or this token cannot see it: runner not found", text)
	assert.Equal(t, map[string]any{"disabled": false}, lastBody(t, f), "false is sent, not left out")
}
