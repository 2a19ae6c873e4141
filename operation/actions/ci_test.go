package actions_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
)

const headSHA = "c0ffee0000000000000000000000000000000000"

// ciForge is a Gitea-shaped forge where PR 4's head has a failing lint
// status and two runs: one green, one with a failed job whose log ends in
// the error.
func ciForge(t *testing.T) *fakeforge.Server {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, map[string]any{"number": 4, "head": map[string]any{"ref": "fix", "sha": headSHA}})
	f.JSON("GET /api/v1/repos/o/r/commits/"+headSHA+"/status", 200, map[string]any{"state": "failure", "sha": headSHA, "total_count": 1,
		"statuses": []any{map[string]any{"context": "lint", "state": "failure", "description": "2 problems", "updated_at": "2026-01-02T03:04:05Z"}}})
	f.JSON("GET /api/v1/repos/o/r/actions/runs", 200, map[string]any{"total_count": 2, "workflow_runs": []any{
		map[string]any{"id": 8, "path": "ci.yml@refs/heads/fix", "status": "completed", "conclusion": "failure", "head_sha": headSHA, "head_branch": "fix"},
		map[string]any{"id": 7, "path": "docs.yml@refs/heads/fix", "status": "completed", "conclusion": "success", "head_sha": headSHA, "head_branch": "fix"},
	}})
	f.JSON("GET /api/v1/repos/o/r/actions/runs/8/jobs", 200, map[string]any{"total_count": 2, "jobs": []any{
		map[string]any{"id": 21, "run_id": 8, "name": "build", "status": "completed", "conclusion": "success"},
		map[string]any{"id": 22, "run_id": 8, "name": "test", "status": "completed", "conclusion": "failure", "html_url": "http://x/j/22",
			"steps": []any{map[string]any{"name": "Set up", "conclusion": "success"}, map[string]any{"name": "go test", "conclusion": "failure"}}},
	}})
	log := strings.Repeat("ok line\n", 5000) + "--- FAIL: TestX\nexit status 1\n"
	f.Handle("GET /api/v1/repos/o/r/actions/jobs/22/logs", func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "", time.Time{}, strings.NewReader(log))
	})
	return f
}

func TestCIStateOfAPull(t *testing.T) {
	f := ciForge(t)
	res := f.Call(t, actions.Tools(), "get_ci_status", map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out actions.CIState
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	assert.Equal(t, headSHA, out.SHA)
	assert.Equal(t, "failure", out.State)
	require.Len(t, out.Statuses, 1)
	assert.Equal(t, "lint", out.Statuses[0].Context)
	require.Len(t, out.Runs, 2)
	assert.Equal(t, "ci.yml", out.Runs[0].Workflow)
	require.Len(t, out.FailedJobs, 1)
	job := out.FailedJobs[0]
	assert.Equal(t, actions.FailedJob{ID: 22, RunID: 8, Name: "test", Steps: []string{"go test"},
		LogTail: strings.Repeat("ok line\n", 13) + "--- FAIL: TestX\nexit status 1\n", HTMLURL: "http://x/j/22"}, job)
	assert.Equal(t, "more of a log: get_action_job_logs job_id=22 (tail_lines, or grep)", out.Note)
	for _, r := range f.Requests() {
		if r.Path == "/api/v1/repos/o/r/actions/runs" {
			assert.Contains(t, r.RawQuery, "head_sha="+headSHA)
		}
	}
}

func TestCIStateOfARef(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/commits", 200, []any{map[string]any{"sha": headSHA}})
	f.JSON("GET /api/v1/repos/o/r/commits/"+headSHA+"/status", 200, map[string]any{"state": "", "sha": headSHA, "total_count": 0, "statuses": []any{}})
	f.JSON("GET /api/v1/repos/o/r/actions/runs", 200, map[string]any{"total_count": 1, "workflow_runs": []any{
		map[string]any{"id": 8, "status": "in_progress", "head_sha": headSHA}}})
	res := f.Call(t, actions.Tools(), "get_ci_status", map[string]any{"owner": "o", "repo": "r", "ref": "feature/x"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out actions.CIState
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	assert.Equal(t, "pending", out.State, "a run still going")
	assert.Empty(t, out.FailedJobs)
	assert.Empty(t, out.Note)
}

// On Forgejo the runs come in Forgejo's shape, and a forge without the
// jobs route (Forgejo 13) still gives the statuses and runs.
func TestCIStateForgejoShapes(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/commits/"+headSHA+"/status", 200, map[string]any{"state": "success", "sha": headSHA, "total_count": 0})
	f.JSON("GET /api/v1/repos/o/r/actions/runs", 200, map[string]any{"total_count": 1, "workflow_runs": []any{
		map[string]any{"id": 8, "workflow_id": "ci.yml", "status": "failure", "commit_sha": headSHA, "prettyref": "main"}}})
	res := f.Call(t, actions.Tools(), "get_ci_status", map[string]any{"owner": "o", "repo": "r", "ref": headSHA})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out actions.CIState
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	assert.Equal(t, "failure", out.State, "the run's failure outweighs the green status")
	assert.Equal(t, "completed", out.Runs[0].Status)
	assert.Contains(t, out.Note, "this forge does not list a run's jobs")
}

// A forge without the runs route (Forgejo 10 has Actions but no API
// listing runs) still gets its statuses, with a note on what is missing:
// refused before sending where the table knows the version lacks it, the
// router's 404 where it does not (a version past the described ones). Its
// task list gives the commit's failed job, at the page its status names.
func TestCIStateWithoutRunsRoute(t *testing.T) {
	tests := []struct{ version, note string }{
		{"10.0.0+gitea-1.22.0", "Actions runs are not shown: list workflow runs of o/r: Listing workflow runs: this forge (Forgejo 10.0.0+gitea-1.22.0) " +
			"has no such API route, so nothing was sent; Forgejo 10.0.0-dev-456d05998231 lacks it, while 13.0.5, 15.0.3 and 17.0.0-dev have it; Gitea 1.26.0 has it"},
		{"11.0.0+gitea-1.22.0", "Actions runs are not shown: list workflow runs of o/r: this forge (Forgejo 11.0.0+gitea-1.22.0) has no such API route " +
			"(its router answered 404 page not found, so nothing was looked up and this says nothing about whether it exists); " +
			"Forgejo 10.0.0-dev-456d05998231 lacks it, while 13.0.5, 15.0.3 and 17.0.0-dev have it; Gitea 1.26.0 has it"},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/version", 200, map[string]any{"version": tt.version})
			f.JSON("GET /api/v1/repos/o/r/commits/"+headSHA+"/status", 200, map[string]any{"state": "failure", "sha": headSHA, "total_count": 1,
				"statuses": []any{map[string]any{"context": "ci / test (push)", "status": "failure", "description": "Failing after 3s",
					"target_url": "/o/r/actions/runs/5/jobs/1"}}})
			f.Handle("GET /api/v1/repos/o/r/actions/runs", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
			f.JSON("GET /api/v1/repos/o/r/actions/tasks", 200, map[string]any{"total_count": 3, "workflow_runs": []any{
				map[string]any{"id": 12, "name": "test", "status": "failure", "run_number": 5, "head_sha": headSHA, "url": f.URL + "/o/r/actions/runs/5"},
				map[string]any{"id": 11, "name": "build", "status": "success", "run_number": 5, "head_sha": headSHA, "url": f.URL + "/o/r/actions/runs/5"},
				map[string]any{"id": 9, "name": "test", "status": "failure", "run_number": 4, "head_sha": "0ld", "url": f.URL + "/o/r/actions/runs/4"},
			}})
			res := f.Call(t, actions.Tools(), "get_ci_status", map[string]any{"owner": "o", "repo": "r", "ref": headSHA})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			var out actions.CIState
			require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
			assert.Equal(t, "failure", out.State)
			assert.Equal(t, []actions.CIStatus{{Context: "ci / test (push)", State: "failure", Description: "Failing after 3s",
				TargetURL: "/o/r/actions/runs/5/jobs/1"}}, out.Statuses)
			assert.Empty(t, out.Runs)
			assert.Equal(t, []actions.FailedJob{{Name: "test", HTMLURL: f.URL + "/o/r/actions/runs/5/jobs/1"}}, out.FailedJobs,
				"the commit's failed task, at the job's page its status names (relative on Forgejo)")
			note, rest, _ := strings.Cut(out.Note, "; no log tails: ")
			assert.Equal(t, tt.note, note)
			assert.Contains(t, rest, "has no API route for a run's jobs, so no job's log can be read. Which versions have the job log route: Forgejo 13.0.5 and 15.0.3 lack it")
		})
	}
}

func TestCIStateNoActionsAndBadArgs(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/commits/"+headSHA+"/status", 200, map[string]any{"state": "", "sha": headSHA})
	res := f.Call(t, actions.Tools(), "get_ci_status", map[string]any{"owner": "o", "repo": "r", "ref": headSHA})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), "no Actions runs: Actions are disabled")
	assert.Contains(t, fakeforge.Text(t, res), "no check has reported on this commit yet")

	for _, args := range []map[string]any{{}, {"index": 4.0, "ref": "main"}} {
		args["owner"], args["repo"] = "o", "r"
		res = f.Call(t, actions.Tools(), "get_ci_status", args)
		assert.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), "give index (a PR number) or ref")
	}
}

// Where runs cannot be listed and no Actions task failed (another CI's
// status is red), nothing about job logs is said: the statuses say it all.
func TestCIStateWithoutRunsRouteNorFailedTasks(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "10.0.0+gitea-1.22.0"})
	f.JSON("GET /api/v1/repos/o/r/commits/"+headSHA+"/status", 200, map[string]any{"state": "failure", "sha": headSHA, "total_count": 1,
		"statuses": []any{map[string]any{"context": "ci/test", "status": "failure"}}})
	f.JSON("GET /api/v1/repos/o/r/actions/tasks", 200, map[string]any{"total_count": 0, "workflow_runs": []any{}})
	res := f.Call(t, actions.Tools(), "get_ci_status", map[string]any{"owner": "o", "repo": "r", "ref": headSHA})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out actions.CIState
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	assert.Empty(t, out.FailedJobs)
	assert.True(t, strings.HasPrefix(out.Note, "Actions runs are not shown: "), out.Note)
	assert.NotContains(t, out.Note, "log")
}
