package actions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/mcpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// CI triage on a forge without job or log routes (Forgejo 13.x and 15.x):
// the failed jobs come from its task list. testdata/forgejo-15.0.3-failed-job.jsonl
// is the real Forgejo 15.0.3 sweep's get_ci_status exchanges for main's
// head (its commit status for job test of run 1, its two runs) with the
// run and the status turned to failure, and a task list WRITTEN from
// 15.0.3's API description (ActionTaskResponse), since the sweep's one
// task-list probe was empty: no runner had taken a job. Each exchange says
// where it comes from (its "fixture" field; testdata/README.md).

const mainHead = "c40de11e16239f68ca498e31f45a4f224da813ed"

func failedJobFixture(t *testing.T) *fakeforge.Recording {
	t.Helper()
	raw, err := os.ReadFile("testdata/forgejo-15.0.3-failed-job.jsonl")
	require.NoError(t, err)
	rec, err := fakeforge.ParseRecording("forgejo-15.0.3-failed-job", raw)
	require.NoError(t, err)
	require.Equal(t, forgejo.Forge{Flavour: forgejo.Forgejo, Version: "15.0.3+gitea-1.22.0"}, rec.Forge)
	return rec
}

// agentCall calls a tool the way an agent does, over MCP (mcp-go's
// in-process client, the server this binary builds), and returns the
// result and the bytes of the JSON-RPC result it received.
func agentCall(t *testing.T, f *fakeforge.Server, name string, args map[string]any) (*mcp.CallToolResult, int) {
	t.Helper()
	fc := f.Client()
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return fc, nil }, Timeout: 10 * time.Second}
	c, err := client.NewInProcessClient(mcpserver.New(actions.Tools(), r))
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	require.NoError(t, c.Start(t.Context()))
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	_, err = c.Initialize(t.Context(), init)
	require.NoError(t, err)
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(t.Context(), req)
	require.NoError(t, err)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	return res, len(b)
}

func TestCITriageFromTheTaskList(t *testing.T) {
	f := fakeforge.New(t)
	f.Replay(failedJobFixture(t), "get_ci_status")
	res, bytes := agentCall(t, f, "get_ci_status", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec", "ref": "main"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out actions.CIState
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	assert.Equal(t, mainHead, out.SHA)
	assert.Equal(t, "failure", out.State)
	require.Len(t, out.Runs, 2)
	assert.Equal(t, "failure", out.Runs[1].Conclusion)
	assert.Equal(t, []actions.FailedJob{{RunID: 1, Name: "test", HTMLURL: f.URL + "/forgeadmin/sweep-rec/actions/runs/1/jobs/0"}}, out.FailedJobs,
		"the failed task of the failed run, at the job page its commit status names; the dispatched run's task succeeded")
	assert.Equal(t, "no log tails: this forge (Forgejo 15.0.3+gitea-1.22.0) has no API route for a run's jobs, so no job's log can be read. "+
		"Which versions have the job log route: Forgejo 13.0.5 and 15.0.3 lack it; of the Forgejo versions this server knows, only 17.0.0-dev (a development snapshot) has it; Gitea 1.26.0 has it. "+
		"The jobs are from its task list (only jobs a runner took); each html_url is the job's page, where a person reads its log", out.Note)
	assert.NotContains(t, out.Note, "get_action_job_logs", "no call that cannot work here is suggested")
	var sent []string
	for _, a := range f.Answers() {
		sent = append(sent, a.Method+" "+a.Path)
	}
	assert.ElementsMatch(t, []string{
		"GET /api/v1/version",
		"GET /api/v1/repos/forgeadmin/sweep-rec/commits",
		"GET /api/v1/repos/forgeadmin/sweep-rec/commits/" + mainHead + "/status",
		"GET /api/v1/repos/forgeadmin/sweep-rec/actions/runs",
		"GET /api/v1/repos/forgeadmin/sweep-rec/actions/tasks",
	}, sent, "neither the jobs route nor a log route is sent")
	assert.Empty(t, f.Unanswered())
	t.Logf("%s", fakeforge.Text(t, res))
	t.Logf("what an agent sees: 1 tool call, %d bytes of JSON-RPC result (%d of text), the forge asked %d times", bytes, len(fakeforge.Text(t, res)), len(sent))
	assert.Less(t, bytes, 6000)
}

// list_action_run_jobs lists the run's jobs from the task list too, and
// the log tool says where a person reads a log, sending nothing.
func TestJobToolsFromTheTaskList(t *testing.T) {
	f := fakeforge.New(t)
	f.Replay(failedJobFixture(t), "list_action_run_jobs")
	res, _ := agentCall(t, f, "list_action_run_jobs", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec", "run_id": 1.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var page actions.JobPage
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
	started := time.Date(2026, 12, 6, 6, 51, 0, 0, time.UTC)
	assert.Equal(t, []actions.Job{{RunID: 1, Name: "test", Status: "completed", Conclusion: "failure", Started: &started,
		HTMLURL: f.URL + "/forgeadmin/sweep-rec/actions/runs/1/jobs/0"}}, page.Items)
	assert.False(t, page.HasMore)
	assert.Contains(t, page.Note, "no log tails: this forge (Forgejo 15.0.3+gitea-1.22.0) has no API route for a run's jobs, so no job's log can be read.")

	res, _ = agentCall(t, f, "get_action_job_logs", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec", "job_id": 1.0})
	require.True(t, res.IsError)
	assert.Equal(t, "get the log of Actions job 1 in forgeadmin/sweep-rec: Reading a job's log: this forge (Forgejo 15.0.3+gitea-1.22.0) "+
		"has no such API route, so nothing was sent; Forgejo 13.0.5 and 15.0.3 lack it; of the Forgejo versions this server knows, "+
		"only 17.0.0-dev (a development snapshot) has it; Gitea 1.26.0 has it; "+forgejo.JobLogsElsewhere, fakeforge.Text(t, res))
}

// A job's page is taken from a commit status only under the run's own
// page on the same origin: a status's target is whatever its poster set.
func TestJobPageTrustsOnlyTheRunsOwnPages(t *testing.T) {
	const origin = "http://127.0.0.1:44681"
	run := origin + "/forgeadmin/sweep-rec/actions/runs/1"
	for target, want := range map[string]string{
		"/forgeadmin/sweep-rec/actions/runs/1/jobs/0":                     run + "/jobs/0",
		origin + "/forgeadmin/sweep-rec/actions/runs/1/jobs/3":            run + "/jobs/3",
		"https://evil.example/forgeadmin/sweep-rec/actions/runs/1/jobs/0": run,
		"/forgeadmin/sweep-rec/actions/runs/10/jobs/0":                    run,
		"/forgeadmin/sweep-rec/actions/runs/1/jobs/0/../../../../x":       run,
		"": run,
	} {
		assert.Equal(t, want, actions.JobPageOf(run, "test", actions.CIStatus{Context: "ci / test (push)", TargetURL: target}), target)
	}
	assert.Equal(t, run, actions.JobPageOf(run, "test", actions.CIStatus{Context: "ci / lint (push)", TargetURL: "/forgeadmin/sweep-rec/actions/runs/1/jobs/1"}),
		"another job's status")
	assert.Equal(t, run+"/jobs/4", actions.JobPageOf(run, "test", actions.CIStatus{Context: "/ test (push)", TargetURL: "/forgeadmin/sweep-rec/actions/runs/1/jobs/4"}),
		"a workflow without a name (the live Gitea 1.26 posts \"/ test (push)\")")
	assert.Equal(t, run, actions.JobPageOf(run, "test", actions.CIStatus{Context: "ci / pretest (push)", TargetURL: "/forgeadmin/sweep-rec/actions/runs/1/jobs/2"}),
		"a job whose name ends in the other's")
}

// A matrix of many failed jobs is cut to ciMaxTaskJobs, saying so; the
// task list is read a page of 50 at a time, at most four pages.
func TestCITriageFromTheTaskListIsBounded(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "13.0.5+gitea-1.22.0"})
	f.JSON("GET /api/v1/repos/o/r/commits/"+headSHA+"/status", 200, map[string]any{"state": "failure", "sha": headSHA, "total_count": 0})
	f.JSON("GET /api/v1/repos/o/r/actions/runs", 200, map[string]any{"total_count": 1, "workflow_runs": []any{
		map[string]any{"id": 30, "index_in_repo": 9, "status": "failure", "commit_sha": headSHA, "html_url": f.URL + "/o/r/actions/runs/9"}}})
	var tasks []any
	for i := 300; i > 0; i-- {
		tasks = append(tasks, map[string]any{"id": i, "name": fmt.Sprintf("test (%d)", i), "status": "failure", "run_number": 9, "head_sha": headSHA})
	}
	f.Handle("GET /api/v1/repos/o/r/actions/tasks", func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		from, to := min((page-1)*limit, len(tasks)), min(page*limit, len(tasks))
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"total_count": len(tasks), "workflow_runs": tasks[from:to]})
	})
	res := f.Call(t, actions.Tools(), "get_ci_status", map[string]any{"owner": "o", "repo": "r", "ref": headSHA})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out actions.CIState
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	require.Len(t, out.FailedJobs, 20)
	assert.Equal(t, actions.FailedJob{RunID: 30, Name: "test (300)", HTMLURL: f.URL + "/o/r/actions/runs/9"}, out.FailedJobs[0],
		"no status names the job: the run's page")
	assert.Contains(t, out.Note, "the first 20 of 200 failed jobs shown; list_action_run_jobs lists a run's jobs")
	pages := 0
	for _, r := range f.Requests() {
		if r.Path == "/api/v1/repos/o/r/actions/tasks" {
			pages++
			assert.Contains(t, r.RawQuery, "limit=50")
		}
	}
	assert.Equal(t, 4, pages)
}
