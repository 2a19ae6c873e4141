package actions_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestLiveCIInTwoCalls: a PR whose head has a green lint status and a
// failing Actions job (the stand-in runner fails it with a long log):
// get_ci_status says failure, names the job and shows its log's end, and
// get_action_job_logs reads more of it (tail, grep); the runs list filters
// by head commit, workflow and branch.
func TestLiveCIInTwoCalls(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	// Forgejo 10 has Actions but no API to read runs (nor to register a
	// runner with): there get_ci_status shows the statuses and says so.
	lacksRuns := f.Lacks(t, "GET", "/repos/"+owner+"/"+name+"/actions/runs")
	var runner *testforge.Runner
	label := "ubuntu-latest"
	if !lacksRuns {
		runner = f.NewRunner(t, owner, name)
		label = runner.Label
	}
	wf := fmt.Sprintf("on:\n  workflow_dispatch:\njobs:\n  test:\n    runs-on: %s\n    steps:\n      - run: go test ./...\n", label)
	f.AddWorkflow(t, owner, name, "ci.yml", wf)
	defs := append(append(actions.Tools(), pull.Tools()...), repo.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	call("create_branch", map[string]any{"branch": "fix"})
	call("create_file", map[string]any{"path": "fix.txt", "content": "fix\n", "message": "Fix", "branch": "fix"})
	var pr struct {
		Number  int64  `json:"number"`
		HeadSHA string `json:"head_sha"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("create_pull_request", map[string]any{"head": "fix", "base": "main", "title": "Fix"})), &pr))
	state := func() actions.CIState {
		t.Helper()
		var s actions.CIState
		text := call("get_ci_status", map[string]any{"index": float64(pr.Number)})
		require.NoError(t, json.Unmarshal([]byte(text), &s))
		assert.Equal(t, pr.HeadSHA, s.SHA)
		return s
	}
	s := state()
	assert.Empty(t, s.State)
	assert.Contains(t, s.Note, "no check has reported on this commit yet")

	call("create_commit_status", map[string]any{"ref": pr.HeadSHA, "context": "lint", "state": "success"})
	call("dispatch_workflow", map[string]any{"workflow": "ci.yml", "ref": "fix"})
	if lacksRuns {
		s = state()
		assert.Equal(t, "success", s.State, "the statuses alone")
		require.Len(t, s.Statuses, 1)
		assert.Equal(t, "lint", s.Statuses[0].Context)
		assert.Empty(t, s.Runs)
		// Refused before sending where the table knows the version lacks the route, the router's 404 otherwise.
		assert.True(t, strings.HasPrefix(s.Note, "Actions runs are not shown: list workflow runs of "+owner+"/"+name+": "), s.Note)
		assert.True(t, strings.Contains(s.Note, "this forge ("+f.Identify(t).String()+") has no such API route, so nothing was sent") ||
			strings.Contains(s.Note, "this forge ("+f.Identify(t).String()+") has no such API route (its router answered 404 page not found"), s.Note)
		return
	}
	for i := 0; i < 100 && len(s.Runs) == 0; i++ { // the forge creates the run a moment after the dispatch
		time.Sleep(100 * time.Millisecond)
		s = state()
	}
	require.Len(t, s.Runs, 1)
	assert.Equal(t, "pending", s.State, "a queued run")
	assert.Equal(t, "lint", s.Statuses[0].Context)

	started := time.Now().Add(-time.Minute)
	task := runner.Take(t)
	lines := make([]string, 0, 3002)
	for i := 0; i < 3000; i++ {
		lines = append(lines, fmt.Sprintf("=== RUN TestCase%d", i))
	}
	lines = append(lines, "--- FAIL: TestCase2999 (0.00s)", "exit status 1")
	runner.End(t, task, "RESULT_FAILURE", started, lines...)

	s = state()
	assert.Equal(t, "failure", s.State)
	require.Len(t, s.Runs, 1)
	assert.Equal(t, "failure", s.Runs[0].Conclusion)
	assert.Equal(t, "ci.yml", s.Runs[0].Workflow)
	require.Len(t, s.FailedJobs, 1, "%+v", s)
	job := s.FailedJobs[0]
	assert.Equal(t, "test", job.Name)
	assert.Equal(t, task.JobID, job.ID)
	assert.True(t, strings.HasSuffix(job.LogTail, "exit status 1\n"), job.LogTail)
	assert.Contains(t, job.LogTail, "--- FAIL: TestCase2999")
	assert.Contains(t, s.Note, fmt.Sprintf("get_action_job_logs job_id=%d", job.ID))

	// The ref form gives the same state.
	var byRef actions.CIState
	require.NoError(t, json.Unmarshal([]byte(call("get_ci_status", map[string]any{"ref": "fix"})), &byRef))
	assert.Equal(t, s.State, byRef.State)
	assert.Equal(t, s.FailedJobs, byRef.FailedJobs)

	// The second call: more of the log.
	var l actions.Log
	text := call("get_action_job_logs", map[string]any{"job_id": float64(job.ID)})
	assert.LessOrEqual(t, len(text), tool.MaxResultBytes)
	require.NoError(t, json.Unmarshal([]byte(text), &l))
	logLines := strings.Split(strings.TrimSuffix(l.Log, "\n"), "\n")
	assert.Len(t, logLines, actions.DefaultTailLines)
	assert.True(t, strings.HasSuffix(logLines[len(logLines)-1], "exit status 1"), logLines[len(logLines)-1])
	assert.Positive(t, l.TotalBytes)

	require.NoError(t, json.Unmarshal([]byte(call("get_action_job_logs", map[string]any{"job_id": float64(job.ID), "grep": "FAIL|RUN TestCase1234$"})), &l))
	require.Len(t, l.Matches, 2, "%+v", l)
	assert.Contains(t, l.Matches[0].Text, "=== RUN TestCase1234")
	assert.Contains(t, l.Matches[1].Text, "--- FAIL: TestCase2999")
	assert.EqualValues(t, 3001, l.Matches[1].Line)

	// The runs list by commit, workflow and branch.
	count := func(args map[string]any) int {
		var page tool.ListPage[actions.Run]
		require.NoError(t, json.Unmarshal([]byte(call("list_workflow_runs", args)), &page))
		return len(page.Items)
	}
	assert.Equal(t, 1, count(map[string]any{"head_sha": pr.HeadSHA}))
	assert.Equal(t, 1, count(map[string]any{"head_sha": pr.HeadSHA, "workflow": "ci.yml", "branch": "fix", "status": "failure"}))
	assert.Equal(t, 0, count(map[string]any{"workflow": "other.yml"}))
	assert.Equal(t, 0, count(map[string]any{"branch": "main"}))
	assert.Equal(t, 0, count(map[string]any{"head_sha": strings.Repeat("0", 40)}))
	res := f.Call(t, defs, "list_workflow_runs", map[string]any{"owner": owner, "repo": name, "head_sha": pr.HeadSHA[:10]})
	assert.True(t, res.IsError, "the forges match a run's commit exactly: a short SHA is refused")
}
