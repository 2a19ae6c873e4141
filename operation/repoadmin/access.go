package repoadmin

import (
	"context"
	"net/http"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/org"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Permission is a user's access to a repository, by any way they have it
// (collaborator, team, owner, site admin).
type Permission struct {
	User         string `json:"user"`
	Permission   string `json:"permission"`
	Role         string `json:"role,omitempty"`
	Collaborator bool   `json:"collaborator"`
}

// Collaboration is whether a user is a direct collaborator.
type Collaboration struct {
	User         string `json:"user"`
	Collaborator bool   `json:"collaborator"`
}

// TeamAccess is whether a team has access to a repository.
type TeamAccess struct {
	Team   string    `json:"team"`
	Access bool      `json:"access"`
	Detail *org.Team `json:"detail,omitempty"`
}

func accessTools() []tool.Def {
	user := tool.Named("user", "User login")
	team := tool.Named("team", "Team name (list_org_teams)")
	return []tool.Def{
		{
			Name: "add_collaborator", Toolset: AccessToolset,
			Title: "Add a collaborator", Output: Permission{},
			Description: "Give a user direct access to a repository, or change their permission",
			Params:      with(user, tool.Str("permission", "Access given", tool.OneOf("read", "write", "admin"), tool.Default("write"))),
			Annotations: tool.Destroy(true), Handler: addCollaborator,
		},
		{
			Name: "remove_collaborator", Toolset: AccessToolset,
			Title: "Remove a collaborator", Output: tool.DeletedOutput("user", ""),
			Description: "Take a user's direct access to a repository away",
			Params:      with(user), Annotations: tool.Destroy(true), Handler: removeCollaborator,
		},
		{
			Name: "check_collaborator", Toolset: AccessToolset,
			Title: "Check a collaborator", Output: Collaboration{},
			Description: "Whether a user is a direct collaborator of a repository",
			Params:      with(user), Annotations: tool.Read(), Handler: checkCollaborator,
		},
		{
			Name: "get_collaborator_permission", Toolset: AccessToolset,
			Title: "Get a user's repository permission", Output: Permission{},
			Description: "A user's effective permission on a repository (none, read, write, admin, owner), however given",
			Params:      with(user), Annotations: tool.Read(), Handler: getPermission,
		},
		{
			Name: "list_repo_teams", Toolset: AccessToolset,
			Title: "List repository teams", Output: tool.ListPage[org.Team]{},
			Description: "List the teams with access to an organisation's repository",
			Params:      base(), Annotations: tool.Read(), Handler: listRepoTeams,
		},
		{
			Name: "check_repo_team", Toolset: AccessToolset,
			Title: "Check a repository team", Output: TeamAccess{},
			Description: "Whether a team has access to an organisation's repository",
			Params:      with(team), Annotations: tool.Read(), Handler: checkRepoTeam,
		},
		{
			Name: "add_repo_team", Toolset: AccessToolset,
			Title: "Add a team to a repository", Output: TeamAccess{},
			Description: "Give an organisation's team access to one of its repositories, at the team's permission",
			Params:      with(team), Annotations: tool.Write(true), Handler: addRepoTeam,
		},
		{
			Name: "remove_repo_team", Toolset: AccessToolset,
			Title: "Remove a team from a repository", Output: tool.DeletedOutput("team", ""),
			Description: "Take a team's access to a repository away",
			Params:      with(team), Annotations: tool.Destroy(true), Handler: removeRepoTeam,
		},
	}
}

func userRef(a tool.Args) string {
	return "collaborator " + a.String("user") + " of " + tool.RepoRef(a)
}
func teamRef(a tool.Args) string { return "team " + a.String("team") + " of " + tool.RepoRef(a) }

// addCollaborator sends the permission and answers with the one the forge
// then reports, so an agent sees what it got (an owner stays owner).
func addCollaborator(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "collaborators", a.String("user"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPut, p, nil, map[string]string{"permission": a.String("permission")}, nil); err != nil {
		return nil, forgejo.Relabel(err, "add", userRef(a))
	}
	return getPermission(ctx, c, a)
}

func removeCollaborator(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).DeleteCollaborator(a.String("owner"), a.String("repo"), a.String("user"))
	if err := forgejo.Fail(resp, err, "remove", userRef(a)); err != nil {
		return nil, err
	}
	return tool.Deleted("user", a.String("user"))
}

// present asks the forge whether the object at route exists under the
// repository: a 2xx is yes; a 404 is no once the repository itself is
// found (the forges answer 404 for a missing repository too).
func present(ctx context.Context, c *forgejo.Client, a tool.Args, route, verb, subject string, out any) (bool, error) {
	err := c.DoJSON(ctx, http.MethodGet, route, nil, nil, out)
	if err == nil {
		return true, nil
	}
	if !forgejo.IsNotFound(err) {
		return false, forgejo.Relabel(err, verb, subject)
	}
	r, _ := tool.RepoRoute(a)
	if err := c.DoJSON(ctx, http.MethodGet, r, nil, nil, nil); err != nil {
		return false, forgejo.Relabel(err, "get", tool.RepoRef(a))
	}
	return false, nil
}

func isCollaborator(ctx context.Context, c *forgejo.Client, a tool.Args) (bool, error) {
	p, err := tool.RepoRoute(a, "collaborators", a.String("user"))
	if err != nil {
		return false, err
	}
	return present(ctx, c, a, p, "check", userRef(a), nil)
}

func checkCollaborator(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	ok, err := isCollaborator(ctx, c, a)
	if err != nil {
		return nil, err
	}
	return tool.JSON(Collaboration{User: a.String("user"), Collaborator: ok})
}

func getPermission(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	r, resp, err := c.SDK(ctx).CollaboratorPermission(a.String("owner"), a.String("repo"), a.String("user"))
	if err := forgejo.Fail(resp, err, "get the permission of user "+a.String("user")+" on", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	ok, err := isCollaborator(ctx, c, a)
	if err != nil {
		return nil, err
	}
	return tool.JSON(Permission{User: a.String("user"), Permission: string(r.Permission), Role: r.Role, Collaborator: ok})
}

func listRepoTeams(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).GetRepoTeams(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "list teams of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.Items(tool.Map(list, org.CompactTeam), 1, false)
}

// teamAccess asks the forge whether the team reaches the repository.
func teamAccess(ctx context.Context, c *forgejo.Client, a tool.Args) (TeamAccess, error) {
	p, err := tool.RepoRoute(a, "teams", a.String("team"))
	if err != nil {
		return TeamAccess{}, err
	}
	var t sdk.Team
	ok, err := present(ctx, c, a, p, "check", teamRef(a), &t)
	if err != nil || !ok {
		return TeamAccess{Team: a.String("team")}, err
	}
	ct := org.CompactTeam(&t)
	return TeamAccess{Team: a.String("team"), Access: true, Detail: &ct}, nil
}

func checkRepoTeam(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	ta, err := teamAccess(ctx, c, a)
	if err != nil {
		return nil, err
	}
	return tool.JSON(ta)
}

// addRepoTeam: Gitea answers 422 for a team that already has access;
// adding again changes nothing, as the idempotent annotation says.
func addRepoTeam(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "teams", a.String("team"))
	if err != nil {
		return nil, err
	}
	if perr := c.DoJSON(ctx, http.MethodPut, p, nil, nil, nil); perr != nil {
		if forgejo.StatusOf(perr) != http.StatusUnprocessableEntity {
			return nil, forgejo.Relabel(perr, "add", teamRef(a))
		}
		if ta, err := teamAccess(ctx, c, a); err != nil || !ta.Access {
			return nil, forgejo.Relabel(perr, "add", teamRef(a))
		}
	}
	return checkRepoTeam(ctx, c, a)
}

func removeRepoTeam(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "teams", a.String("team"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "remove", teamRef(a))
	}
	return tool.Deleted("team", a.String("team"))
}
