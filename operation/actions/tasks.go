package actions

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// A run's jobs where the forge has no route for them (Forgejo up to
// 15.0.3, forgejo.Routes): its task list, GET …/actions/tasks, which every
// described forge has, holds one task per job a runner took (per attempt),
// newest first, with the job's name, its status in Forgejo's words, the
// run's number, the commit and the run's web page. A job's own page, where
// a person reads its log, is the target of the commit status Forgejo posts
// for each job of a push or pull request run (context "WORKFLOW / JOB
// (EVENT)", target RUN_PAGE/jobs/INDEX; Gitea 1.26 the same, its target
// ending in the job's id); where no status names the job, the
// run's page lists it. A job no runner has taken has no task yet.

// Bounds of a task list read: the forges' largest page, and the pages
// read (the repository's newest 200 tasks).
const (
	taskPageSize = 50
	taskMaxPages = 4
)

// rawTask is one task as both flavours send it (ActionTask).
type rawTask struct {
	ID           int64     `json:"id"`
	Name         string    `json:"name"`
	Status       string    `json:"status"`
	RunNumber    int64     `json:"run_number"`
	HeadSHA      string    `json:"head_sha"`
	URL          string    `json:"url"`
	RunStartedAt time.Time `json:"run_started_at"`
	UpdatedAt    time.Time `json:"updated_at"`
}

// rawRunRef is what a job list from the task list needs of its run, as
// either flavour names it (Forgejo's first: only a Forgejo is known to
// lack the jobs route, forgejo.Routes).
type rawRunRef struct {
	ID          int64  `json:"id"`
	HTMLURL     string `json:"html_url"`
	IndexInRepo int64  `json:"index_in_repo"`
	CommitSHA   string `json:"commit_sha"`
	RunNumber   int64  `json:"run_number"`
	HeadSHA     string `json:"head_sha"`
}

// rawTaskList is a page of tasks; the forges name the list workflow_runs.
type rawTaskList struct {
	Tasks []*rawTask `json:"workflow_runs"`
	Total int64      `json:"total_count"`
}

// tasksOf reads the repository's task list, newest first, for the tasks
// keep wants, the newest one per run and job name (a job run again has a
// task per attempt), in the order read. complete is false when tasks were
// left unread (taskMaxPages).
func tasksOf(ctx context.Context, c *forgejo.Client, a tool.Args, keep func(*rawTask) bool) (tasks []*rawTask, complete bool, err error) {
	p, err := route(a, "tasks")
	if err != nil {
		return nil, false, err
	}
	seen := map[string]int{} // run number and job name → index in tasks
	for page, read := int64(1), int64(0); page <= taskMaxPages; page++ {
		var list rawTaskList
		q := url.Values{"page": {fmt.Sprint(page)}, "limit": {fmt.Sprint(taskPageSize)}}
		if err := c.DoJSON(ctx, http.MethodGet, p, q, nil, &list); err != nil {
			return nil, false, err
		}
		for _, t := range list.Tasks {
			if t == nil || !keep(t) {
				continue
			}
			k := fmt.Sprint(t.RunNumber, "\x00", t.Name)
			if i, ok := seen[k]; ok {
				if t.ID > tasks[i].ID {
					tasks[i] = t
				}
				continue
			}
			seen[k] = len(tasks)
			tasks = append(tasks, t)
		}
		read += int64(len(list.Tasks))
		if len(list.Tasks) < taskPageSize || read >= list.Total && list.Total > 0 {
			return tasks, true, nil
		}
	}
	return tasks, false, nil
}

// jobPage is the web page of job name in the run whose page is runURL: the
// target of the commit status the forge posted for the job, when one of
// statuses is (same origin, under the run's page), else the run's page.
// A status's target is set by whoever posts it; only one under the run's
// own page is taken.
func jobPage(statuses []CIStatus, runURL, name string) string {
	base, err := url.Parse(runURL)
	if err != nil || runURL == "" {
		return runURL
	}
	under := strings.TrimSuffix(base.Path, "/") + "/jobs/"
	for _, s := range statuses {
		// "ci / test (push)"; a workflow without a name gives
		// "/ test (push)" (the forge trims the context; Gitea 1.26, live).
		job := "/ " + name + " ("
		if s.TargetURL == "" || !strings.HasPrefix(s.Context, job) && !strings.Contains(s.Context, " "+job) {
			continue
		}
		t, err := base.Parse(s.TargetURL) // Forgejo's targets are paths below its root
		if err == nil && t.Scheme == base.Scheme && t.Host == base.Host && strings.HasPrefix(t.Path, under) &&
			!strings.Contains(strings.TrimPrefix(t.Path, under), "/") {
			return t.String()
		}
	}
	return runURL
}

// noJobRoutes is the one line a job list or CI state built from the task
// list carries: why no log is shown, which forge versions would show it,
// and where a person reads it.
func noJobRoutes(ctx context.Context, c *forgejo.Client) string {
	forge := "this forge"
	if f, err := c.Forge(ctx); err == nil {
		forge += " (" + f.String() + ")"
	}
	logs, _ := forgejo.RouteFor(http.MethodGet, "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs")
	return fmt.Sprintf("no log tails: %s has no API route for a run's jobs, so no job's log can be read. "+
		"Which versions have the job log route: %s. "+
		"The jobs are from its task list (only jobs a runner took); each html_url is the job's page, where a person reads its log",
		forge, logs.Needs())
}

// taskJob is a task as a job of the run with id runID: no job id (the task
// list has none), its status split as a Forgejo job's is.
func taskJob(t *rawTask, runID int64, page string) Job {
	status, conclusion, forge := forgejoStatus(t.Status)
	return Job{RunID: runID, Name: t.Name, Status: status, Conclusion: conclusion, ForgeStatus: forge,
		Started: when(t.RunStartedAt), HTMLURL: page}
}

// jobsFromTasks is list_action_run_jobs on a forge without the route for
// a run's jobs (jobsErr, its refusal or its router's 404): the run's jobs
// from the task list, each with its page, and the line that says why.
func jobsFromTasks(ctx context.Context, c *forgejo.Client, a tool.Args, jobsErr error) (JobPage, error) {
	rp, err := route(a, "runs", tool.Seg(a, "run_id"))
	if err != nil {
		return JobPage{}, err
	}
	var run rawRunRef
	if err := c.DoJSON(ctx, http.MethodGet, rp, nil, nil, &run); err != nil {
		if forgejo.IsNoRoute(err) { // no run either (Forgejo 10): the first refusal says it
			return JobPage{}, forgejo.Relabel(jobsErr, "list jobs of", runRef(a))
		}
		return JobPage{}, forgejo.Relabel(err, "get", runRef(a))
	}
	number, sha := or(run.IndexInRepo, run.RunNumber), or(run.CommitSHA, run.HeadSHA)
	tasks, complete, err := tasksOf(ctx, c, a, func(t *rawTask) bool {
		return t.RunNumber == number && (t.HeadSHA == "" || sha == "" || strings.EqualFold(t.HeadSHA, sha))
	})
	if err != nil {
		return JobPage{}, forgejo.Relabel(err, "list the Actions tasks of", tool.FullName(a))
	}
	var statuses []CIStatus
	if len(tasks) > 0 && sha != "" {
		statuses = statusesOf(ctx, c, a, sha) // for the jobs' pages; without them, the run's page
	}
	jobs := make([]Job, 0, len(tasks))
	for _, t := range tasks {
		jobs = append(jobs, taskJob(t, run.ID, jobPage(statuses, run.HTMLURL, t.Name)))
	}
	page, more := forgejo.Cut(jobs, int(a.Int("page")), int(a.Int("limit")))
	out := JobPage{Items: page, Page: a.Int("page"), HasMore: more, Note: noJobRoutes(ctx, c)}
	if !complete {
		out.Note += fmt.Sprintf("; only the repository's newest %d tasks were read", taskPageSize*taskMaxPages)
	}
	return out, nil
}

// statusesOf is commit sha's latest statuses, none when they cannot be
// read (they only make a job's page more precise).
func statusesOf(ctx context.Context, c *forgejo.Client, a tool.Args, sha string) []CIStatus {
	combined, err := repo.CombinedOf(ctx, c, a, sha)
	if err != nil {
		return nil
	}
	return ciStatuses(combined)
}
