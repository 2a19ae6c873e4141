// Package tracking has the time-tracking and stopwatch tools. The forge
// only accepts them on repositories whose issue tracker has time tracking
// enabled.
package tracking

import (
	"context"
	"fmt"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the tracking toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "tracking", Description: "Tracked time and stopwatches on issues"}

// Tools returns the tracking toolset.
func Tools() []tool.Def {
	issueParams := func(extra ...tool.Param) []tool.Param {
		return append([]tool.Param{tool.Owner(), tool.Repo(), tool.Index()}, extra...)
	}
	return []tool.Def{
		{
			Name: "add_issue_time", Toolset: Toolset,
			Title: "Track time on an issue", Output: Entry{},
			Description: "Record time spent on an issue, in seconds",
			Params:      issueParams(tool.Int("seconds", "Time spent, in seconds", tool.Required(), tool.Range(1, 10*365*24*3600))),
			Annotations: tool.Write(false), Handler: addTime,
		},
		{
			Name: "list_issue_tracked_times", Toolset: Toolset,
			Title: "List an issue's tracked time", Output: tool.ListPage[Entry]{},
			Description: "List the time entries recorded on an issue",
			Params:      issueParams(tool.Since("created"), tool.Before("created"), tool.Page(), tool.Limit()),
			Annotations: tool.Read(), Handler: listIssueTimes,
		},
		{
			Name: "delete_issue_time_entry", Toolset: Toolset,
			Title: "Delete a tracked time entry", Output: tool.DeletedOutput("entry_id", int64(0)),
			Description: "Delete one time entry from an issue",
			Params:      issueParams(tool.ID("entry_id", "ID of the time entry")),
			Annotations: tool.Destroy(true), Handler: deleteTime,
		},
		{
			Name: "reset_issue_time", Toolset: Toolset,
			Title: "Reset an issue's tracked time", Output: tool.Shape{"reset": true, "issue": int64(0)},
			Description: "Delete all of your time entries on an issue",
			Params:      issueParams(),
			Annotations: tool.Destroy(true), Handler: resetTime,
		},
		{
			Name: "list_repo_tracked_times", Toolset: Toolset,
			Title: "List a repository's tracked time", Output: tool.ListPage[Entry]{},
			Description: "List the time entries recorded in a repository, optionally of one user",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				tool.Str("user", "Only entries of this login", tool.MaxLen(100)),
				tool.Since("created"), tool.Before("created"), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listRepoTimes,
		},
		{
			Name: "list_my_tracked_times", Toolset: Toolset,
			Title: "List my tracked time", Output: tool.ListPage[Entry]{},
			Description: "List your own time entries across repositories",
			Params:      []tool.Param{tool.Since("created"), tool.Before("created"), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listMyTimes,
		},
		{
			Name: "start_issue_stopwatch", Toolset: Toolset,
			Title: "Start a stopwatch", Output: tool.Shape{"stopwatch": "", "issue": int64(0)},
			Description: "Start your stopwatch on an issue",
			Params:      issueParams(),
			Annotations: tool.Write(false), Handler: stopwatch("start", "start the stopwatch on"),
		},
		{
			Name: "stop_issue_stopwatch", Toolset: Toolset,
			Title: "Stop a stopwatch", Output: tool.Shape{"stopwatch": "", "issue": int64(0)},
			Description: "Stop your stopwatch on an issue and record the elapsed time",
			Params:      issueParams(),
			Annotations: tool.Write(false), Handler: stopwatch("stop", "stop the stopwatch on"),
		},
		{
			Name: "cancel_issue_stopwatch", Toolset: Toolset,
			Title: "Cancel a stopwatch", Output: tool.Shape{"stopwatch": "", "issue": int64(0)},
			Description: "Discard your running stopwatch on an issue without recording time",
			Params:      issueParams(),
			Annotations: tool.Destroy(false), Handler: stopwatch("cancel", "cancel the stopwatch on"),
		},
		{
			Name: "list_my_stopwatches", Toolset: Toolset,
			Title: "List my running stopwatches", Output: tool.ListPage[Stopwatch]{},
			Description: "List your running stopwatches",
			Annotations: tool.Read(), Handler: listStopwatches,
		},
	}
}

// Entry is the compact shape of a tracked time entry.
type Entry struct {
	ID      int64     `json:"id"`
	Seconds int64     `json:"seconds"`
	User    string    `json:"user"`
	Repo    string    `json:"repo,omitempty" trust:"repo"`
	Issue   int64     `json:"issue,omitempty"`
	Created time.Time `json:"created_at"`
}

func compact(t *sdk.TrackedTime) Entry {
	e := Entry{ID: t.ID, Seconds: t.Time, User: t.UserName, Created: t.Created}
	if t.Issue != nil {
		e.Issue = t.Issue.Index
		if t.Issue.Repository != nil {
			e.Repo = t.Issue.Repository.FullName
		}
	}
	return e
}

// Stopwatch is the compact shape of a running stopwatch.
type Stopwatch struct {
	Repo    string    `json:"repo" trust:"repo"`
	Issue   int64     `json:"issue"`
	Title   string    `json:"issue_title" trust:"text"`
	Seconds int64     `json:"seconds"`
	Started time.Time `json:"started_at"`
}

// timesOpts is the page and the since/before window of a times list.
func timesOpts(a tool.Args) (sdk.ListTrackedTimesOptions, error) {
	o := sdk.ListTrackedTimesOptions{ListOptions: tool.ListOptions(a)}
	var err error
	o.Since, o.Before, err = a.Window()
	return o, err
}

func addTime(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	t, resp, err := c.SDK(ctx).AddTime(a.String("owner"), a.String("repo"), a.Int("index"), sdk.AddTimeOption{Time: a.Int("seconds")})
	if err := forgejo.Fail(resp, err, "add time to", tool.IssueRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compact(t))
}

func listIssueTimes(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	opts, err := timesOpts(a)
	if err != nil {
		return nil, err
	}
	list, resp, err := c.SDK(ctx).ListIssueTrackedTimes(a.String("owner"), a.String("repo"), a.Int("index"), opts)
	if err := forgejo.Fail(resp, err, "list tracked times of", tool.IssueRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compact)
}

func deleteTime(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).DeleteTime(a.String("owner"), a.String("repo"), a.Int("index"), a.Int("entry_id"))
	if err := forgejo.Fail(resp, err, "delete", fmt.Sprintf("time entry %d of %s", a.Int("entry_id"), tool.IssueRef(a))); err != nil {
		return nil, err
	}
	return tool.Deleted("entry_id", a.Int("entry_id"))
}

func resetTime(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	o, r, i := a.String("owner"), a.String("repo"), a.Int("index")
	resp, err := c.SDK(ctx).ResetIssueTime(o, r, i)
	if err := forgejo.Fail(resp, err, "reset the tracked time of", tool.IssueRef(a)); err != nil {
		// The forge answers 404 both for a missing issue and for an
		// issue without time of yours ("tracked_time does not exist"):
		// look at the issue to tell which.
		if forgejo.IsNotFound(err) {
			if _, iresp, ierr := c.SDK(ctx).GetIssue(o, r, i); ierr == nil && iresp != nil {
				return nil, fmt.Errorf("nothing to reset: you have no time recorded on %s (list_issue_tracked_times shows whose time is)", tool.IssueRef(a))
			}
		}
		return nil, err
	}
	return tool.JSON(map[string]any{"reset": true, "issue": a.Int("index")})
}

func listRepoTimes(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	opts, err := timesOpts(a)
	if err != nil {
		return nil, err
	}
	opts.User = a.String("user")
	list, resp, err := c.SDK(ctx).ListRepoTrackedTimes(a.String("owner"), a.String("repo"), opts)
	if err := forgejo.Fail(resp, err, "list tracked times of", tool.RepoRef(a)); err != nil {
		// An unknown user also makes the forge answer 404 (Gitea even
		// crashes on it): tell which is missing.
		if forgejo.IsNotFound(err) && opts.User != "" {
			_, uresp, uerr := c.SDK(ctx).GetUserInfo(opts.User)
			if forgejo.IsNotFound(forgejo.Fail(uresp, uerr, "get", "")) {
				return nil, forgejo.NotFoundAs(err, "user "+opts.User)
			}
		}
		return nil, err
	}
	return tool.ListResult(a, resp, list, compact)
}

// listMyTimes goes raw: the SDK's GetMyTrackedTimes takes no page.
func listMyTimes(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	var list []*sdk.TrackedTime
	opts, err := timesOpts(a)
	if err != nil {
		return nil, err
	}
	q := tool.PageQuery(a)
	if !opts.Since.IsZero() {
		q.Set("since", opts.Since.Format(time.RFC3339))
	}
	if !opts.Before.IsZero() {
		q.Set("before", opts.Before.Format(time.RFC3339))
	}
	if err := c.DoJSON(ctx, "GET", "/user/times", q, nil, &list); err != nil {
		return nil, forgejo.Relabel(err, "list", "your tracked times")
	}
	return tool.ListResult(a, nil, list, compact)
}

func stopwatch(action, verb string) tool.Handler {
	return func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
		o, r, i := a.String("owner"), a.String("repo"), a.Int("index")
		var resp *sdk.Response
		var err error
		switch action {
		case "start":
			resp, err = c.SDK(ctx).StartIssueStopWatch(o, r, i)
		case "stop":
			resp, err = c.SDK(ctx).StopIssueStopWatch(o, r, i)
		default:
			resp, err = c.SDK(ctx).DeleteIssueStopwatch(o, r, i)
		}
		if err := forgejo.Fail(resp, err, verb, tool.IssueRef(a)); err != nil {
			return nil, err
		}
		return tool.JSON(map[string]any{"stopwatch": map[string]string{"start": "started", "stop": "stopped", "cancel": "cancelled"}[action], "issue": i})
	}
}

func listStopwatches(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).GetMyStopwatches()
	if err := forgejo.Fail(resp, err, "list", "your stopwatches"); err != nil {
		return nil, err
	}
	// One page: the forge has no paging here, and a user runs few.
	return tool.Items(tool.Map(list, func(s *sdk.StopWatch) Stopwatch {
		return Stopwatch{Repo: s.RepoOwnerName + "/" + s.RepoName, Issue: s.IssueIndex, Title: s.IssueTitle,
			Seconds: s.Seconds, Started: s.Created}
	}), 1, false)
}
