// Package actions has the tools for a repository's Actions workflow runs,
// their jobs and logs, and workflow_dispatch. forgejo-sdk's action types
// follow Forgejo's JSON, which differs from Gitea's (display_title,
// head_branch, conclusion…), so every request goes through DoJSON/DoRaw
// with routes built by forgejo.Path and Gitea-shaped types here.
package actions

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/workflow"
)

// Toolset is the actions toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "actions", Description: "Actions workflow runs, jobs, logs and dispatch"}

// Tools returns the actions toolset.
func Tools() []tool.Def {
	base := []tool.Param{tool.Owner(), tool.Repo()}
	runID := tool.ID("run_id", "Workflow run ID (id from list_workflow_runs)")
	jobID := tool.ID("job_id", "Job ID (id from list_action_run_jobs)")
	return append([]tool.Def{
		{
			Name: "list_workflow_runs", Toolset: Toolset,
			Title: "List workflow runs", Output: tool.ListPage[Run]{},
			Description: "List a repository's Actions workflow runs, newest first",
			Params: append(base,
				tool.Str("status", "Filter by status", tool.OneOf("queued", "in_progress", "waiting", "completed",
					"success", "failure", "cancelled", "skipped")),
				tool.Str("branch", "Filter by branch", tool.MaxLen(255)),
				tool.Str("event", "Filter by event (push, pull_request, workflow_dispatch…)", tool.MaxLen(100)),
				tool.Str("head_sha", "Filter by commit (full SHA)", tool.Match(fullSHA, "a full commit SHA: 40 or 64 hex digits")),
				tool.Str("workflow", "Filter by workflow file, e.g. ci.yml", tool.MaxLen(255)),
				tool.Page(), tool.Limit()),
			Annotations: tool.Read(), Handler: listRuns,
		},
		{
			Name: "get_workflow_run", Toolset: Toolset,
			Title: "Get a workflow run", Output: Run{},
			Description: "Get one Actions workflow run",
			Params:      append(base, runID), Annotations: tool.Read(), Handler: getRun,
		},
		{
			Name: "list_action_run_jobs", Toolset: Toolset,
			Title: "List a workflow run's jobs", Output: JobPage{},
			Description: "List the jobs of a workflow run with their steps",
			Params:      append(base, runID, tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: listJobs,
		},
		logTool(base, jobID),
		{
			Name: "dispatch_workflow", Toolset: Toolset,
			Title: "Dispatch a workflow", Output: tool.Shape{"dispatched": "", "inputs_checked": false, "note": ""},
			Description: "Run a workflow that has a workflow_dispatch trigger; inputs are checked against the workflow file's first",
			Params: append(base,
				tool.Str("workflow", "Workflow file name, e.g. ci.yml", tool.Required(), tool.MaxLen(255)),
				tool.Str("ref", "Branch or tag to run on", tool.Required(), tool.MaxLen(255)),
				tool.StrMap("inputs", "Workflow inputs, e.g. {\"level\": \"debug\"}")),
			Annotations: tool.Write(false), Handler: dispatch,
		},
	}, slices.Concat(artifactTools(), controlTools(), ciTools(), workflowTools(base), []tool.Def{taskListTool(base)})...)
}

type rawUser struct {
	Login string `json:"login"`
}

// rawRun decodes a workflow run as either flavour sends it: Gitea's
// ActionWorkflowRun and Forgejo's ActionRun share id, html_url, event and
// status and name the rest differently (forgejo.Fields lists each pair).
type rawRun struct {
	ID      int64  `json:"id"`
	HTMLURL string `json:"html_url"`
	Event   string `json:"event"`
	Status  string `json:"status"`
	// Gitea's spellings.
	DisplayTitle string    `json:"display_title"`
	Path         string    `json:"path"`
	RunNumber    int64     `json:"run_number"`
	HeadSHA      string    `json:"head_sha"`
	HeadBranch   string    `json:"head_branch"`
	Conclusion   string    `json:"conclusion"`
	Actor        *rawUser  `json:"actor"`
	StartedAt    time.Time `json:"started_at"`
	CompletedAt  time.Time `json:"completed_at"`
	// Forgejo's spellings.
	Title        string    `json:"title"`
	TriggerEvent string    `json:"trigger_event"` // the event; Forgejo's event is "" for a dispatched run
	WorkflowID   string    `json:"workflow_id"`
	IndexInRepo  int64     `json:"index_in_repo"`
	CommitSHA    string    `json:"commit_sha"`
	PrettyRef    string    `json:"prettyref"`
	TriggerUser  *rawUser  `json:"trigger_user"`
	Started      time.Time `json:"started"`
	Stopped      time.Time `json:"stopped"`
	Duration     int64     `json:"duration"` // nanoseconds
}

// Run is the compact shape of a workflow run, the same from either flavour.
type Run struct {
	ID         int64  `json:"id"`
	RunNumber  int64  `json:"run_number,omitempty"`
	Workflow   string `json:"workflow,omitempty"`
	Title      string `json:"title" trust:"text"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion,omitempty"`
	// ForgeStatus is the forge's own word when status translates it
	// (Forgejo's waiting is queued here, its blocked waiting).
	ForgeStatus string     `json:"forge_status,omitempty"`
	Branch      string     `json:"branch,omitempty"`
	SHA         string     `json:"sha,omitempty"`
	Event       string     `json:"event,omitempty"`
	Actor       string     `json:"actor,omitempty" trust:"author"`
	Started     *time.Time `json:"started,omitempty"`
	Completed   *time.Time `json:"completed,omitempty"`
	Duration    string     `json:"duration,omitempty"`
	HTMLURL     string     `json:"html_url"`
}

// when drops the forge's "never" times (zero, or the Unix epoch).
func when(t time.Time) *time.Time {
	if t.Unix() <= 0 {
		return nil
	}
	return &t
}

// or returns the first non-empty value: Gitea's spelling, then Forgejo's.
func or[T comparable](v ...T) T {
	var zero T
	for _, x := range v {
		if x != zero {
			return x
		}
	}
	return zero
}

// forgejoStatus splits Forgejo's one run or job status into Gitea's
// status and conclusion, so agents read one vocabulary and one status
// filter means the same on both: a finished run is "completed" with its
// outcome as the conclusion. Forgejo's "waiting" (no runner has taken it)
// is Gitea's "queued", and Forgejo's "blocked" (waiting for another job or
// an approval) is Gitea's "waiting"; forge is the forge's own word when it
// differs from both results.
func forgejoStatus(s string) (status, conclusion, forge string) {
	switch s {
	case "success", "failure", "cancelled", "skipped":
		return "completed", s, ""
	case "running":
		return "in_progress", "", s
	case "waiting":
		return "queued", "", s
	case "blocked":
		return "waiting", "", s
	}
	return s, "", ""
}

// forgejoShaped reports whether r is Forgejo's ActionRun rather than
// Gitea's ActionWorkflowRun: "waiting" means a different thing in each.
func (r *rawRun) forgejoShaped() bool {
	forgejos := r.Title != "" || r.IndexInRepo != 0 || r.TriggerEvent != "" || r.WorkflowID != "" ||
		r.CommitSHA != "" || r.PrettyRef != "" || r.TriggerUser != nil
	giteas := r.DisplayTitle != "" || r.RunNumber != 0 || r.HeadSHA != "" || r.Path != "" || r.Conclusion != "" || r.Actor != nil
	return forgejos && !giteas
}

func compactRun(r *rawRun) Run {
	wf, _, _ := strings.Cut(or(r.Path, r.WorkflowID), "@") // Gitea: "ci.yml@refs/heads/main"
	out := Run{ID: r.ID, RunNumber: or(r.RunNumber, r.IndexInRepo), Workflow: wf, Title: or(r.DisplayTitle, r.Title),
		Status: r.Status, Conclusion: r.Conclusion, Branch: or(r.HeadBranch, r.PrettyRef), SHA: or(r.HeadSHA, r.CommitSHA),
		Event: or(r.TriggerEvent, r.Event), Started: when(or(r.StartedAt, r.Started)), Completed: when(or(r.CompletedAt, r.Stopped)), HTMLURL: r.HTMLURL}
	if r.forgejoShaped() {
		out.Status, out.Conclusion, out.ForgeStatus = forgejoStatus(r.Status)
	}
	if u := or(r.Actor, r.TriggerUser); u != nil {
		out.Actor = u.Login
	}
	switch {
	case r.Duration > 0:
		out.Duration = time.Duration(r.Duration).Round(time.Second).String()
	case out.Started != nil && out.Completed != nil && !out.Completed.Before(*out.Started):
		out.Duration = out.Completed.Sub(*out.Started).Round(time.Second).String()
	}
	return out
}

func runRef(a tool.Args) string {
	return fmt.Sprintf("workflow run %d in %s", a.Int("run_id"), tool.FullName(a))
}

func jobRef(a tool.Args) string {
	return fmt.Sprintf("Actions job %d in %s", a.Int("job_id"), tool.FullName(a))
}

// route is /repos/{owner}/{repo}/actions/{more...}, every segment escaped.
func route(a tool.Args, more ...string) (string, error) {
	return tool.RepoRoute(a, append([]string{"actions"}, more...)...)
}

// disabled rewrites a 404 on a repository-wide Actions route: the
// repository is missing, or Actions are disabled for it or on the forge.
func disabled(err error, verb, subject string) error {
	if forgejo.IsNotFound(err) {
		return fmt.Errorf("%s %s: not found (404): the repository does not exist, this token cannot see it, or Actions are disabled for it or on the forge", verb, subject)
	}
	return forgejo.Relabel(err, verb, subject)
}

func listRuns(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	f := runFilter{branch: a.String("branch"), sha: a.String("head_sha"), workflow: a.String("workflow"), status: a.String("status")}
	items, more, err := runsOf(ctx, c, a, f, a.String("event"))
	if err != nil {
		return nil, disabled(err, "list workflow runs of", tool.FullName(a))
	}
	return tool.Items(items, a.Int("page"), more)
}

func getRun(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := route(a, "runs", tool.Seg(a, "run_id"))
	if err != nil {
		return nil, err
	}
	var r rawRun
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &r); err != nil {
		return nil, forgejo.Relabel(err, "get", runRef(a))
	}
	return tool.JSON(compactRun(&r))
}

// notStarted explains a 404 from the logs route: Gitea answers 404 both for
// a missing job and for one no runner has started yet, and has a route to
// read the job's status; Forgejo has none (forgejo.Routes).
func notStarted(ctx context.Context, c *forgejo.Client, a tool.Args, logErr error) error {
	p, err := route(a, "jobs", tool.Seg(a, "job_id"))
	if err != nil {
		return err
	}
	if c.Require(ctx, http.MethodGet, "/repos/{owner}/{repo}/actions/jobs/{job_id}") != nil {
		return forgejo.Relabel(logErr, "get the log of", jobRef(a)) // Forgejo cannot say more
	}
	var j rawJob
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &j); err != nil {
		return forgejo.Relabel(logErr, "get the log of", jobRef(a))
	}
	return fmt.Errorf("%s has no log yet (status %q): no runner has started it; check that a runner with labels %v is online",
		jobRef(a), j.Status, j.Labels)
}

func dispatch(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	wf := a.String("workflow")
	if res := fileName(wf); res != nil {
		return res, nil
	}
	inputs := a.StrMap("inputs")
	p, err := route(a, "workflows", wf, "dispatches")
	if err != nil {
		return nil, err
	}
	subject := fmt.Sprintf("workflow %s on %s in %s", wf, a.String("ref"), tool.FullName(a))
	checked, unchecked, refusal := checkDispatch(ctx, c, a, wf, inputs)
	if refusal != "" {
		return tool.Error("dispatch " + subject + ": " + refusal + "; nothing was sent"), nil
	}
	body := map[string]any{"ref": a.String("ref")}
	if len(inputs) > 0 {
		body["inputs"] = inputs
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, nil); err != nil {
		return nil, forgejo.Relabel(err, "dispatch", subject)
	}
	note := "the run appears within seconds in list_workflow_runs event=workflow_dispatch"
	if unchecked != "" {
		note += "; inputs not checked: " + unchecked
	}
	return tool.JSON(map[string]any{"dispatched": subject, "inputs_checked": checked, "note": note})
}

// checkDispatch reads the workflow file at the dispatch's ref and checks
// inputs against its workflow_dispatch trigger, so a dispatch is right
// the first time: refusal says what is wrong, before anything is sent.
// When the file cannot be read or parsed the forge decides, and
// unchecked says why this server could not.
func checkDispatch(ctx context.Context, c *forgejo.Client, a tool.Args, wf string, inputs map[string]string) (checked bool, unchecked, refusal string) {
	f, err := readWorkflow(ctx, c, a, wf, a.String("ref"))
	if err != nil {
		if ctx.Err() != nil {
			return false, "", ctx.Err().Error()
		}
		return false, forgejo.Clip(err.Error()), ""
	}
	w, err := workflow.Parse(f.data)
	if err != nil {
		return false, f.path + ": " + err.Error(), ""
	}
	if !w.Dispatchable {
		return false, "", f.path + " has no workflow_dispatch trigger under on:, so it cannot be dispatched"
	}
	if err := w.Check(inputs); err != nil {
		return false, "", err.Error()
	}
	return true, "", ""
}
