// Package star has the star tools: star and unstar a repository, check a
// star, list starred repositories and a repository's stargazers.
package star

import (
	"context"
	"net/http"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/subscription"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the star toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "star", Description: "Stars: star, unstar, check, list starred repositories and stargazers"}

// Tools returns the star toolset.
func Tools() []tool.Def {
	at := []tool.Param{tool.Owner(), tool.Repo()}
	return []tool.Def{
		{
			Name: "star_repo", Toolset: Toolset, Title: "Star a repository", Output: Starred{},
			Description: "Star a repository",
			Params:      at, Annotations: tool.Write(true), Handler: starRepo,
		},
		{
			Name: "unstar_repo", Toolset: Toolset, Title: "Unstar a repository", Output: Starred{},
			Description: "Remove your star from a repository",
			Params:      at, Annotations: tool.Destroy(true), Handler: unstarRepo,
		},
		{
			Name: "check_repo_star", Toolset: Toolset, Title: "Have I starred a repository", Output: Starred{},
			Description: "Whether you have starred a repository",
			Params:      at, Annotations: tool.Read(), Handler: checkStar,
		},
		{
			Name: "list_starred_repos", Toolset: Toolset, Title: "List starred repositories", Output: tool.ListPage[repo.Repo]{},
			Description: "List the repositories you, or another user, starred",
			Params: []tool.Param{tool.Str("user", "User login (default: you)", tool.MaxLen(100)),
				tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listStarred,
		},
		{
			Name: "list_repo_stargazers", Toolset: Toolset, Title: "List stargazers", Output: tool.ListPage[subscription.Person]{},
			Description: "List who starred a repository",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Page(), tool.Limit()}, Annotations: tool.Read(), Handler: stargazers,
		},
	}
}

// Starred is whether the token's user starred a repository.
type Starred struct {
	Repo    string `json:"repo" trust:"repo"`
	Starred bool   `json:"starred"`
}

func starred(a tool.Args, on bool) (*mcp.CallToolResult, error) {
	return tool.JSON(Starred{Repo: tool.FullName(a), Starred: on})
}

func starRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).StarRepo(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "star", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return starred(a, true)
}

func unstarRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).UnStarRepo(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "unstar", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return starred(a, false)
}

// checkStar: the forge answers 404 both for "not starred" and for a
// repository it cannot show, so a "no" is checked against the repository.
func checkStar(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	on, resp, err := c.SDK(ctx).IsRepoStarring(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "check your star on", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	if !on {
		if err := subscription.Exists(ctx, c, a); err != nil {
			return nil, err
		}
	}
	return starred(a, on)
}

// listStarred reads a page of /user/starred or /users/{user}/starred,
// which the SDK reads without paging.
func listStarred(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, whose := "/user/starred", "the repositories you starred"
	if a.Has("user") {
		u := a.String("user")
		var err error
		if p, err = forgejo.Path("users", u, "starred"); err != nil {
			return nil, err
		}
		whose = "the repositories " + u + " starred"
	}
	var got []*sdk.Repository
	if err := c.DoJSON(ctx, http.MethodGet, p, tool.PageQuery(a), nil, &got); err != nil {
		return nil, forgejo.Relabel(err, "list", whose)
	}
	return tool.ListResult(a, nil, got, repo.CompactRepo)
}

func stargazers(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	users, resp, err := c.SDK(ctx).ListRepoStargazers(a.String("owner"), a.String("repo"),
		sdk.ListStargazersOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list the stargazers of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, users, subscription.CompactPerson)
}
