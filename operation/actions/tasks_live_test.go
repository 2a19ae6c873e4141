package actions_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// jobRoutes are the routes a Forgejo up to 15.0.3 has no route for: a
// run's jobs, a job's log.
var jobRoutes = regexp.MustCompile(`^/api/v1/repos/[^/]+/[^/]+/actions/(runs/[0-9]+/jobs|jobs/[0-9]+/logs)$`)

// withoutJobRoutes puts a proxy in front of the live forge that says it is
// a Forgejo 16.0.0 (between 15.0.3, which lacks the job routes, and the 17
// snapshot, which has them: not known to lack them, so they are sent) and
// answers the job routes with its router's 404, passing everything else
// through: the live forge's own runs, statuses and task list.
func withoutJobRoutes(t *testing.T, f *testforge.Forge) *testforge.Forge {
	t.Helper()
	target, err := url.Parse(f.URL)
	require.NoError(t, err)
	pass := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/api/v1/version":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"version":"16.0.0+gitea-1.22.0"}`))
		case jobRoutes.MatchString(r.URL.Path):
			http.NotFound(w, r) // text/plain "404 page not found", as the forges' routers answer
		default:
			pass.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	cp := *f
	cp.URL = srv.URL
	return &cp
}

// A pushed workflow's job fails on the live forge (the stand-in runner
// fails it); through a forge without the job routes, get_ci_status and
// list_action_run_jobs find it in the live forge's task list, with the job
// page its commit status names, and the log tool says where a person reads
// the log.
func TestLiveCITriageFromTheTaskList(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	if f.Lacks(t, "GET", "/repos/"+owner+"/"+name+"/actions/runs") {
		// Forgejo 10: no API to register a runner with, so no task can be
		// made here; its task list, which get_ci_status reads there, answers.
		var tasks struct {
			Total *int64 `json:"total_count"`
		}
		require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/api/v1/repos/"+owner+"/"+name+"/actions/tasks", nil, &tasks))
		require.NotNil(t, tasks.Total)
		return
	}
	runner := f.NewRunner(t, owner, name)
	f.AddWorkflow(t, owner, name, "ci.yml", fmt.Sprintf("on: [push]\njobs:\n  test:\n    runs-on: %s\n    steps:\n      - run: go test ./...\n", runner.Label))
	started := time.Now().Add(-time.Minute)
	task := runner.Take(t)
	runner.End(t, task, "RESULT_FAILURE", started, "--- FAIL: TestX", "exit status 1")

	p := withoutJobRoutes(t, f)
	call := p.RepoCaller(t, actions.Tools(), owner, name)
	var s actions.CIState
	require.NoError(t, json.Unmarshal([]byte(call("get_ci_status", map[string]any{"ref": "main"})), &s))
	assert.Equal(t, "failure", s.State)
	require.Len(t, s.FailedJobs, 1, "%+v", s)
	job := s.FailedJobs[0]
	assert.Equal(t, "test", job.Name)
	assert.Equal(t, task.RunID, job.RunID)
	assert.Zero(t, job.ID, "the task list has no job id")
	assert.Empty(t, job.LogTail)
	require.Len(t, s.Runs, 1)
	assert.True(t, strings.HasPrefix(job.HTMLURL, s.Runs[0].HTMLURL+"/jobs/"), "the job's page, from its commit status: %s", job.HTMLURL)

	assert.Contains(t, s.Note, "no log tails: this forge (Forgejo 16.0.0+gitea-1.22.0) has no API route for a run's jobs, so no job's log can be read. "+
		"Which versions have the job log route: Forgejo 13.0.5 and 15.0.3 lack it")
	assert.NotContains(t, s.Note, "get_action_job_logs")

	var jobs actions.JobPage
	require.NoError(t, json.Unmarshal([]byte(call("list_action_run_jobs", map[string]any{"run_id": float64(task.RunID)})), &jobs))
	require.Len(t, jobs.Items, 1)
	assert.Equal(t, "test", jobs.Items[0].Name)
	assert.Equal(t, "completed", jobs.Items[0].Status)
	assert.Equal(t, "failure", jobs.Items[0].Conclusion)
	assert.Equal(t, job.HTMLURL, jobs.Items[0].HTMLURL)
	assert.Contains(t, jobs.Note, "no log tails: this forge (Forgejo 16.0.0+gitea-1.22.0)")

	res := p.Call(t, actions.Tools(), "get_action_job_logs", map[string]any{"owner": owner, "repo": name, "job_id": float64(task.JobID)})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "this forge (Forgejo 16.0.0+gitea-1.22.0) has no such API route (its router answered 404 page not found")
	assert.Contains(t, fakeforge.Text(t, res), forgejo.JobLogsElsewhere)
}
