package admin

import (
	"context"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The workflow runs and jobs of every repository of the site (Gitea's
// /admin/actions routes, which Forgejo lacks: forgejo.Routes).

// SiteRun is a workflow run of some repository of the site.
type SiteRun struct {
	ID         int64      `json:"id"`
	Repo       string     `json:"repo,omitempty" trust:"repo"`
	RunNumber  int64      `json:"run_number,omitempty"`
	Workflow   string     `json:"workflow,omitempty"`
	Title      string     `json:"title" trust:"text"`
	Status     string     `json:"status"`
	Conclusion string     `json:"conclusion,omitempty"`
	Event      string     `json:"event,omitempty"`
	Branch     string     `json:"branch,omitempty"`
	SHA        string     `json:"sha,omitempty"`
	Actor      string     `json:"actor,omitempty" trust:"author"`
	Started    *time.Time `json:"started,omitempty"`
	Completed  *time.Time `json:"completed,omitempty"`
	HTMLURL    string     `json:"html_url,omitempty"`
}

type rawSiteRun struct {
	ID         int64  `json:"id"`
	RunNumber  int64  `json:"run_number"`
	Path       string `json:"path"`
	Title      string `json:"display_title"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion"`
	Event      string `json:"event"`
	Branch     string `json:"head_branch"`
	SHA        string `json:"head_sha"`
	Actor      *struct {
		Login string `json:"login"`
	} `json:"actor"`
	Repository *struct {
		FullName string `json:"full_name"`
	} `json:"repository"`
	Started   time.Time `json:"started_at"`
	Completed time.Time `json:"completed_at"`
	HTMLURL   string    `json:"html_url"`
}

func compactSiteRun(r *rawSiteRun) SiteRun {
	out := SiteRun{ID: r.ID, RunNumber: r.RunNumber, Workflow: r.Path, Title: r.Title, Status: r.Status, Conclusion: r.Conclusion,
		Event: r.Event, Branch: r.Branch, SHA: r.SHA, Started: when(r.Started), Completed: when(r.Completed), HTMLURL: r.HTMLURL}
	if r.Actor != nil {
		out.Actor = r.Actor.Login
	}
	if r.Repository != nil {
		out.Repo = r.Repository.FullName
	}
	return out
}

// SiteJob is a workflow job of some repository of the site.
type SiteJob struct {
	ID         int64      `json:"id"`
	RunID      int64      `json:"run_id"`
	Name       string     `json:"name" trust:"text"`
	Status     string     `json:"status"`
	Conclusion string     `json:"conclusion,omitempty"`
	Labels     []string   `json:"labels,omitempty"`
	Runner     string     `json:"runner,omitempty"`
	Started    *time.Time `json:"started,omitempty"`
	Completed  *time.Time `json:"completed,omitempty"`
	HTMLURL    string     `json:"html_url,omitempty"`
}

type rawSiteJob struct {
	ID         int64     `json:"id"`
	RunID      int64     `json:"run_id"`
	Name       string    `json:"name"`
	Status     string    `json:"status"`
	Conclusion string    `json:"conclusion"`
	Labels     []string  `json:"labels"`
	Runner     string    `json:"runner_name"`
	Started    time.Time `json:"started_at"`
	Completed  time.Time `json:"completed_at"`
	HTMLURL    string    `json:"html_url"`
}

func compactSiteJob(j *rawSiteJob) SiteJob {
	return SiteJob{ID: j.ID, RunID: j.RunID, Name: j.Name, Status: j.Status, Conclusion: j.Conclusion, Labels: j.Labels,
		Runner: j.Runner, Started: when(j.Started), Completed: when(j.Completed), HTMLURL: j.HTMLURL}
}

// when drops the forge's "never" times (zero, or the Unix epoch).
func when(t time.Time) *time.Time {
	if t.Unix() <= 0 {
		return nil
	}
	return &t
}

// statuses are the run and job states the routes filter by.
var statuses = []string{"pending", "queued", "in_progress", "failure", "success", "skipped"}

func actionTools() []tool.Def {
	status := tool.Str("status", "Only runs in this state", tool.OneOf(statuses...))
	return []tool.Def{
		{
			Name: "list_site_workflow_runs", Toolset: Toolset,
			Title: "List the site's workflow runs", Output: tool.ListPage[SiteRun]{},
			Description: "List the workflow runs of every repository, newest first (admin; Gitea)",
			Params: []tool.Param{status, tool.Str("event", "Only runs of this event, e.g. push", tool.MaxLen(100)),
				tool.Str("branch", "Only runs on this branch", tool.MaxLen(255)),
				tool.Str("actor", "Only runs this user triggered", tool.MaxLen(100)),
				tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listSiteRuns,
		},
		{
			Name: "list_site_action_jobs", Toolset: Toolset,
			Title: "List the site's workflow jobs", Output: tool.ListPage[SiteJob]{},
			Description: "List the workflow jobs of every repository, e.g. the queued ones no runner takes (admin; Gitea)",
			Params:      []tool.Param{status.Describe("Only jobs in this state"), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listSiteJobs,
		},
	}
}

func listSiteRuns(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	q := tool.PageQuery(a)
	for _, n := range []string{"status", "event", "branch", "actor"} {
		if s := a.String(n); s != "" {
			q.Set(n, s)
		}
	}
	var out struct {
		Runs  []*rawSiteRun `json:"workflow_runs"`
		Total int64         `json:"total_count"`
	}
	if err := c.DoJSON(ctx, http.MethodGet, "/admin/actions/runs", q, nil, &out); err != nil {
		return nil, forgejo.Relabel(err, "list the workflow runs of", "the site")
	}
	return tool.Items(tool.Map(out.Runs, compactSiteRun), a.Int("page"), a.Int("page")*a.Int("limit") < out.Total)
}

func listSiteJobs(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	q := tool.PageQuery(a)
	if s := a.String("status"); s != "" {
		q.Set("status", s)
	}
	var out struct {
		Jobs  []*rawSiteJob `json:"jobs"`
		Total int64         `json:"total_count"`
	}
	if err := c.DoJSON(ctx, http.MethodGet, "/admin/actions/jobs", q, nil, &out); err != nil {
		return nil, forgejo.Relabel(err, "list the workflow jobs of", "the site")
	}
	return tool.Items(tool.Map(out.Jobs, compactSiteJob), a.Int("page"), a.Int("page")*a.Int("limit") < out.Total)
}
