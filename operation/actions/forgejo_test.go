package actions_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
)

// Forgejo's ActionRun, as its API description defines it.
var forgejoRun = map[string]any{
	"id": 7, "html_url": "http://x/o/r/actions/runs/3", "title": "fix build", "workflow_id": "ci.yml",
	"index_in_repo": 3, "commit_sha": "abc", "prettyref": "main", "event": "push", "trigger_event": "push",
	"status": "failure", "trigger_user": map[string]any{"login": "alice", "pronouns": "she/her"},
	"started": "2026-01-02T03:04:05Z", "stopped": "2026-01-02T03:05:10Z", "duration": 65_000_000_000,
	"created": "2026-01-02T03:04:00Z", "updated": "2026-01-02T03:05:10Z", "need_approval": false,
	"repository": map[string]any{"id": 1, "name": "r", "wiki_branch": "main"},
}

// The same run, compact: every field an agent reads is filled from
// Forgejo's names.
const forgejoCompactRun = `{"id":7,"run_number":3,"workflow":"ci.yml","title":"fix build","status":"completed",
	"conclusion":"failure","branch":"main","sha":"abc","event":"push","actor":"alice",
	"started":"2026-01-02T03:04:05Z","completed":"2026-01-02T03:05:10Z","duration":"1m5s",
	"html_url":"http://x/o/r/actions/runs/3"}`

func TestWorkflowRunsInForgejoShape(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/actions/runs", 200, map[string]any{"workflow_runs": []any{forgejoRun}, "total_count": 1})
	f.JSON("GET /api/v1/repos/o/r/actions/runs/7", 200, forgejoRun)
	res := f.Call(t, actions.Tools(), "list_workflow_runs", map[string]any{"owner": "o", "repo": "r"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[`+forgejoCompactRun+`],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, actions.Tools(), "get_workflow_run", map[string]any{"owner": "o", "repo": "r", "run_id": 7.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, forgejoCompactRun, fakeforge.Text(t, res))
}

func TestForgejoRunStatuses(t *testing.T) {
	for status, want := range map[string]string{
		"success": `"status":"completed","conclusion":"success"`,
		"running": `"status":"in_progress","forge_status":"running"`,
		"blocked": `"status":"waiting","forge_status":"blocked"`,
		"waiting": `"status":"queued","forge_status":"waiting"`,
		"unknown": `"status":"unknown"`,
	} {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/repos/o/r/actions/runs/7", 200, map[string]any{"id": 7, "title": "t", "status": status})
		res := f.Call(t, actions.Tools(), "get_workflow_run", map[string]any{"owner": "o", "repo": "r", "run_id": 7.0})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.JSONEq(t, `{"id":7,"title":"t",`+want+`,"html_url":""}`, fakeforge.Text(t, res), status)
	}
}

func forgejoJob(id int, status string) map[string]any {
	return map[string]any{"id": id, "run_id": 7, "name": "build", "runs_on": []string{"docker"}, "needs": []string{"lint"},
		"status": status, "task_id": 40 + id, "attempt": 1, "handle": "h", "owner_id": 1, "repo_id": 2}
}

// Forgejo answers the jobs of a run as a bare array of ActionRunJob, all
// at once: the tool pages it.
func TestActionRunJobsInForgejoShape(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/actions/runs/7/jobs", 200, []any{forgejoJob(1, "success"), forgejoJob(2, "running"), forgejoJob(3, "waiting")})
	job := func(id int, status string) string {
		return `{"id":` + string(rune('0'+id)) + `,"run_id":7,"name":"build",` + status + `,"labels":["docker"],"needs":["lint"],"attempt":1}`
	}
	res := f.Call(t, actions.Tools(), "list_action_run_jobs", map[string]any{"owner": "o", "repo": "r", "run_id": 7.0, "limit": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[`+job(1, `"status":"completed","conclusion":"success"`)+`,`+job(2, `"status":"in_progress","forge_status":"running"`)+`],
		"page":1,"has_more":true}`, fakeforge.Text(t, res))

	res = f.Call(t, actions.Tools(), "list_action_run_jobs", map[string]any{"owner": "o", "repo": "r", "run_id": 7.0, "limit": 2.0, "page": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[`+job(3, `"status":"queued","forge_status":"waiting"`)+`],"page":2,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, actions.Tools(), "list_action_run_jobs", map[string]any{"owner": "o", "repo": "r", "run_id": 7.0, "page": 5.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[],"page":5,"has_more":false}`, fakeforge.Text(t, res))
}

// On Forgejo there is no route to read one job, so a log 404 is reported
// as it is, without asking the Gitea-only route.
func TestJobLogsNotFoundOnForgejo(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "17.0.0-dev+gitea-1.22.0"})
	f.JSON("GET /api/v1/repos/o/r/actions/jobs/9/logs", 404, map[string]any{"message": "not found"})
	f.Handle("GET /api/v1/repos/o/r/actions/jobs/9", func(w http.ResponseWriter, _ *http.Request) {
		t.Error("the Gitea-only job route was asked on Forgejo")
	})
	res := f.Call(t, actions.Tools(), "get_action_job_logs", map[string]any{"owner": "o", "repo": "r", "job_id": 9.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "Actions job 9 in o/r not found (404)")
}
