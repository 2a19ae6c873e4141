package issue

import (
	"context"
	"net/url"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The activity feeds that span repositories: an organisation's, a
// team's, a user's. Their entries are list_repo_activity's, with the
// repository each one happened in.

func feedTools() []tool.Def {
	feed := func(name, title, desc string, handler tool.Handler, params ...tool.Param) tool.Def {
		return tool.Def{
			Name: name, Toolset: ActivityToolset, Title: title, Output: tool.ListPage[FeedEntry]{},
			Description: desc,
			Params:      append(params, dateParam(), tool.Page(), tool.Limit()),
			Annotations: tool.Read(), Handler: handler,
		}
	}
	return []tool.Def{
		feed("list_org_activity", "List an organisation's activity",
			"An organisation's activity feed across its repositories; date narrows to one day", listOrgActivity, tool.Org()),
		feed("list_team_activity", "List a team's activity",
			"A team's activity feed across its repositories; date narrows to one day", listTeamActivity,
			tool.ID("team_id", "Team ID (from list_org_teams)")),
		feed("list_user_activity", "List a user's activity",
			"A user's activity feed: what they did and what happened where they watch; date narrows to one day", listUserActivity,
			tool.User(), tool.Bool("only_performed_by", "Only what the user did")),
	}
}

func dateParam() tool.Param {
	return tool.Str("date", "Only this day, as 2026-01-31", tool.Match(dayPattern, "a date, YYYY-MM-DD"))
}

// FeedEntry is one entry of a feed that spans repositories.
type FeedEntry struct {
	Repo string `json:"repo,omitempty" trust:"repo"` // owner/name
	Activity
}

// rawActivity is the part of the forge's Activity the tools read.
type rawActivity struct {
	ID      int64     `json:"id"`
	OpType  string    `json:"op_type"`
	ActUser *sdk.User `json:"act_user"`
	Repo    *struct {
		FullName string `json:"full_name"`
	} `json:"repo"`
	RefName string    `json:"ref_name"`
	Content string    `json:"content"`
	Created time.Time `json:"created"`
}

func (e *rawActivity) compact() Activity {
	return Activity{ID: e.ID, Op: e.OpType, Actor: forgejo.Login(e.ActUser), Ref: e.RefName, Content: e.Content, Created: e.Created}
}

// readFeed reads one page of the feed at apiPath, with a's date filter
// and paging (and extra query values); subject names the feed's owner in
// errors ("organisation o").
func readFeed(ctx context.Context, c *forgejo.Client, a tool.Args, apiPath string, extra url.Values, subject string) ([]*rawActivity, error) {
	q := tool.PageQuery(a)
	if d := a.String("date"); d != "" {
		q.Set("date", d)
	}
	for k, v := range extra {
		q[k] = v
	}
	var list []*rawActivity
	if err := c.DoJSON(ctx, "GET", apiPath, q, nil, &list); err != nil {
		return nil, forgejo.Relabel(err, "list the activity of", subject)
	}
	return list, nil
}

// feedResult is the page of a feed that spans repositories.
func feedResult(a tool.Args, list []*rawActivity) (*mcp.CallToolResult, error) {
	out := make([]FeedEntry, 0, len(list))
	for _, e := range list {
		if e == nil {
			continue
		}
		fe := FeedEntry{Activity: e.compact()}
		if e.Repo != nil {
			fe.Repo = e.Repo.FullName
		}
		out = append(out, fe)
	}
	return tool.Items(out, a.Int("page"), int64(len(list)) >= a.Int("limit"))
}

func listOrgActivity(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("orgs", a.String("org"), "activities", "feeds")
	if err != nil {
		return nil, err
	}
	list, err := readFeed(ctx, c, a, p, nil, "organisation "+a.String("org"))
	if err != nil {
		return nil, err
	}
	return feedResult(a, list)
}

func listTeamActivity(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("teams", tool.Seg(a, "team_id"), "activities", "feeds")
	if err != nil {
		return nil, err
	}
	list, err := readFeed(ctx, c, a, p, nil, "team "+tool.Seg(a, "team_id"))
	if err != nil {
		return nil, err
	}
	return feedResult(a, list)
}

func listUserActivity(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := forgejo.Path("users", a.String("user"), "activities", "feeds")
	if err != nil {
		return nil, err
	}
	var extra url.Values
	if a.Bool("only_performed_by") {
		extra = url.Values{"only-performed-by": {"true"}}
	}
	list, err := readFeed(ctx, c, a, p, extra, "user "+a.String("user"))
	if err != nil {
		return nil, err
	}
	return feedResult(a, list)
}
