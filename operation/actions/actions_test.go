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

var rawRun = map[string]any{
	"id": 7, "html_url": "http://x/o/r/actions/runs/7", "display_title": "fix build", "path": "ci.yml@refs/heads/main",
	"event": "push", "run_number": 3, "head_sha": "abc", "head_branch": "main", "status": "completed",
	"conclusion": "failure", "actor": map[string]any{"login": "alice", "email": "a@x"},
	"started_at": "2026-01-02T03:04:05Z", "completed_at": "1970-01-01T00:00:00Z",
	"repository": map[string]any{"id": 1, "name": "r"},
}

const compactRun = `{"id":7,"run_number":3,"workflow":"ci.yml","title":"fix build","status":"completed","conclusion":"failure",
	"branch":"main","sha":"abc","event":"push","actor":"alice","started":"2026-01-02T03:04:05Z","html_url":"http://x/o/r/actions/runs/7"}`

func TestListWorkflowRuns(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/actions/runs", 200, map[string]any{"workflow_runs": []any{rawRun, nil}, "total_count": 5})
	res := f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "o", "repo": "r",
		"status": "failure", "branch": "main", "event": "push", "limit": 2.0, "page": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[`+compactRun+`],"page":2,"has_more":true}`, fakeforge.Text(t, res))
	assert.Equal(t, "branch=main&event=push&limit=2&page=2&ref=refs%2Fheads%2Fmain&status=failure", f.LastQuery(t).Encode(),
		"Gitea filters by branch, Forgejo by ref: both are sent")
}

func TestListWorkflowRunsDisabled(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "o", "repo": "r"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "Actions are disabled")
}

func TestGetWorkflowRun(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/actions/runs/7", 200, rawRun)
	res := f.Call(t, actions.Tools(), "get_workflow_run", map[string]any{"owner": "o", "repo": "r", "run_id": 7.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, compactRun, fakeforge.Text(t, res))

	res = f.Call(t, actions.Tools(), "get_workflow_run", map[string]any{"owner": "o", "repo": "r", "run_id": 8.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "workflow run 8 in o/r not found (404)")
}

func TestListActionRunJobs(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/actions/runs/7/jobs", 200, map[string]any{"total_count": 1, "jobs": []any{map[string]any{
		"id": 9, "run_id": 7, "name": "build", "labels": []string{"ubuntu-latest"}, "status": "completed",
		"conclusion": "success", "runner_name": "r1", "html_url": "http://x/j/9",
		"started_at": "2026-01-02T03:04:05Z", "completed_at": "2026-01-02T03:05:05Z",
		"steps": []any{map[string]any{"name": "Set up job", "number": 1, "status": "completed", "conclusion": "success"}},
	}}})
	res := f.Call(t, actions.Tools(), "list_action_run_jobs", map[string]any{"owner": "o", "repo": "r", "run_id": 7.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":9,"run_id":7,"name":"build","status":"completed","conclusion":"success",
		"labels":["ubuntu-latest"],"runner":"r1","started":"2026-01-02T03:04:05Z","completed":"2026-01-02T03:05:05Z",
		"steps":[{"number":1,"name":"Set up job","status":"completed","conclusion":"success"}],"html_url":"http://x/j/9"}],
		"page":1,"has_more":false}`, fakeforge.Text(t, res))
}

func TestGetActionJobLogsNotStarted(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/actions/jobs/9/logs", 404, map[string]any{"message": "not found", "errors": []string{"job not started"}})
	f.JSON("GET /api/v1/repos/o/r/actions/jobs/9", 200, map[string]any{"id": 9, "status": "queued", "labels": []string{"ubuntu-latest"}})
	res := f.Call(t, actions.Tools(), "get_action_job_logs", map[string]any{"owner": "o", "repo": "r", "job_id": 9.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `Actions job 9 in o/r has no log yet (status "queued")`)

	res = f.Call(t, actions.Tools(), "get_action_job_logs", map[string]any{"owner": "o", "repo": "r", "job_id": 10.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "Actions job 10 in o/r not found (404)")
}

func TestDispatchWorkflow(t *testing.T) {
	ok := func(inputs map[string]any) map[string]any { return map[string]any{"ref": "main", "inputs": inputs} }
	tests := []struct {
		name    string
		inputs  any
		want    map[string]any // the body sent; nil when nothing may be sent
		wantErr string
	}{
		{"object", map[string]any{"greeting": "hi=there", "empty": ""}, ok(map[string]any{"greeting": "hi=there", "empty": ""}), ""},
		{"numbers and booleans as their text", map[string]any{"n": 3.0, "debug": true}, ok(map[string]any{"n": "3", "debug": "true"}), ""},
		{"object as JSON text (--cli)", `{"level":"debug"}`, ok(map[string]any{"level": "debug"}), ""},
		{"key=value list, the old form", []any{"greeting=hi=there", "empty="}, ok(map[string]any{"greeting": "hi=there", "empty": ""}), ""},
		{"none", nil, map[string]any{"ref": "main"}, ""},
		{"list item without =", []any{"novalue"}, nil, `given as a list, item 0 ("novalue") is not key=value`},
		{"nested object", map[string]any{"a": map[string]any{"b": "c"}}, nil, `entry "a" must be a string, got an object`},
		{"not an object", 7.0, nil, `argument "inputs" must be an object of strings, e.g. {"name": "value"}, got a number`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			var body map[string]any
			f.Handle("POST /api/v1/repos/o/r/actions/workflows/{wf}/dispatches", func(w http.ResponseWriter, r *http.Request) {
				require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
				w.WriteHeader(http.StatusNoContent)
			})
			args := map[string]any{"owner": "o", "repo": "r", "workflow": "ci.yml", "ref": "main"}
			if tc.inputs != nil {
				args["inputs"] = tc.inputs
			}
			res := f.Call(t, actions.Tools(), "dispatch_workflow", args)
			if tc.wantErr != "" {
				require.True(t, res.IsError)
				assert.Contains(t, fakeforge.Text(t, res), tc.wantErr)
				assert.Empty(t, f.Requests())
				return
			}
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.Equal(t, tc.want, body)
			assert.Contains(t, fakeforge.Text(t, res), "workflow ci.yml on main in o/r")
		})
	}
}

func TestDispatchWorkflowNeedsAFileName(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, actions.Tools(), "dispatch_workflow", map[string]any{"owner": "o", "repo": "r",
		"workflow": ".gitea/workflows/ci.yml", "ref": "main"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "without a folder")
	assert.Empty(t, f.Requests())
}
