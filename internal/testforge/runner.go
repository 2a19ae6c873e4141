package testforge

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Runner is a stand-in Actions runner registered on one repository. The
// test forge has no runner; this one speaks the runner protocol (Connect,
// in its JSON encoding) to take a queued job, and then does what a job
// would: upload an artifact (the API actions/upload-artifact@v4 uses),
// write log lines and finish, without running anything.
type Runner struct {
	f           *Forge
	owner, repo string
	// Label is the only label it takes jobs for: workflows meant for it
	// say runs-on: Label.
	Label       string
	uuid, token string
}

// Task is a job the runner took.
type Task struct {
	ID           string
	RunID, JobID int64
	runtimeToken string
}

// NewRunner registers a runner on owner/repo with a label of its own.
func (f *Forge) NewRunner(t testing.TB, owner, repo string) *Runner {
	t.Helper()
	var tok struct {
		Token string `json:"token"`
	}
	status := f.Do(t, http.MethodPost, repoPath(owner, repo)+"/actions/runners/registration-token", nil, &tok)
	expect(t, "registration token", status, http.StatusOK, nil)
	r := &Runner{f: f, owner: owner, repo: repo, Label: "fake-" + randomHex(t, 4)}
	var reg struct {
		Runner struct {
			UUID  string `json:"uuid"`
			Token string `json:"token"`
		} `json:"runner"`
	}
	r.rpc(t, "RunnerService/Register", map[string]any{"name": r.Label, "token": tok.Token, "labels": []string{r.Label}}, &reg)
	r.uuid, r.token = reg.Runner.UUID, reg.Runner.Token
	return r
}

// rpc calls a runner service method.
func (r *Runner) rpc(t testing.TB, method string, body, out any) {
	t.Helper()
	h := map[string]string{"Connect-Protocol-Version": "1"}
	if r.uuid != "" {
		h["x-runner-uuid"], h["x-runner-token"] = r.uuid, r.token
	}
	r.post(t, "/api/actions/runner.v1."+method, body, out, h)
}

func (r *Runner) post(t testing.TB, path string, body, out any, headers map[string]string) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatalf("testforge runner: %v", err)
	}
	r.send(t, http.MethodPost, r.f.URL+path, bytes.NewReader(b), "application/json", out, headers)
}

func (r *Runner) send(t testing.TB, method, u string, body io.Reader, ctype string, out any, headers map[string]string) {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatalf("testforge runner: %v", err)
	}
	req.Header.Set("Content-Type", ctype)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("testforge runner: %s: %v", u, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("testforge runner: %s %s: %d %s", method, strings.SplitN(u, "?", 2)[0], resp.StatusCode, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("testforge runner: %s: decoding %s: %v", u, data, err)
		}
	}
}

// Take waits (up to 30 s) for a queued job for the runner's label and
// takes it; the job is then running.
func (r *Runner) Take(t testing.TB) Task {
	t.Helper()
	for i := 0; i < 100; i++ {
		var got struct {
			Task *struct {
				ID      string         `json:"id"`
				Context map[string]any `json:"context"`
			} `json:"task"`
		}
		r.rpc(t, "RunnerService/FetchTask", map[string]any{"tasksVersion": 0}, &got)
		if got.Task != nil {
			tk := Task{ID: got.Task.ID}
			tk.runtimeToken, _ = got.Task.Context["gitea_runtime_token"].(string)
			runID, _ := got.Task.Context["run_id"].(string)
			tk.RunID, _ = strconv.ParseInt(runID, 10, 64)
			var jobs struct {
				Jobs []struct {
					ID     int64  `json:"id"`
					Status string `json:"status"`
				} `json:"jobs"`
			}
			r.f.Do(t, http.MethodGet, repoPath(r.owner, r.repo)+"/actions/runs/"+runID+"/jobs", nil, &jobs)
			for _, j := range jobs.Jobs {
				if j.Status == "in_progress" {
					tk.JobID = j.ID
				}
			}
			if tk.runtimeToken == "" || tk.RunID == 0 || tk.JobID == 0 {
				t.Fatalf("testforge runner: task %s without runtime token, run or job: %+v", tk.ID, got.Task.Context["run_id"])
			}
			return tk
		}
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatalf("testforge runner: no job for label %s within 30 s", r.Label)
	return Task{}
}

// UploadArtifact uploads data as the artifact name of the task's run, as
// actions/upload-artifact@v4 does: create, upload one block, finalize.
func (r *Runner) UploadArtifact(t testing.TB, tk Task, name string, data []byte) {
	t.Helper()
	auth := map[string]string{"Authorization": "Bearer " + tk.runtimeToken}
	ids := map[string]any{"workflowRunBackendId": strconv.FormatInt(tk.RunID, 10),
		"workflowJobRunBackendId": strconv.FormatInt(tk.JobID, 10), "name": name}
	const svc = "/twirp/github.actions.results.api.v1.ArtifactService/"
	var created struct {
		SignedUploadURL string `json:"signedUploadUrl"`
	}
	r.post(t, svc+"CreateArtifact", merge(ids, map[string]any{"version": 4}), &created, auth)
	if !strings.HasPrefix(created.SignedUploadURL, r.f.URL+"/") {
		t.Fatalf("testforge runner: upload URL %q is not on the forge", created.SignedUploadURL)
	}
	r.send(t, http.MethodPut, created.SignedUploadURL+"&comp=block", bytes.NewReader(data), "application/octet-stream", nil, nil)
	r.send(t, http.MethodPut, created.SignedUploadURL+"&comp=blocklist", strings.NewReader(""), "application/octet-stream", nil, nil)
	sum := sha256.Sum256(data)
	r.post(t, svc+"FinalizeArtifact", merge(ids, map[string]any{"size": strconv.Itoa(len(data)),
		"hash": "sha256:" + hex.EncodeToString(sum[:])}), nil, auth)
}

// Finish writes lines as the task's log and ends it with success.
func (r *Runner) Finish(t testing.TB, tk Task, started time.Time, lines ...string) {
	t.Helper()
	r.End(t, tk, "RESULT_SUCCESS", started, lines...)
}

// End writes lines as the task's log and ends it with result, a runner
// protocol result such as RESULT_SUCCESS or RESULT_FAILURE.
func (r *Runner) End(t testing.TB, tk Task, result string, started time.Time, lines ...string) {
	t.Helper()
	rows := make([]map[string]any, len(lines))
	for i, l := range lines {
		rows[i] = map[string]any{"time": started.UTC().Format(time.RFC3339), "content": l}
	}
	r.rpc(t, "RunnerService/UpdateLog", map[string]any{"taskId": tk.ID, "index": 0, "rows": rows, "noMore": true}, nil)
	r.rpc(t, "RunnerService/UpdateTask", map[string]any{"state": map[string]any{"id": tk.ID, "result": result,
		"startedAt": started.UTC().Format(time.RFC3339), "stoppedAt": time.Now().UTC().Format(time.RFC3339)}}, nil)
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// AddWorkflow commits yaml as the workflow .gitea/workflows/file on
// owner/repo's default branch.
func (f *Forge) AddWorkflow(t testing.TB, owner, repo, file, yaml string) {
	t.Helper()
	var raw []byte
	status := f.Do(t, http.MethodPost, repoPath(owner, repo)+"/contents/.gitea/workflows/"+file,
		map[string]any{"content": base64.StdEncoding.EncodeToString([]byte(yaml)), "message": "add " + strings.TrimSuffix(file, ".yml")}, &raw)
	expect(t, "committing workflow "+file, status, http.StatusCreated, raw)
}
