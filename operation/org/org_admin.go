package org

import (
	"context"
	"fmt"
	"maps"
	"net/http"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// teamUnits are the repository units a non-admin team's permission
// applies to (admin teams get every unit from the forge itself).
var teamUnits = []string{"repo.code", "repo.issues", "repo.pulls", "repo.releases", "repo.wiki",
	"repo.projects", "repo.packages", "repo.actions"}

// adminTools change organisations: their settings, teams and members.
func adminTools() []tool.Def {
	org, user := tool.Org(), tool.User()
	team := teamID()
	return []tool.Def{
		{
			Name: "edit_org", Toolset: Toolset,
			Title: "Edit an organisation", Output: Org{},
			Description: "Edit an organisation; only the fields given change",
			Params: []tool.Param{org,
				tool.Str("full_name", "Display name", tool.MaxLen(100)),
				tool.Str("description", "Description", tool.MaxLen(255)),
				tool.Str("website", "Website URL", tool.MaxLen(255)),
				tool.Str("location", "Location", tool.MaxLen(50)),
				tool.Str("visibility", "Who can see it", tool.OneOf("public", "limited", "private"))},
			Annotations: tool.Destroy(true), Handler: editOrg,
		},
		{
			Name: "delete_org", Toolset: Toolset,
			Title: "Delete an organisation", Output: tool.DeletedOutput("org", ""),
			Description: "Delete an organisation; it must own no repositories",
			Params:      []tool.Param{org}, Annotations: tool.Destroy(true), Handler: deleteOrg,
		},
		{
			Name: "create_org_team", Toolset: Toolset,
			Title: "Create a team", Output: Team{},
			Description: "Create a team in an organisation",
			Params: []tool.Param{org,
				tool.Str("name", "Team name", tool.Required(), tool.MaxLen(255)),
				tool.Str("description", "Description", tool.MaxLen(255)),
				tool.Str("permission", "Access to the team's repositories", tool.Default("read"), tool.OneOf("read", "write", "admin")),
				tool.Bool("includes_all_repositories", "Access every repository of the organisation", tool.Default(false)),
				tool.Bool("can_create_org_repo", "Members may create repositories", tool.Default(false))},
			Annotations: tool.Write(false), Handler: createTeam,
		},
		{
			Name: "add_team_member", Toolset: Toolset,
			Title: "Add a team member", Output: tool.Shape{"team_id": int64(0), "user": "", "member": true},
			Description: "Add a user to a team",
			Params:      []tool.Param{team, user}, Annotations: tool.Write(true), Handler: addTeamMember,
		},
		{
			Name: "remove_team_member", Toolset: Toolset,
			Title: "Remove a team member", Output: tool.Shape{"team_id": int64(0), "user": "", "member": false},
			Description: "Remove a user from a team",
			Params:      []tool.Param{team, user}, Annotations: tool.Destroy(true), Handler: removeTeamMember,
		},
		{
			Name: "add_team_repo", Toolset: Toolset,
			Title: "Give a team a repository", Output: tool.Shape{"team_id": int64(0), "repo": "", "access": true},
			Description: "Give a team access to one of the organisation's repositories",
			Params:      []tool.Param{team, org, tool.Repo()}, Annotations: tool.Write(true), Handler: addTeamRepo,
		},
		{
			Name: "remove_team_repo", Toolset: Toolset,
			Title: "Take a repository from a team", Output: tool.Shape{"team_id": int64(0), "repo": "", "access": false},
			Description: "Take a repository away from a team",
			Params:      []tool.Param{team, org, tool.Repo()}, Annotations: tool.Destroy(true), Handler: removeTeamRepo,
		},
		{
			Name: "remove_org_member", Toolset: Toolset,
			Title: "Remove an organisation member", Output: tool.Shape{"org": "", "user": "", "member": false},
			Description: "Remove a user from an organisation and all its teams",
			Params:      []tool.Param{org, user}, Annotations: tool.Destroy(true), Handler: removeOrgMember,
		},
	}
}

func editOrg(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	// Read, then write every text field back: Forgejo (13.0.5, measured)
	// writes a text field the PATCH leaves out as empty, where Gitea keeps
	// it. Visibility is sent only when given: both keep it otherwise.
	cur, resp, err := c.SDK(ctx).GetOrg(a.String("org"))
	if err := forgejo.Fail(resp, err, "get", orgRef(a)); err != nil {
		return nil, err
	}
	body := map[string]any{"full_name": cur.FullName, "description": cur.Description, "website": cur.Website, "location": cur.Location}
	maps.Copy(body, a.Given("full_name", "description", "website", "location", "visibility"))
	p, err := forgejo.Path("orgs", a.String("org"))
	if err != nil {
		return nil, err
	}
	var o sdk.Organization
	if err := c.DoJSON(ctx, http.MethodPatch, p, nil, body, &o); err != nil {
		return nil, forgejo.Relabel(err, "edit", orgRef(a))
	}
	return tool.JSON(compactOrg(&o))
}

func deleteOrg(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).DeleteOrg(a.String("org"))
	if err := forgejo.Fail(resp, err, "delete", orgRef(a)); err != nil {
		return nil, err
	}
	return tool.Deleted("org", a.String("org"))
}

func createTeam(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	perm := a.String("permission")
	opt := sdk.CreateTeamOption{Name: a.String("name"), Description: a.String("description"),
		Permission: sdk.AccessMode(perm), IncludesAllRepositories: a.Bool("includes_all_repositories"),
		CanCreateOrgRepo: a.Bool("can_create_org_repo"), UnitsMap: map[string]string{}}
	for _, u := range teamUnits {
		opt.UnitsMap[u] = perm
	}
	t, resp, err := c.SDK(ctx).CreateTeam(a.String("org"), opt)
	if err := forgejo.Fail(resp, err, "create team "+a.String("name")+" in", orgRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compactTeam(t))
}

func teamID() tool.Param { return tool.ID("team_id", "Team ID (from list_org_teams)") }

func teamRef(a tool.Args) string { return fmt.Sprintf("team %d", a.Int("team_id")) }

func addTeamMember(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).AddTeamMember(a.Int("team_id"), a.String("user"))
	if err := forgejo.Fail(resp, err, "add "+a.String("user")+" to", teamRef(a)); err != nil {
		return nil, userMissing(ctx, c, a, err)
	}
	return tool.JSON(map[string]any{"team_id": a.Int("team_id"), "user": a.String("user"), "member": true})
}

func removeTeamMember(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).RemoveTeamMember(a.Int("team_id"), a.String("user"))
	if err := forgejo.Fail(resp, err, "remove "+a.String("user")+" from", teamRef(a)); err != nil {
		return nil, userMissing(ctx, c, a, err)
	}
	return tool.JSON(map[string]any{"team_id": a.Int("team_id"), "user": a.String("user"), "member": false})
}

// teamRepoRef names the organisation repository a team tool acts on.
func teamRepoRef(a tool.Args) string {
	return fmt.Sprintf("repository %s/%s", a.String("org"), a.String("repo"))
}

func addTeamRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).AddTeamRepository(a.Int("team_id"), a.String("org"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "add "+teamRepoRef(a)+" to", teamRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(map[string]any{"team_id": a.Int("team_id"), "repo": a.String("org") + "/" + a.String("repo"), "access": true})
}

func removeTeamRepo(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).RemoveTeamRepository(a.Int("team_id"), a.String("org"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "remove "+teamRepoRef(a)+" from", teamRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(map[string]any{"team_id": a.Int("team_id"), "repo": a.String("org") + "/" + a.String("repo"), "access": false})
}

func removeOrgMember(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).DeleteOrgMembership(a.String("org"), a.String("user"))
	if err := forgejo.Fail(resp, err, "remove "+a.String("user")+" from", orgRef(a)); err != nil {
		return nil, userMissing(ctx, c, a, err)
	}
	return tool.JSON(map[string]any{"org": a.String("org"), "user": a.String("user"), "member": false})
}

// userMissing names the user when a 404 of a route taking a team or an
// organisation and a user is about the user: the forge's "not found" (its
// message, GetUserByName, is dropped) would otherwise blame the team or
// organisation. It asks the forge, on this error path only.
func userMissing(ctx context.Context, c *forgejo.Client, a tool.Args, err error) error {
	if !forgejo.IsNotFound(err) {
		return err
	}
	_, resp, uerr := c.SDK(ctx).GetUserInfo(a.String("user"))
	if forgejo.IsNotFound(forgejo.Fail(resp, uerr, "get", "")) {
		return forgejo.NotFoundAs(err, "user "+a.String("user"))
	}
	return err
}
