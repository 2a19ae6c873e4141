package actions_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
)

const liveRelease = `name: Release
on:
  push:
    tags: ['v*']
  workflow_dispatch:
    inputs:
      level:
        description: Log level
        required: true
        type: choice
        options: [debug, info]
      dry_run:
        type: boolean
        default: false
jobs:
  release:
    runs-on: no-such-runner
    steps:
      - run: echo ${{ inputs.level }}
`

// TestLiveWorkflows: a repository's workflows are listed (the forge's
// route, and the workflow folder as on Forgejo), read with their dispatch
// inputs, disabled and enabled; a dispatch is checked against the
// workflow's inputs before it is sent.
func TestLiveWorkflows(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	f.AddWorkflow(t, owner, repo, "release.yml", liveRelease)
	f.AddWorkflow(t, owner, repo, "lint.yml", "on: push\njobs:\n  l:\n    runs-on: x\n    steps: [{run: 'true'}]\n")
	defs := actions.Tools()
	call := f.RepoCaller(t, defs, owner, repo)
	args := func(m map[string]any) map[string]any { m["owner"], m["repo"] = owner, repo; return m }

	var list actions.WorkflowList
	require.NoError(t, json.Unmarshal([]byte(call("list_workflows", map[string]any{})), &list))
	ids := map[string]actions.WorkflowEntry{}
	for _, w := range list.Workflows {
		ids[w.ID] = w
	}
	require.Contains(t, ids, "release.yml")
	require.Contains(t, ids, "lint.yml")
	assert.Equal(t, ".gitea/workflows/release.yml", ids["release.yml"].Path)

	// With a ref, the folder is listed (Forgejo's way, on every forge).
	require.NoError(t, json.Unmarshal([]byte(call("list_workflows", map[string]any{"ref": "main"})), &list))
	assert.Len(t, list.Workflows, 2)

	var got actions.WorkflowDetail
	require.NoError(t, json.Unmarshal([]byte(call("get_workflow", map[string]any{"workflow": "release.yml"})), &got))
	assert.Equal(t, "Release", got.Name)
	assert.True(t, got.Dispatchable)
	assert.Equal(t, liveRelease, got.Content)
	require.Len(t, got.Inputs, 2)
	assert.Equal(t, "level", got.Inputs[0].Name)
	assert.True(t, got.Inputs[0].Required)

	res := f.Call(t, defs, "dispatch_workflow", args(map[string]any{"workflow": "release.yml", "ref": "main",
		"inputs": map[string]any{"level": "trace", "dryrun": "true"}}))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `"level" is one of "debug", "info", not "trace"`)
	assert.Contains(t, fakeforge.Text(t, res), `"dryrun" is not an input of this workflow`)
	res = f.Call(t, defs, "dispatch_workflow", args(map[string]any{"workflow": "lint.yml", "ref": "main"}))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), ".gitea/workflows/lint.yml has no workflow_dispatch trigger")

	text := call("dispatch_workflow", map[string]any{"workflow": "release.yml", "ref": "main", "inputs": map[string]any{"level": "info"}})
	assert.Contains(t, text, `"inputs_checked":true`)

	if f.Lacks(t, "PUT", "/repos/"+owner+"/"+repo+"/actions/workflows/release.yml/disable") {
		f.RequireMissingRoute(t, f.Call(t, defs, "disable_workflow", args(map[string]any{"workflow": "release.yml"})))
		return
	}
	assert.JSONEq(t, `{"workflow":"release.yml","state":"disabled_manually"}`, call("disable_workflow", map[string]any{"workflow": "release.yml"}))
	require.NoError(t, json.Unmarshal([]byte(call("list_workflows", map[string]any{})), &list))
	for _, w := range list.Workflows {
		if w.ID == "release.yml" {
			assert.Equal(t, "disabled_manually", w.State)
		}
	}
	assert.JSONEq(t, `{"workflow":"release.yml","state":"active"}`, call("enable_workflow", map[string]any{"workflow": "release.yml"}))
	res = f.Call(t, defs, "enable_workflow", args(map[string]any{"workflow": "nope.yml"}))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "workflow nope.yml of "+owner+"/"+repo+" not found (404)")
}
