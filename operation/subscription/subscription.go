// Package subscription has the tools that choose what the token's user
// hears about: watching a repository (every issue, PR and release) and
// subscribing to one issue or PR, with who else does.
package subscription

import (
	"context"
	"net/http"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the subscription toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "subscription", Description: "Watching repositories and subscribing to issues and PRs"}

// Tools returns the subscription toolset.
func Tools() []tool.Def {
	at := []tool.Param{tool.Owner(), tool.Repo()}
	issue := []tool.Param{tool.Owner(), tool.Repo(), tool.Index()}
	paged := func(ps ...tool.Param) []tool.Param { return append(ps, tool.Page(), tool.Limit()) }
	return []tool.Def{
		{
			Name: "watch_repo", Toolset: Toolset, Title: "Watch a repository", Output: Watching{},
			Description: "Watch a repository: hear of its issues, PRs and releases",
			Params:      at, Annotations: tool.Write(true), Handler: watch,
		},
		{
			Name: "unwatch_repo", Toolset: Toolset, Title: "Stop watching a repository", Output: Watching{},
			Description: "Stop watching a repository",
			Params:      at, Annotations: tool.Destroy(true), Handler: unwatch,
		},
		{
			Name: "check_repo_watch", Toolset: Toolset, Title: "Am I watching a repository", Output: Watching{},
			Description: "Whether you watch a repository",
			Params:      at, Annotations: tool.Read(), Handler: checkWatch,
		},
		{
			Name: "list_my_watched_repos", Toolset: Toolset, Title: "List watched repositories", Output: tool.ListPage[repo.Repo]{},
			Description: "List the repositories you watch",
			Params:      paged(), Annotations: tool.Read(), Handler: listWatched,
		},
		{
			Name: "list_repo_watchers", Toolset: Toolset, Title: "List a repository's watchers", Output: tool.ListPage[Person]{},
			Description: "List who watches a repository",
			Params:      paged(tool.Owner(), tool.Repo()), Annotations: tool.Read(), Handler: listWatchers,
		},
		{
			Name: "subscribe_issue", Toolset: Toolset, Title: "Subscribe to an issue or PR", Output: Subscribed{},
			Description: "Subscribe to an issue or PR: hear of every comment and change",
			Params:      issue, Annotations: tool.Write(true), Handler: subscribe,
		},
		{
			Name: "unsubscribe_issue", Toolset: Toolset, Title: "Unsubscribe from an issue or PR", Output: Subscribed{},
			Description: "Unsubscribe from an issue or PR",
			Params:      issue, Annotations: tool.Destroy(true), Handler: unsubscribe,
		},
		{
			Name: "check_issue_subscription", Toolset: Toolset, Title: "Am I subscribed to an issue or PR", Output: Subscribed{},
			Description: "Whether you are subscribed to an issue or PR",
			Params:      issue, Annotations: tool.Read(), Handler: checkSubscription,
		},
		{
			Name: "list_issue_subscribers", Toolset: Toolset, Title: "List an issue's subscribers", Output: tool.ListPage[Person]{},
			Description: "List who is subscribed to an issue or PR",
			Params:      paged(issue...), Annotations: tool.Read(), Handler: listSubscribers,
		},
	}
}

// Watching is whether the token's user watches a repository.
type Watching struct {
	Repo     string `json:"repo" trust:"repo"`
	Watching bool   `json:"watching"`
}

// Subscribed is whether the token's user is subscribed to an issue.
type Subscribed struct {
	Number     int64 `json:"number"`
	Subscribed bool  `json:"subscribed"`
}

// Person is a user as listed.
type Person struct {
	Login    string `json:"login"`
	FullName string `json:"full_name,omitempty"`
}

// CompactPerson is a user as a list shows one.
func CompactPerson(u *sdk.User) Person { return Person{Login: u.UserName, FullName: u.FullName} }

func watching(a tool.Args, on bool) (*mcp.CallToolResult, error) {
	return tool.JSON(Watching{Repo: tool.FullName(a), Watching: on})
}

func watch(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).WatchRepo(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "watch", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return watching(a, true)
}

func unwatch(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).UnWatchRepo(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "stop watching", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return watching(a, false)
}

// checkWatch reads the subscription route, which answers 404 both when
// the user does not watch and when the repository is missing or hidden:
// a "no" is checked against the repository, so a missing one is an error,
// never a silent false.
func checkWatch(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	on, resp, err := c.SDK(ctx).CheckRepoWatch(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "check whether you watch", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	if !on {
		if err := Exists(ctx, c, a); err != nil {
			return nil, err
		}
	}
	return watching(a, on)
}

// Exists reports the forge's error when the repository owner/repo names
// cannot be read: what a check whose "no" is a 404 asks before saying no.
func Exists(ctx context.Context, c *forgejo.Client, a tool.Args) error {
	_, resp, err := c.SDK(ctx).GetRepo(a.String("owner"), a.String("repo"))
	return forgejo.Fail(resp, err, "read", tool.RepoRef(a))
}

// listRaw reads a list route the SDK reads without paging, a page at a
// time.
func listRaw[S, T any](ctx context.Context, c *forgejo.Client, a tool.Args, p, verb, subject string, f func(*S) T) (*mcp.CallToolResult, error) {
	var got []*S
	if err := c.DoJSON(ctx, http.MethodGet, p, tool.PageQuery(a), nil, &got); err != nil {
		return nil, forgejo.Relabel(err, verb, subject)
	}
	return tool.ListResult(a, nil, got, f)
}

func listWatched(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return listRaw(ctx, c, a, "/user/subscriptions", "list", "the repositories you watch", repo.CompactRepo)
}

func listWatchers(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "subscribers")
	if err != nil {
		return nil, err
	}
	return listRaw(ctx, c, a, p, "list the watchers of", tool.RepoRef(a), CompactPerson)
}

// setSubscription subscribes (PUT) or unsubscribes (DELETE) the token's
// user, whom the route names. The forge answers 201 for a change and 200
// when there was none: both are done.
func setSubscription(ctx context.Context, c *forgejo.Client, a tool.Args, method, verb string, on bool) (*mcp.CallToolResult, error) {
	me, resp, err := c.SDK(ctx).GetMyUserInfo()
	if err := forgejo.Fail(resp, err, "get", "the token's user"); err != nil {
		return nil, err
	}
	p, err := tool.RepoRoute(a, "issues", tool.Seg(a, "index"), "subscriptions", me.UserName)
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, method, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, verb, tool.IssueRef(a))
	}
	return tool.JSON(Subscribed{Number: a.Int("index"), Subscribed: on})
}

func subscribe(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return setSubscription(ctx, c, a, http.MethodPut, "subscribe to", true)
}

func unsubscribe(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	return setSubscription(ctx, c, a, http.MethodDelete, "unsubscribe from", false)
}

func checkSubscription(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	w, resp, err := c.SDK(ctx).CheckIssueSubscription(a.String("owner"), a.String("repo"), a.Int("index"))
	if err := forgejo.Fail(resp, err, "check your subscription to", tool.IssueRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(Subscribed{Number: a.Int("index"), Subscribed: w.Subscribed && !w.Ignored})
}

func listSubscribers(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "issues", tool.Seg(a, "index"), "subscriptions")
	if err != nil {
		return nil, err
	}
	return listRaw(ctx, c, a, p, "list the subscribers of", tool.IssueRef(a), CompactPerson)
}
