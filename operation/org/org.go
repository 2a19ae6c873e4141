// Package org has the organisation tools: list, get, create, edit and
// delete organisations, their teams and members, and membership checks.
package org

import (
	"context"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the org toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "org", Description: "Organisations, their teams and members"}

// Tools returns the org toolset.
func Tools() []tool.Def {
	org, user := tool.Org(), tool.User()
	return append([]tool.Def{
		{
			Name: "list_my_orgs", Toolset: Toolset,
			Title: "List my organisations", Output: tool.ListPage[Org]{},
			Description: "List the organisations the token's user belongs to",
			Params:      tool.Paging(), Annotations: tool.Read(), Handler: listMyOrgs,
		},
		{
			Name: "get_org", Toolset: Toolset,
			Title: "Get an organisation", Output: Org{},
			Description: "Get an organisation",
			Params:      []tool.Param{org}, Annotations: tool.Read(), Handler: getOrg,
		},
		{
			Name: "list_org_members", Toolset: Toolset,
			Title: "List organisation members", Output: tool.ListPage[Member]{},
			Description: "List an organisation's members (only public ones to non-members)",
			Params:      []tool.Param{org, tool.Page(), tool.Limit()}, Annotations: tool.Read(), Handler: listMembers,
		},
		{
			Name: "list_org_teams", Toolset: Toolset,
			Title: "List organisation teams", Output: tool.ListPage[Team]{},
			Description: "List an organisation's teams",
			Params:      []tool.Param{org, tool.Page(), tool.Limit()}, Annotations: tool.Read(), Handler: listTeams,
		},
		{
			Name: "list_user_orgs", Toolset: Toolset,
			Title: "List a user's organisations", Output: tool.ListPage[Org]{},
			Description: "List the organisations a user belongs to that the token can see",
			Params:      []tool.Param{user, tool.Page(), tool.Limit()}, Annotations: tool.Read(), Handler: listUserOrgs,
		},
		{
			Name: "create_org", Toolset: Toolset,
			Title: "Create an organisation", Output: Org{},
			Description: "Create an organisation owned by the token's user",
			Params: []tool.Param{tool.Named("name", "Organisation name"),
				tool.Str("full_name", "Display name", tool.MaxLen(100)),
				tool.Str("description", "Description", tool.MaxLen(255)),
				tool.Str("visibility", "Who can see it", tool.Default("public"), tool.OneOf("public", "limited", "private"))},
			Annotations: tool.Write(false), Handler: createOrg,
		},
		{
			Name: "check_org_membership", Toolset: Toolset,
			Title: "Check organisation membership", Output: tool.Shape{"org": "", "user": "", "is_member": false},
			Description: "Tell whether a user is a member of an organisation",
			Params:      []tool.Param{org, user}, Annotations: tool.Read(), Handler: checkMembership,
		},
	}, append(adminTools(), teamListTools()...)...)
}

// Org is the compact shape of an organisation.
type Org struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	FullName    string `json:"full_name,omitempty"`
	Description string `json:"description,omitempty" md:"rendered"`
	Website     string `json:"website,omitempty"`
	Location    string `json:"location,omitempty"`
	Visibility  string `json:"visibility"`
}

func compactOrg(o *sdk.Organization) Org {
	return Org{ID: o.ID, Name: o.UserName, FullName: o.FullName, Description: o.Description,
		Website: o.Website, Location: o.Location, Visibility: o.Visibility}
}

// Member is the compact shape of an organisation member.
type Member struct {
	Login    string `json:"login"`
	FullName string `json:"full_name,omitempty"`
}

func compactMember(u *sdk.User) Member { return Member{Login: u.UserName, FullName: u.FullName} }

// Team is the compact shape of a team. Both flavours keep a team's access
// per repository unit; Gitea 1.26 answers a team created with one
// permission for every unit as permission "none" with the units, Forgejo
// 13.0.5 as that permission (recorded). Permission reads the same on both:
// the units' common access when the forge says "none".
type Team struct {
	ID               int64  `json:"id"`
	Name             string `json:"name"`
	Description      string `json:"description,omitempty"`
	Permission       string `json:"permission"`
	AllRepositories  bool   `json:"includes_all_repositories"`
	CanCreateOrgRepo bool   `json:"can_create_org_repo"`
	// Units is the access per repository unit, given when some unit's
	// differs from Permission.
	Units map[string]string `json:"units,omitempty"`
}

// CompactTeam is the compact shape of a team, for the tools of other
// packages that list teams (a repository's).
func CompactTeam(t *sdk.Team) Team { return compactTeam(t) }

func compactTeam(t *sdk.Team) Team {
	out := Team{ID: t.ID, Name: t.Name, Description: t.Description,
		AllRepositories: t.IncludesAllRepositories, CanCreateOrgRepo: t.CanCreateOrgRepo}
	out.Permission, out.Units = TeamAccess(t)
	return out
}

// TeamAccess is a team's access as both flavours should read it: its
// permission, or its units' common access where the forge says "none"
// (Team), and its units only when some unit's access differs from that.
func TeamAccess(t *sdk.Team) (permission string, units map[string]string) {
	permission, common := string(t.Permission), ""
	for _, access := range t.UnitsMap {
		if common != "" && access != common {
			common = ""
			break
		}
		common = access
	}
	if (permission == "none" || permission == "") && common != "" {
		permission = common
	}
	if common != permission {
		units = t.UnitsMap
	}
	return permission, units
}

func orgRef(a tool.Args) string { return "organisation " + a.String("org") }

func listMyOrgs(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListMyOrgs(sdk.ListOrgsOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list organisations of", "the token's user"); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactOrg)
}

func listUserOrgs(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListUserOrgs(a.String("user"), sdk.ListOrgsOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list organisations of", "user "+a.String("user")); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactOrg)
}

func getOrg(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	o, resp, err := c.SDK(ctx).GetOrg(a.String("org"))
	if err := forgejo.Fail(resp, err, "get", orgRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compactOrg(o))
}

func listMembers(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListOrgMembership(a.String("org"), sdk.ListOrgMembershipOption{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list members of", orgRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactMember)
}

func listTeams(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListOrgTeams(a.String("org"), sdk.ListTeamsOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list teams of", orgRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactTeam)
}

func createOrg(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	o, resp, err := c.SDK(ctx).CreateOrg(sdk.CreateOrgOption{Name: a.String("name"), FullName: a.String("full_name"),
		Description: a.String("description"), Visibility: sdk.VisibleType(a.String("visibility"))})
	if err := forgejo.Fail(resp, err, "create", "organisation "+a.String("name")); err != nil {
		return nil, err
	}
	return tool.JSON(compactOrg(o))
}

func checkMembership(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	org, user := a.String("org"), a.String("user")
	cl := c.SDK(ctx)
	member, resp, err := cl.CheckOrgMembership(org, user)
	if err := forgejo.Fail(resp, err, "check membership of "+user+" in", orgRef(a)); err != nil {
		return nil, err
	}
	if !member {
		// The forge answers 404 for "not a member" and for an unknown
		// organisation alike: tell them apart.
		_, resp, err := cl.GetOrg(org)
		if err := forgejo.Fail(resp, err, "get", orgRef(a)); err != nil {
			return nil, err
		}
	}
	return tool.JSON(struct {
		Org      string `json:"org"`
		User     string `json:"user"`
		IsMember bool   `json:"is_member"`
	}{org, user, member})
}
