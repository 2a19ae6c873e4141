package actions_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
)

const workflow = `name: Demo
on:
  workflow_dispatch:
    inputs:
      greeting:
        type: string
        default: hi
jobs:
  hello:
    runs-on: ubuntu-latest
    steps:
      - run: echo ${{ inputs.greeting }}
`

// The test forge has Actions enabled (Gitea's default) and no runner: a
// dispatch makes a queued run whose job never starts, so it has no log.
func TestLiveActionsLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	f.AddWorkflow(t, owner, repo, "demo.yml", workflow)
	defs := actions.Tools()
	call := f.RepoCaller(t, defs, owner, repo)

	text := call("dispatch_workflow", map[string]any{"workflow": "demo.yml", "ref": "main", "inputs": map[string]any{"greeting": "yo"}})
	assert.Contains(t, text, "workflow demo.yml on main")
	if f.Lacks(t, "GET", "/repos/"+owner+"/"+repo+"/actions/runs") {
		runToolsMissing(t, f, owner, repo)
		return
	}

	var runs struct {
		Items []struct {
			ID       int64  `json:"id"`
			Workflow string `json:"workflow"`
			Title    string `json:"title"`
			Status   string `json:"status"`
			Branch   string `json:"branch"`
			Event    string `json:"event"`
			SHA      string `json:"sha"`
		} `json:"items"`
	}
	for i := 0; i < 300 && len(runs.Items) == 0; i++ { // the forge creates the run ~2 s after the dispatch
		text = call("list_workflow_runs", map[string]any{"event": "workflow_dispatch", "branch": "main"})
		require.NoError(t, json.Unmarshal([]byte(text), &runs))
		if len(runs.Items) == 0 {
			time.Sleep(100 * time.Millisecond)
		}
	}
	require.Len(t, runs.Items, 1, text)
	run := runs.Items[0]
	assert.Equal(t, "demo.yml", run.Workflow)
	assert.Equal(t, "add demo", run.Title)
	assert.Equal(t, "main", run.Branch)
	assert.Equal(t, "workflow_dispatch", run.Event)
	assert.NotEmpty(t, run.SHA)
	assert.Equal(t, "queued", run.Status, "no runner: queued on both forges (Forgejo's own word, waiting, is forge_status)")

	text = call("list_workflow_runs", map[string]any{"event": "push", "status": "success"})
	assert.Contains(t, text, `"items":[]`)
	// The status filter, sent in the forge's words and checked on the result.
	text = call("list_workflow_runs", map[string]any{"status": "queued"})
	assert.Contains(t, text, fmt.Sprintf(`"id":%d`, run.ID))
	text = call("list_workflow_runs", map[string]any{"status": "completed"})
	assert.Contains(t, text, `"items":[]`)

	text = call("get_workflow_run", map[string]any{"run_id": run.ID})
	assert.Contains(t, text, `"workflow":"demo.yml"`)

	text = call("list_action_run_jobs", map[string]any{"run_id": run.ID})
	var jobs struct {
		Items []struct {
			ID     int64    `json:"id"`
			Name   string   `json:"name"`
			Status string   `json:"status"`
			Labels []string `json:"labels"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &jobs))
	require.Len(t, jobs.Items, 1, text)
	assert.Equal(t, "hello", jobs.Items[0].Name)
	assert.Equal(t, []string{"ubuntu-latest"}, jobs.Items[0].Labels)

	res := f.Call(t, defs, "get_action_job_logs", map[string]any{"owner": owner, "repo": repo, "job_id": jobs.Items[0].ID})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "has no log yet")
	assert.Contains(t, fakeforge.Text(t, res), "no runner has started it")
}

func TestLiveActionsErrors(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := actions.Tools()
	args := func(m map[string]any) map[string]any { m["owner"], m["repo"] = owner, repo; return m }

	res := f.Call(t, defs, "dispatch_workflow", args(map[string]any{"workflow": "nope.yml", "ref": "main"}))
	assert.True(t, res.IsError)
	// Forgejo 10 answers a missing workflow with 500 "workflow not found": a 404 all the same.
	assert.Contains(t, fakeforge.Text(t, res), "workflow nope.yml on main in "+owner+"/"+repo+" not found (404)")
	if f.Lacks(t, "GET", "/repos/"+owner+"/"+repo+"/actions/runs") {
		// Forgejo 10 has no run routes.
		f.RequireMissingRoute(t, f.Call(t, defs, "get_workflow_run", args(map[string]any{"run_id": 999999})))
		f.RequireMissingRoute(t, f.Call(t, defs, "get_action_job_logs", args(map[string]any{"job_id": 999999})))
		f.RequireMissingRoute(t, f.WithToken(f.Token2).Call(t, defs, "list_workflow_runs", args(map[string]any{})))
		return
	}

	res = f.Call(t, defs, "get_workflow_run", args(map[string]any{"run_id": 999999}))
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "workflow run 999999 in "+owner+"/"+repo+" not found (404)")

	res = f.Call(t, defs, "get_action_job_logs", args(map[string]any{"job_id": 999999}))
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "Actions job 999999 in "+owner+"/"+repo+" not found (404)")

	// A user who cannot see the private repository gets the 404 explained.
	res = f.WithToken(f.Token2).Call(t, defs, "list_workflow_runs", args(map[string]any{}))
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "or Actions are disabled for it or on the forge")
}

// runToolsMissing is the Actions lifecycle on a forge with Actions but
// without the API to read runs (Forgejo 10: dispatch, secrets, variables
// and a runner's task list only): the dispatch was accepted, and every tool
// that reads runs, jobs, logs or artifacts answers that the route is
// missing, naming the forge, never that the run is.
func runToolsMissing(t *testing.T, f *testforge.Forge, owner, repo string) {
	t.Helper()
	defs := actions.Tools()
	for name, args := range map[string]map[string]any{
		"list_workflow_runs":   {"event": "workflow_dispatch"},
		"get_workflow_run":     {"run_id": 1},
		"list_action_run_jobs": {"run_id": 1},
		"get_action_job_logs":  {"job_id": 1},
		"list_run_artifacts":   {"run_id": 1},
		"download_artifact":    {"artifact_id": 1},
		"cancel_workflow_run":  {"run_id": 1},
		"rerun_workflow_run":   {"run_id": 1},
	} {
		args["owner"], args["repo"] = owner, repo
		t.Run(name, func(t *testing.T) { f.RequireMissingRoute(t, f.Call(t, defs, name, args)) })
	}
}
