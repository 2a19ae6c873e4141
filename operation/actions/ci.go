package actions

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// CI in one call: a PR's (or a ref's) combined commit status, the Actions
// runs of its head commit, their failed jobs and the last lines of those
// jobs' logs, so "why is my PR red?" takes this call and, for more of a
// log, get_action_job_logs. It is in the pull toolset, which is in the
// default selection: an agent that can merge can see CI. On a forge with
// no route for a run's jobs (Forgejo up to 15.0.3) the failed jobs come
// from its task list, each with the page where a person reads its log
// (tasks.go).

// Bounds of one get_ci_status call: the runs of the commit it reads (one
// page), the failed runs whose jobs it lists, the failed jobs whose log
// tails it reads, and each tail's lines and JSON bytes.
const (
	ciMaxRuns       = 20
	ciMaxFailedRuns = 3
	ciMaxLogTails   = 3
	ciMaxTaskJobs   = 20 // failed jobs listed from a task list (no log tails there)
	ciTailLines     = 15
	ciTailBytes     = 3 << 10
)

func ciTools() []tool.Def {
	return []tool.Def{{
		Name: "get_ci_status", Toolset: pull.Toolset,
		Title: "Get the CI state of a PR or ref", Output: CIState{},
		Description: "A PR's or ref's CI in one call: statuses, runs, failed jobs and their logs' end",
		Params: []tool.Param{tool.Owner(), tool.Repo(), tool.PullIndex().Optional(),
			tool.Str("ref", "Branch, tag or SHA, instead of index", tool.MaxLen(255))},
		Annotations: tool.Read(), Handler: getCI,
	}}
}

// CIState is a commit's whole CI state. State is the worst of the
// combined status and the runs: failure, error, pending or success, ""
// when nothing reported.
type CIState struct {
	SHA        string      `json:"sha"`
	State      string      `json:"state"`
	Statuses   []CIStatus  `json:"statuses"`
	Runs       []CIRun     `json:"runs"`
	FailedJobs []FailedJob `json:"failed_jobs"`
	Note       string      `json:"note,omitempty"`
}

// CIStatus is a check's latest status (get_commit_status has its creator
// and time).
type CIStatus struct {
	Context     string `json:"context"`
	State       string `json:"state"`
	Description string `json:"description,omitempty"`
	TargetURL   string `json:"target_url,omitempty"`
}

// CIRun is a run of the commit, in short (get_workflow_run has the rest).
type CIRun struct {
	ID         int64  `json:"id"`
	Workflow   string `json:"workflow,omitempty"`
	Title      string `json:"title" trust:"text"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion,omitempty"`
	Event      string `json:"event,omitempty"`
	HTMLURL    string `json:"html_url"`
}

// FailedJob is a job of a failed run that failed: its failed steps (Gitea
// lists steps), the last lines of its log, and its web page. From a
// forge's task list it has no ID (the list has none) and no log tail.
type FailedJob struct {
	ID      int64    `json:"id,omitempty"`
	RunID   int64    `json:"run_id,omitempty"`
	Name    string   `json:"name"`
	Steps   []string `json:"failed_steps,omitempty"`
	LogTail string   `json:"log_tail,omitempty"`
	HTMLURL string   `json:"html_url,omitempty"`
}

func getCI(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if a.Has("index") == (a.String("ref") != "") {
		return tool.Error("give index (a PR number) or ref (a branch, tag or SHA), one of them"), nil
	}
	out := CIState{Statuses: []CIStatus{}, Runs: []CIRun{}, FailedJobs: []FailedJob{}}
	if a.Has("index") {
		pr, resp, err := c.SDK(ctx).GetPullRequest(a.String("owner"), a.String("repo"), a.Int("index"))
		if err := forgejo.Fail(resp, err, "get", fmt.Sprintf("pull request %s#%d", tool.FullName(a), a.Int("index"))); err != nil {
			return nil, err
		}
		if pr.Head == nil || pr.Head.Sha == "" {
			return nil, fmt.Errorf("pull request %s#%d has no head commit (its branch is gone)", tool.FullName(a), pr.Index)
		}
		out.SHA = pr.Head.Sha
	} else {
		sha, err := repo.ResolveRef(ctx, c, a, a.String("ref"))
		if err != nil {
			return nil, err
		}
		out.SHA = sha
	}
	combined, err := repo.CombinedOf(ctx, c, a, out.SHA)
	if err != nil {
		return nil, forgejo.Relabel(err, "get the status of", fmt.Sprintf("commit %s in %s", out.SHA, tool.FullName(a)))
	}
	out.Statuses = append(out.Statuses, ciStatuses(combined)...)
	if combined.TotalCount > 0 { // the forge says pending when nothing reported
		out.State = combined.State
	}
	var notes []string
	if combined.Note != "" && combined.TotalCount > 0 {
		notes = append(notes, combined.Note)
	}
	page := tool.NewArgs(map[string]any{"owner": a.String("owner"), "repo": a.String("repo"), "page": int64(1), "limit": int64(ciMaxRuns)})
	runs, more, err := runsOf(ctx, c, page, runFilter{sha: out.SHA}, "")
	noRuns := false // the forge has no route listing runs
	switch {
	case forgejo.IsNotFound(err):
		notes = append(notes, "no Actions runs: Actions are disabled for this repository or on the forge")
	case forgejo.IsNoRoute(err):
		// An older Forgejo (10) has Actions but no route listing runs: the
		// statuses still answer the question, so say what is missing.
		noRuns = true
		notes = append(notes, "Actions runs are not shown: "+forgejo.Relabel(err, "list workflow runs of", tool.FullName(a)).Error())
	case err != nil:
		return nil, forgejo.Relabel(err, "list workflow runs of", tool.FullName(a))
	default:
		for _, r := range runs {
			out.Runs = append(out.Runs, CIRun{ID: r.ID, Workflow: r.Workflow, Title: r.Title, Status: r.Status,
				Conclusion: r.Conclusion, Event: r.Event, HTMLURL: r.HTMLURL})
		}
		if more {
			notes = append(notes, fmt.Sprintf("the %d newest runs of this commit; list_workflow_runs head_sha=%s lists all", ciMaxRuns, out.SHA))
		}
	}
	out.State = worst(out.State, runsState(out.Runs))
	var failed []Run
	for _, r := range runs {
		if r.Conclusion == "failure" {
			failed = append(failed, r)
		}
	}
	if len(failed) > 0 || noRuns && severity[out.State] >= severity["error"] {
		notes = append(notes, failedJobs(ctx, c, a, &out, failed)...)
	}
	switch {
	case out.State == "":
		notes = append(notes, "no check has reported on this commit yet")
	case len(out.FailedJobs) > 0 && out.FailedJobs[0].ID != 0:
		notes = append(notes, fmt.Sprintf("more of a log: get_action_job_logs job_id=%d (tail_lines, or grep)", out.FailedJobs[0].ID))
	}
	if len(notes) > 0 {
		out.Note = strings.Join(notes, "; ")
	}
	return tool.JSON(out)
}

// failedJobs fills out.FailedJobs from the jobs of the first failed runs,
// with the last lines of the first jobs' logs, and returns notes on what
// it could not read. A failure here leaves the rest of the state standing.
// On a forge without the route for a run's jobs (refused, or its router's
// 404), and where runs cannot be listed, they come from its task list.
func failedJobs(ctx context.Context, c *forgejo.Client, a tool.Args, out *CIState, failed []Run) []string {
	if len(failed) == 0 {
		return failedFromTasks(ctx, c, a, out, nil)
	}
	if c.Require(ctx, http.MethodGet, "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs") != nil {
		return failedFromTasks(ctx, c, a, out, failed)
	}
	var notes []string
	for i, r := range failed {
		if i == ciMaxFailedRuns {
			notes = append(notes, fmt.Sprintf("jobs of the first %d failed runs shown; list_action_run_jobs lists the others'", ciMaxFailedRuns))
			break
		}
		p, err := route(a, "runs", fmt.Sprint(r.ID), "jobs")
		if err != nil {
			return append(notes, err.Error())
		}
		var list jobList
		if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &list); err != nil {
			switch {
			case forgejo.IsNoRoute(err): // a version the table does not know to lack it
				return failedFromTasks(ctx, c, a, out, failed)
			case forgejo.IsNotFound(err):
				return append(notes, "this forge does not list a run's jobs: open the run's html_url")
			}
			return append(notes, fmt.Sprintf("the jobs of run %d could not be read: %v", r.ID, err))
		}
		for _, j := range list.Jobs {
			if j == nil {
				continue
			}
			job := compactJob(j)
			if job.Conclusion != "failure" {
				continue
			}
			fj := FailedJob{ID: job.ID, RunID: r.ID, Name: job.Name, HTMLURL: job.HTMLURL}
			for _, s := range job.Steps {
				if s.Conclusion == "failure" {
					fj.Steps = append(fj.Steps, s.Name)
				}
			}
			if len(out.FailedJobs) < ciMaxLogTails {
				fj.LogTail = jobTail(ctx, c, a, job.ID)
			}
			out.FailedJobs = append(out.FailedJobs, fj)
		}
	}
	return notes
}

// failedFromTasks fills out.FailedJobs from the forge's task list: the
// failed tasks of the first failed runs (by run number), or, where runs
// could not be listed (failed is nil), of the commit. Each has the page
// where a person reads its log; the note says why no log tail is shown.
func failedFromTasks(ctx context.Context, c *forgejo.Client, a tool.Args, out *CIState, failed []Run) []string {
	var notes []string
	if len(failed) > ciMaxFailedRuns {
		notes = append(notes, fmt.Sprintf("jobs of the first %d failed runs shown; list_action_run_jobs lists the others'", ciMaxFailedRuns))
		failed = failed[:ciMaxFailedRuns]
	}
	byNumber := map[int64]Run{}
	for _, r := range failed {
		byNumber[r.RunNumber] = r
	}
	tasks, complete, err := tasksOf(ctx, c, a, func(t *rawTask) bool {
		if t.Status != "failure" || t.HeadSHA != "" && !strings.EqualFold(t.HeadSHA, out.SHA) {
			return false
		}
		_, ok := byNumber[t.RunNumber]
		return ok || failed == nil
	})
	if err != nil {
		return append(notes, "the failed jobs are not shown: "+forgejo.Relabel(err, "list the Actions tasks of", tool.FullName(a)).Error())
	}
	if len(tasks) > ciMaxTaskJobs {
		notes = append(notes, fmt.Sprintf("the first %d of %d failed jobs shown; list_action_run_jobs lists a run's jobs", ciMaxTaskJobs, len(tasks)))
		tasks = tasks[:ciMaxTaskJobs]
	}
	for _, t := range tasks {
		r, ok := byNumber[t.RunNumber]
		if !ok {
			r = Run{HTMLURL: t.URL}
		}
		out.FailedJobs = append(out.FailedJobs, FailedJob{RunID: r.ID, Name: t.Name, HTMLURL: jobPage(out.Statuses, r.HTMLURL, t.Name)})
	}
	if failed == nil && len(tasks) == 0 {
		return notes // no runs to read and no failed task: the statuses say it all
	}
	notes = append(notes, noJobRoutes(ctx, c))
	switch {
	case len(tasks) > 0:
	case !complete:
		notes = append(notes, fmt.Sprintf("no failed job among the repository's newest %d tasks: open the failed run's html_url", taskPageSize*taskMaxPages))
	default:
		notes = append(notes, "no failed job in the task list (a run can fail before a runner takes a job): open the failed run's html_url")
	}
	return notes
}

// jobTail is the last lines of job id's log, "" when it cannot be read.
func jobTail(ctx context.Context, c *forgejo.Client, a tool.Args, id int64) string {
	p, err := route(a, "jobs", fmt.Sprint(id), "logs")
	if err != nil || c.Require(ctx, http.MethodGet, "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs") != nil {
		return ""
	}
	l, err := logTail(ctx, c, "/api/v1"+p, ciTailLines, ciTailBytes)
	if err != nil {
		return ""
	}
	return l.Log
}

// severity orders states from none to worst, as the forge combines them.
var severity = map[string]int{"": 0, "success": 1, "warning": 1, "pending": 2, "error": 3, "failure": 4}

// worst is the more severe of two states.
func worst(a, b string) string {
	if severity[b] > severity[a] {
		return b
	}
	return a
}

// runsState is the state of a set of runs: failure when one failed or was
// cancelled, pending while one has not finished, success when all passed
// (skipped runs count as passed), "" for none.
func runsState(runs []CIRun) string {
	state := ""
	for _, r := range runs {
		switch {
		case r.Status != "completed":
			state = worst(state, "pending")
		case r.Conclusion == "failure" || r.Conclusion == "cancelled":
			state = worst(state, "failure")
		default:
			state = worst(state, "success")
		}
	}
	return state
}

// ciStatuses are a combined status's statuses in short.
func ciStatuses(combined repo.CombinedStatus) []CIStatus {
	out := make([]CIStatus, 0, len(combined.Statuses))
	for _, st := range combined.Statuses {
		out = append(out, CIStatus{Context: st.Context, State: st.State, Description: st.Description, TargetURL: st.TargetURL})
	}
	return out
}
