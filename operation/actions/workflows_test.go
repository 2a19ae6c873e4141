package actions_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
)

const releaseWorkflow = `name: Release
on:
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
  x: {runs-on: docker, steps: [{run: echo}]}
`

func onForgejo(f *fakeforge.Server) {
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
}

func onGitea(f *fakeforge.Server) {
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "1.26.0"})
}

func rawFile(f *fakeforge.Server, route, body string) {
	f.Handle("GET "+route, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(body)) })
}

// TestWorkflowsOnForgejo: Forgejo has no workflow routes, so the
// workflow folder is listed and the file read; .gitea/workflows is read
// when .forgejo/workflows is missing, as Forgejo itself does.
func TestWorkflowsOnForgejo(t *testing.T) {
	f := fakeforge.New(t)
	onForgejo(f)
	f.JSON("GET /api/v1/repos/o/r/contents/.gitea/workflows", 200, []any{
		map[string]any{"name": "release.yml", "path": ".gitea/workflows/release.yml", "type": "file", "html_url": "http://x/o/r/src/branch/main/.gitea/workflows/release.yml"},
		map[string]any{"name": "README.md", "path": ".gitea/workflows/README.md", "type": "file"},
		map[string]any{"name": "lib", "path": ".gitea/workflows/lib", "type": "dir"},
	})
	rawFile(f, "/api/v1/repos/o/r/raw/.gitea/workflows/release.yml", releaseWorkflow)

	res := f.Call(t, actions.Tools(), "list_workflows", map[string]any{"owner": "o", "repo": "r"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"workflows":[{"id":"release.yml","path":".gitea/workflows/release.yml",
		"html_url":"http://x/o/r/src/branch/main/.gitea/workflows/release.yml"}],
		"note":"get_workflow reads one's name and dispatch inputs"}`, fakeforge.Text(t, res))
	assert.Empty(t, f.RequestsTo("GET", "/api/v1/repos/o/r/actions/workflows"), "the route gate knows Forgejo lacks it")

	res = f.Call(t, actions.Tools(), "get_workflow", map[string]any{"owner": "o", "repo": "r", "workflow": "release.yml", "ref": "v1"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var got actions.WorkflowDetail
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
	assert.Equal(t, "Release", got.Name)
	assert.True(t, got.Dispatchable)
	assert.Equal(t, ".gitea/workflows/release.yml", got.Path)
	assert.Equal(t, releaseWorkflow, got.Content)
	require.Len(t, got.Inputs, 2)
	assert.Equal(t, []string{"debug", "info"}, got.Inputs[0].Options)
	assert.Equal(t, "ref=v1", f.RequestsTo("GET", "/api/v1/repos/o/r/raw/.gitea/workflows/release.yml")[0].RawQuery)

	res = f.Call(t, actions.Tools(), "get_workflow", map[string]any{"owner": "o", "repo": "r", "workflow": "nope.yml"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "workflow nope.yml not found in o/r: looked in .forgejo/workflows and .gitea/workflows at the default branch")

	for _, verb := range []string{"enable", "disable"} {
		res = f.Call(t, actions.Tools(), verb+"_workflow", map[string]any{"owner": "o", "repo": "r", "workflow": "release.yml"})
		require.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), "has no such API route, so nothing was sent")
		assert.Contains(t, fakeforge.Text(t, res), "on the repository's Actions page")
	}
	assert.Empty(t, f.RequestsTo("PUT", "/api/v1/repos/o/r/actions/workflows/release.yml/enable"))
}

func TestWorkflowsOnGitea(t *testing.T) {
	f := fakeforge.New(t)
	onGitea(f)
	f.JSON("GET /api/v1/repos/o/r/actions/workflows", 200, map[string]any{"total_count": 1, "workflows": []any{
		map[string]any{"id": "ci.yml", "name": "CI", "path": ".gitea/workflows/ci.yml", "state": "disabled_manually",
			"html_url": "http://x/o/r/src/branch/main/.gitea/workflows/ci.yml", "badge_url": "http://x/badge"}}})
	f.JSON("PUT /api/v1/repos/o/r/actions/workflows/ci.yml/enable", 204, nil)
	f.JSON("PUT /api/v1/repos/o/r/actions/workflows/ci.yml/disable", 204, nil)

	res := f.Call(t, actions.Tools(), "list_workflows", map[string]any{"owner": "o", "repo": "r"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"workflows":[{"id":"ci.yml","name":"CI","path":".gitea/workflows/ci.yml","state":"disabled_manually",
		"html_url":"http://x/o/r/src/branch/main/.gitea/workflows/ci.yml"}]}`, fakeforge.Text(t, res))

	res = f.Call(t, actions.Tools(), "enable_workflow", map[string]any{"owner": "o", "repo": "r", "workflow": "ci.yml"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"workflow":"ci.yml","state":"active"}`, fakeforge.Text(t, res))
	res = f.Call(t, actions.Tools(), "disable_workflow", map[string]any{"owner": "o", "repo": "r", "workflow": "ci.yml"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"workflow":"ci.yml","state":"disabled_manually"}`, fakeforge.Text(t, res))

	res = f.Call(t, actions.Tools(), "enable_workflow", map[string]any{"owner": "o", "repo": "r", "workflow": "../x.yml"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "without a folder")
}

// TestDispatchChecksInputs: the workflow file at the ref is read and the
// inputs checked before the dispatch is sent; a workflow that cannot be
// read is left to the forge, and the result says its inputs were not
// checked.
func TestDispatchChecksInputs(t *testing.T) {
	for _, tc := range []struct {
		name       string
		file       string // "" for no file
		inputs     map[string]any
		wantErr    []string
		checked    bool
		wantInNote string
	}{
		{name: "valid", file: releaseWorkflow, inputs: map[string]any{"level": "info"}, checked: true},
		{name: "every problem at once", file: releaseWorkflow, inputs: map[string]any{"levl": "info", "dry_run": "yes"}, wantErr: []string{
			`"levl" is not an input of this workflow`, `"dry_run" is a boolean`, `"level" is required`, "nothing was sent"}},
		{name: "not dispatchable", file: "on: push\n", wantErr: []string{"has no workflow_dispatch trigger"}},
		{name: "no file", inputs: map[string]any{"x": "y"}, wantInNote: "inputs not checked: workflow release.yml not found"},
		{name: "not YAML", file: "on: [\n", wantInNote: "inputs not checked: .forgejo/workflows/release.yml: the workflow file is not valid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			onForgejo(f)
			if tc.file != "" {
				rawFile(f, "/api/v1/repos/o/r/raw/.forgejo/workflows/release.yml", tc.file)
			}
			f.JSON("POST /api/v1/repos/o/r/actions/workflows/release.yml/dispatches", 204, nil)
			args := map[string]any{"owner": "o", "repo": "r", "workflow": "release.yml", "ref": "main"}
			if tc.inputs != nil {
				args["inputs"] = tc.inputs
			}
			res := f.Call(t, actions.Tools(), "dispatch_workflow", args)
			text := fakeforge.Text(t, res)
			sent := f.RequestsTo("POST", "/api/v1/repos/o/r/actions/workflows/release.yml/dispatches")
			if tc.wantErr != nil {
				require.True(t, res.IsError, text)
				for _, w := range tc.wantErr {
					assert.Contains(t, text, w)
				}
				assert.Empty(t, sent)
				return
			}
			require.False(t, res.IsError, text)
			require.Len(t, sent, 1)
			if tc.file != "" {
				assert.Equal(t, "ref=main", f.RequestsTo("GET", "/api/v1/repos/o/r/raw/.forgejo/workflows/release.yml")[0].RawQuery, "read at the dispatch's ref")
			}
			var out map[string]any
			require.NoError(t, json.Unmarshal([]byte(text), &out))
			assert.Equal(t, tc.checked, out["inputs_checked"])
			if tc.wantInNote != "" {
				assert.Contains(t, out["note"], tc.wantInNote)
			}
		})
	}
}

func TestListActionTasks(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/actions/tasks", 200, map[string]any{"total_count": 3, "workflow_runs": []any{
		map[string]any{"id": 9, "name": "test", "display_title": "fix build", "workflow_id": "ci.yml", "status": "failure",
			"run_number": 4, "event": "push", "head_branch": "main", "head_sha": "abc", "url": "http://x/o/r/actions/runs/4/jobs/0",
			"run_started_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:05:05Z", "created_at": "2026-01-02T03:04:00Z"}}})
	res := f.Call(t, actions.Tools(), "list_action_tasks", map[string]any{"owner": "o", "repo": "r", "limit": 1.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":9,"job":"test","title":"fix build","workflow":"ci.yml","status":"failure","run_number":4,
		"event":"push","branch":"main","sha":"abc","started":"2026-01-02T03:04:05Z","updated":"2026-01-02T03:05:05Z",
		"html_url":"http://x/o/r/actions/runs/4/jobs/0"}],"page":1,"has_more":true}`, fakeforge.Text(t, res))
	assert.Equal(t, "limit=1&page=1", f.Requests()[len(f.Requests())-1].RawQuery)
}
