package actions_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
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

// A run taken by a stand-in runner (testforge.Runner) that uploads an
// artifact through the API actions/upload-artifact@v4 uses, logs and
// finishes: then the run reads completed/success with a duration, its job
// has a log, and the artifact lists and downloads, whole and in windows.
func TestLiveRunWithArtifact(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	if f.Lacks(t, "GET", "/repos/"+owner+"/"+repo+"/actions/runs") {
		// Forgejo 10: no API to register a runner with (its registration
		// token is a GET) nor to read runs: every artifact tool says so.
		f.AddWorkflow(t, owner, repo, "demo.yml", workflow)
		f.RepoCaller(t, actions.Tools(), owner, repo)("dispatch_workflow", map[string]any{"workflow": "demo.yml", "ref": "main"})
		runToolsMissing(t, f, owner, repo)
		return
	}
	runner := f.NewRunner(t, owner, repo)
	wf := fmt.Sprintf("on:\n  workflow_dispatch:\njobs:\n  build:\n    runs-on: %s\n    steps:\n      - run: make\n", runner.Label)
	f.AddWorkflow(t, owner, repo, "build.yml", wf)
	defs := actions.Tools()
	call := f.RepoCaller(t, defs, owner, repo)

	text := call("list_run_artifacts", map[string]any{})
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, text, "no artifacts yet")

	call("dispatch_workflow", map[string]any{"workflow": "build.yml", "ref": "main"})
	started := time.Now().Add(-2 * time.Second)
	task := runner.Take(t)
	zip := make([]byte, 3000)
	_, _ = rand.Read(zip)
	copy(zip, "PK\x03\x04")
	runner.UploadArtifact(t, task, "dist", zip)
	runner.Finish(t, task, started, "building", "done")

	var run actions.Run
	require.NoError(t, json.Unmarshal([]byte(call("get_workflow_run", map[string]any{"run_id": task.RunID})), &run))
	assert.Equal(t, "completed", run.Status)
	assert.Equal(t, "success", run.Conclusion)
	assert.Equal(t, "add build", run.Title)
	assert.Equal(t, int64(1), run.RunNumber)
	assert.Equal(t, "main", run.Branch)
	assert.Equal(t, "build.yml", run.Workflow)
	assert.Equal(t, f.User, run.Actor)
	assert.NotEmpty(t, run.SHA)
	require.NotNil(t, run.Started)
	require.NotNil(t, run.Completed)
	assert.NotEmpty(t, run.Duration)

	var jobs struct {
		Items []actions.Job `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("list_action_run_jobs", map[string]any{"run_id": task.RunID})), &jobs))
	require.Len(t, jobs.Items, 1)
	assert.Equal(t, task.JobID, jobs.Items[0].ID)
	assert.Equal(t, "success", jobs.Items[0].Conclusion)
	assert.Equal(t, []string{runner.Label}, jobs.Items[0].Labels)
	assert.Contains(t, call("get_action_job_logs", map[string]any{"job_id": task.JobID}), "building")

	// Gitea has no cancel route: the tool says so, naming the forge.
	res := f.Call(t, defs, "cancel_workflow_run", map[string]any{"owner": owner, "repo": repo, "run_id": task.RunID})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "Cancelling a workflow run: this forge (Gitea 1.26")

	var list struct {
		Items []actions.Artifact `json:"items"`
	}
	for _, args := range []map[string]any{{}, {"run_id": task.RunID}, {"run_id": task.RunID, "name": "dist"}} {
		require.NoError(t, json.Unmarshal([]byte(call("list_run_artifacts", args)), &list))
		require.Len(t, list.Items, 1, "%v", args)
		a := list.Items[0]
		assert.Equal(t, "dist", a.Name)
		assert.Equal(t, int64(len(zip)), a.Size)
		assert.Equal(t, task.RunID, a.RunID)
		assert.False(t, a.Expired)
		assert.NotNil(t, a.Created)
		assert.NotNil(t, a.Expires)
	}
	id := list.Items[0].ID

	d, body := decodeDownload(t, f.Call(t, defs, "download_artifact", map[string]any{"owner": owner, "repo": repo, "artifact_id": id}))
	assert.Equal(t, zip, body, "the whole zip, through the forge's same-origin redirect")
	sum := sha256.Sum256(zip)
	assert.Equal(t, hex.EncodeToString(sum[:]), d.SHA256)

	var got []byte
	offset := int64(0)
	for i := 0; i < 10; i++ {
		d, body := decodeDownload(t, f.Call(t, defs, "download_artifact",
			map[string]any{"owner": owner, "repo": repo, "artifact_id": id, "offset": offset, "max_bytes": 1024}))
		assert.Equal(t, int64(len(zip)), d.Total)
		got = append(got, body...)
		if d.NextOffset == nil {
			break
		}
		offset = *d.NextOffset
	}
	assert.Equal(t, zip, got, "three windows make the zip")

	// Gitea re-runs the finished run: the same run, queued again.
	require.NoError(t, json.Unmarshal([]byte(call("rerun_workflow_run", map[string]any{"run_id": task.RunID})), &run))
	assert.Equal(t, task.RunID, run.ID)
	assert.Contains(t, []string{"queued", "waiting"}, run.Status)
}

func TestLiveArtifactErrors(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := actions.Tools()
	args := func(m map[string]any) map[string]any { m["owner"], m["repo"] = owner, repo; return m }

	res := f.Call(t, defs, "download_artifact", args(map[string]any{"artifact_id": 999999}))
	if f.Lacks(t, "GET", "/repos/"+owner+"/"+repo+"/actions/artifacts") {
		f.RequireMissingRoute(t, res)
		f.RequireMissingRoute(t, f.Call(t, defs, "list_run_artifacts", args(map[string]any{"run_id": 999999})))
		f.RequireMissingRoute(t, f.WithToken(f.Token2).Call(t, defs, "list_run_artifacts", args(map[string]any{})))
		return
	}
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "artifact 999999 in "+owner+"/"+repo+" not found (404)")

	// Gitea 1.26 answers a run that does not exist with no artifacts, not 404.
	res = f.Call(t, defs, "list_run_artifacts", args(map[string]any{"run_id": 999999}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.WithToken(f.Token2).Call(t, defs, "list_run_artifacts", args(map[string]any{}))
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "or Actions are disabled for it or on the forge")
}
