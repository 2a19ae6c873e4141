package actionsconfig_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actionsconfig"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestLiveRunners: a repository's registration token is handed out
// (Gitea: POST, Forgejo: GET) and never logged; a runner registered with
// the forge is listed, read and deleted; the routes this forge lacks are
// refused before anything is sent.
func TestLiveRunners(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := actionsconfig.Tools()
	args := func(m map[string]any) map[string]any { m["owner"], m["repo"] = owner, repo; return m }

	// The token goes through a Runner logging at debug: it must not reach the log.
	var logs bytes.Buffer
	d, ok := tool.Find(defs, "get_repo_runner_registration_token")
	require.True(t, ok)
	c := f.Client(t)
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 30 * time.Second,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	res := r.Call(context.Background(), d, args(map[string]any{}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var tok struct {
		Token string `json:"token"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &tok))
	require.NotEmpty(t, tok.Token)
	res = r.Call(context.Background(), d, map[string]any{"owner": owner, "repo": "no-such-repo"})
	require.True(t, res.IsError)
	assert.NotContains(t, logs.String(), tok.Token)
	assert.NotContains(t, fakeforge.Text(t, res), tok.Token)

	if f.Lacks(t, "GET", "/repos/"+owner+"/"+repo+"/actions/runners") {
		f.RequireMissingRoute(t, f.Call(t, defs, "list_repo_runners", args(map[string]any{})))
		return
	}
	runner := f.NewRunner(t, owner, repo)
	call := f.RepoCaller(t, defs, owner, repo)
	var list struct {
		Items []actionsconfig.Runner `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("list_repo_runners", map[string]any{})), &list))
	require.Len(t, list.Items, 1)
	got := list.Items[0]
	assert.Equal(t, runner.Label, got.Name)
	assert.Contains(t, got.Labels, runner.Label)

	var one actionsconfig.Runner
	require.NoError(t, json.Unmarshal([]byte(call("get_repo_runner", map[string]any{"runner_id": got.ID})), &one))
	assert.Equal(t, got.ID, one.ID)

	// Disabled, read back, enabled again: Gitea's PATCH, which no Forgejo has.
	forgejoRunner := f.Identify(t).Forgejo
	if forgejoRunner {
		f.RequireMissingRoute(t, f.Call(t, defs, "edit_repo_runner", args(map[string]any{"runner_id": got.ID, "disabled": true})))
	} else {
		for _, disabled := range []bool{true, false} {
			var ed actionsconfig.Runner
			require.NoError(t, json.Unmarshal([]byte(call("edit_repo_runner", map[string]any{"runner_id": got.ID, "disabled": disabled})), &ed))
			assert.Equal(t, disabled, ed.Disabled)
			require.NoError(t, json.Unmarshal([]byte(call("get_repo_runner", map[string]any{"runner_id": got.ID})), &ed))
			assert.Equal(t, disabled, ed.Disabled, "read back")
		}
	}

	assert.JSONEq(t, `{"deleted":true,"runner_id":`+jsonInt(got.ID)+`}`, call("delete_repo_runner", map[string]any{"runner_id": got.ID}))
	res = f.Call(t, defs, "get_repo_runner", args(map[string]any{"runner_id": got.ID}))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
	if !forgejoRunner {
		res = f.Call(t, defs, "edit_repo_runner", args(map[string]any{"runner_id": got.ID, "disabled": true}))
		require.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), "runner "+jsonInt(got.ID)+" of repository "+owner+"/"+repo+" not found (404)")
	}

	for name, more := range map[string]map[string]any{
		"register_repo_runner":    {"name": "x"},
		"search_repo_runner_jobs": {},
	} {
		if f.Lacks(t, map[string]string{"register_repo_runner": "POST", "search_repo_runner_jobs": "GET"}[name],
			"/repos/"+owner+"/"+repo+map[string]string{"register_repo_runner": "/actions/runners", "search_repo_runner_jobs": "/actions/runners/jobs"}[name]) {
			f.RequireMissingRoute(t, f.Call(t, defs, name, args(more)))
		}
	}
}

// TestLiveOrgAndUserRunnerTokens: an organisation's and a user's
// registration tokens, and their (empty) runner lists.
func TestLiveOrgAndUserRunnerTokens(t *testing.T) {
	f := testforge.Get(t)
	user := f.NewUser(t)
	defs := actionsconfig.Tools()
	res := user.Call(t, defs, "get_my_runner_registration_token", map[string]any{})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"token":"`)
	res = user.Call(t, defs, "list_my_runners", map[string]any{})
	if !res.IsError {
		assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, fakeforge.Text(t, res))
	} else {
		f.RequireMissingRoute(t, res)
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }
