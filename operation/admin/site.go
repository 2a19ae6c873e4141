package admin

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The site as a whole: its organisations, e-mail addresses, cron tasks
// and the repositories on disk no account owns yet.

// Email is an e-mail address of some user.
type Email struct {
	Email    string `json:"email"`
	User     string `json:"user"`
	UserID   int64  `json:"user_id"`
	Verified bool   `json:"verified"`
	Primary  bool   `json:"primary"`
}

type rawEmail struct {
	Email    string `json:"email"`
	Username string `json:"username"`
	UserID   int64  `json:"user_id"`
	Verified bool   `json:"verified"`
	Primary  bool   `json:"primary"`
}

func compactEmail(e *rawEmail) Email {
	return Email{Email: e.Email, User: e.Username, UserID: e.UserID, Verified: e.Verified, Primary: e.Primary}
}

// CronTask is one of the site's scheduled tasks.
type CronTask struct {
	Name      string     `json:"name"`
	Schedule  string     `json:"schedule"`
	Next      *time.Time `json:"next,omitempty"`
	Prev      *time.Time `json:"prev,omitempty"`
	ExecTimes int64      `json:"exec_times"`
}

type rawCron struct {
	Name      string    `json:"name"`
	Schedule  string    `json:"schedule"`
	Next      time.Time `json:"next"`
	Prev      time.Time `json:"prev"`
	ExecTimes int64     `json:"exec_times"`
}

func compactCron(t *rawCron) CronTask {
	return CronTask{Name: t.Name, Schedule: t.Schedule, Next: forgejo.TimePtr(&t.Next), Prev: forgejo.TimePtr(&t.Prev), ExecTimes: t.ExecTimes}
}

// cronPattern is a cron task's name as the forges spell them
// (update_mirrors, delete_old_actions…): never a route changer.
var cronPattern = regexp.MustCompile(`^[a-z0-9_]+$`)

// Unadopted is a repository directory on disk that no account owns.
type Unadopted struct {
	FullName string `json:"full_name" trust:"repo"`
}

func siteTools() []tool.Def {
	owner, repo := tool.Owner().Describe("Owner directory (a user or organisation)"), tool.Repo().Describe("Repository directory, without .git")
	paging := tool.Paging()
	return slices.Concat(ownedTools(), []tool.Def{
		{
			Name: "list_site_orgs", Toolset: Toolset,
			Title: "List the site's organisations", Output: tool.ListPage[Org]{},
			Description: "List every organisation of the site, private ones too (admin)",
			Params:      paging, Annotations: tool.Read(), Handler: listOrgs,
		},
		{
			Name: "list_site_emails", Toolset: Toolset,
			Title: "List the site's e-mail addresses", Output: tool.ListPage[Email]{},
			Description: "List every user's e-mail addresses (admin)",
			Params:      paging, Annotations: tool.Read(), Handler: listEmails,
		},
		{
			Name: "search_site_emails", Toolset: Toolset,
			Title: "Search the site's e-mail addresses", Output: tool.ListPage[Email]{},
			Description: "Find users' e-mail addresses containing some text (admin)",
			Params: append([]tool.Param{tool.Str("query", "Text the address contains", tool.Required(), tool.MaxLen(255))},
				paging...),
			Annotations: tool.Read(), Handler: searchEmails,
		},
		{
			Name: "list_site_cron_tasks", Toolset: Toolset,
			Title: "List the site's cron tasks", Output: tool.ListPage[CronTask]{},
			Description: "List the site's scheduled maintenance tasks with their schedule, last and next run (admin)",
			Params:      paging, Annotations: tool.Read(), Handler: listCron,
		},
		{
			Name: "run_site_cron_task", Toolset: Toolset,
			Title: "Run a cron task now", Output: tool.Shape{"started": true, "task": ""},
			Description: "Start one of the site's cron tasks now, by name from list_site_cron_tasks (admin)",
			Params:      []tool.Param{tool.Str("task", "Task name, from list_site_cron_tasks", tool.Required(), tool.MaxLen(100), tool.Match(cronPattern, "lower-case letters, digits and underscores"))},
			Annotations: tool.Write(false), Handler: runCron,
		},
		{
			Name: "list_site_unadopted_repos", Toolset: Toolset,
			Title: "List unadopted repositories", Output: tool.ListPage[Unadopted]{},
			Description: "List repository directories on disk that no account owns (admin)",
			Params: append([]tool.Param{tool.Str("pattern", "Glob the owner/name matches, e.g. alice/*", tool.MaxLen(255))},
				paging...),
			Annotations: tool.Read(), Handler: listUnadopted,
		},
		{
			Name: "adopt_site_unadopted_repo", Toolset: Toolset,
			Title: "Adopt an unadopted repository", Output: tool.Shape{"adopted": true, "full_name": ""},
			Description: "Make a repository directory on disk its owner's repository (admin)",
			Params:      []tool.Param{owner, repo}, Annotations: tool.Write(false), Handler: adopt,
		},
		{
			Name: "delete_site_unadopted_repo", Toolset: Toolset,
			Title: "Delete an unadopted repository", Output: tool.DeletedOutput("full_name", ""),
			Description: "Delete a repository directory on disk that no account owns (admin)",
			Params:      []tool.Param{owner, repo}, Annotations: tool.Destroy(true), Handler: deleteUnadopted,
		},
	})
}

// list reads one page of a site list at p into T, and shapes it.
func list[S, T any](ctx context.Context, c *forgejo.Client, a tool.Args, p string, q url.Values, what string, f func(*S) T) (*mcp.CallToolResult, error) {
	var items []*S
	if err := c.DoJSON(ctx, http.MethodGet, p, q, nil, &items); err != nil {
		return nil, forgejo.Relabel(err, "list "+what+" of", "the site")
	}
	return tool.Items(tool.Map(items, f), a.Int("page"), int64(len(items)) >= a.Int("limit"))
}

func listOrgs(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return list(ctx, c, a, "/admin/orgs", tool.PageQuery(a), "the organisations", compactOrg)
}

func listEmails(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return list(ctx, c, a, "/admin/emails", tool.PageQuery(a), "the e-mail addresses", compactEmail)
}

func searchEmails(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	q := tool.PageQuery(a)
	q.Set("q", a.String("query"))
	return list(ctx, c, a, "/admin/emails/search", q, "the e-mail addresses matching "+a.String("query"), compactEmail)
}

func listCron(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return list(ctx, c, a, "/admin/cron", tool.PageQuery(a), "the cron tasks", compactCron)
}

func runCron(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("admin", "cron", a.String("task"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "run", "cron task "+a.String("task")+" (list_site_cron_tasks names them)")
	}
	return tool.JSON(map[string]any{"started": true, "task": a.String("task")})
}

func listUnadopted(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	q := tool.PageQuery(a)
	if s := strings.TrimSpace(a.String("pattern")); s != "" {
		q.Set("pattern", s)
	}
	var names []string
	if err := c.DoJSON(ctx, http.MethodGet, "/admin/unadopted", q, nil, &names); err != nil {
		return nil, forgejo.Relabel(err, "list the unadopted repositories of", "the site")
	}
	out := make([]Unadopted, 0, len(names))
	for _, n := range names {
		out = append(out, Unadopted{FullName: n})
	}
	return tool.Items(out, a.Int("page"), int64(len(names)) >= a.Int("limit"))
}

func unadoptedPath(a tool.Args) (string, error) {
	return forgejo.Path("admin", "unadopted", a.String("owner"), a.String("repo"))
}

func adopt(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := unadoptedPath(a)
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "adopt", "unadopted repository "+tool.FullName(a))
	}
	return tool.JSON(map[string]any{"adopted": true, "full_name": tool.FullName(a)})
}

func deleteUnadopted(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := unadoptedPath(a)
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", "unadopted repository "+tool.FullName(a))
	}
	return tool.Deleted("full_name", tool.FullName(a))
}
