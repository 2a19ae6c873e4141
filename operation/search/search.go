// Package search has the tools that find repositories, users and teams on
// the forge by name.
package search

import (
	"context"
	"errors"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/org"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the search toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "search", Description: "Find repositories, users, teams and issues"}

// Tools returns the search toolset.
func Tools() []tool.Def {
	query := tool.Str("query", "Text to search for", tool.MaxLen(255))
	return []tool.Def{
		{
			Name: "search_repos", Toolset: Toolset,
			Title: "Search repositories", Output: tool.ListPage[Repo]{},
			Description: "Search the repositories the token can see by name; no query lists them all",
			Params: []tool.Param{query,
				tool.Bool("in_description", "Also match the description"),
				tool.Named("owner", "Only this user's or organisation's").Optional(),
				tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: searchRepos,
		},
		{
			Name: "search_users", Toolset: Toolset,
			Title: "Search users", Output: tool.ListPage[User]{},
			Description: "Search users by login or full name",
			Params:      []tool.Param{query, tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: searchUsers,
		},
		{
			Name: "search_org_teams", Toolset: Toolset,
			Title: "Search an organisation's teams", Output: tool.ListPage[Team]{},
			Description: "Search an organisation's teams by name",
			Params: []tool.Param{
				// tool.Org's pattern also keeps the name from changing the
				// route (the SDK does not escape it).
				tool.Org(), query, tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: searchTeams,
		},
	}
}

// Repo is the compact shape of a found repository.
type Repo struct {
	FullName    string    `json:"full_name" trust:"repo"`
	Description string    `json:"description,omitempty"`
	Private     bool      `json:"private"`
	Fork        bool      `json:"fork,omitempty"`
	Archived    bool      `json:"archived,omitempty"`
	Stars       int       `json:"stars"`
	Updated     time.Time `json:"updated_at"`
	HTMLURL     string    `json:"html_url"`
}

// User is the compact shape of a found user.
type User struct {
	ID       int64  `json:"id"`
	Login    string `json:"login"`
	FullName string `json:"full_name,omitempty"`
	HTMLURL  string `json:"html_url"`
}

// Team is the compact shape of a found team; its access reads the same on
// both flavours (org.TeamAccess).
type Team struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Permission  string `json:"permission"`
	// Units is the access per repository unit, given when some unit's
	// differs from Permission.
	Units map[string]string `json:"units,omitempty"`
}

func searchRepos(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	opt := sdk.SearchRepoOptions{ListOptions: tool.ListOptions(a),
		Keyword: a.String("query"), KeywordInDescription: a.Bool("in_description")}
	subject := "repositories"
	// The forge filters by the owner's ID (uid, with exclusive=true); a
	// user's route answers an organisation too.
	if owner := a.String("owner"); a.Has("owner") {
		if owner == "" {
			return nil, errors.New(`invalid arguments for search_repos: owner is empty; leave it out to search every owner's repositories`)
		}
		u, resp, err := c.SDK(ctx).GetUserInfo(owner)
		if err := forgejo.Fail(resp, err, "get", "user or organisation "+owner); err != nil {
			return nil, err
		}
		opt.OwnerID, subject = u.ID, "repositories of "+owner
	}
	list, resp, err := c.SDK(ctx).SearchRepos(opt)
	if err := forgejo.Fail(resp, err, "search", subject); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, func(r *sdk.Repository) Repo {
		return Repo{FullName: r.FullName, Description: r.Description, Private: r.Private, Fork: r.Fork,
			Archived: r.Archived, Stars: r.Stars, Updated: r.Updated, HTMLURL: r.HTMLURL}
	})
}

func searchUsers(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).SearchUsers(sdk.SearchUsersOption{ListOptions: tool.ListOptions(a), KeyWord: a.String("query")})
	if err := forgejo.Fail(resp, err, "search", "users"); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, func(u *sdk.User) User {
		return User{ID: u.ID, Login: u.UserName, FullName: u.FullName, HTMLURL: u.HTMLURL}
	})
}

func searchTeams(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).SearchOrgTeams(a.String("org"), &sdk.SearchTeamsOptions{ListOptions: tool.ListOptions(a),
		Query: a.String("query")})
	if err := forgejo.Fail(resp, err, "search teams of", "organisation "+a.String("org")); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, func(t *sdk.Team) Team {
		out := Team{ID: t.ID, Name: t.Name, Description: t.Description}
		out.Permission, out.Units = org.TeamAccess(t)
		return out
	})
}
