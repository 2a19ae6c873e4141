package org

import (
	"context"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// teamListTools read an organisation's repositories, and a team's
// members and repositories, which add_team_member and add_team_repo change.
func teamListTools() []tool.Def {
	team := teamID()
	return []tool.Def{
		{
			Name: "list_org_repos", Title: "List an organisation's repositories", Toolset: Toolset,
			Description: "List an organisation's repositories that the token can see",
			Params:      []tool.Param{tool.Org(), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listOrgRepos, Output: tool.ListPage[repo.Repo]{},
		},
		{
			Name: "list_team_members", Title: "List a team's members", Toolset: Toolset,
			Description: "List a team's members",
			Params:      []tool.Param{team, tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listTeamMembers, Output: tool.ListPage[Member]{},
		},
		{
			Name: "list_team_repos", Title: "List a team's repositories", Toolset: Toolset,
			Description: "List the repositories a team has access to",
			Params:      []tool.Param{team, tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listTeamRepos, Output: tool.ListPage[repo.Repo]{},
		},
	}
}

func listOrgRepos(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListOrgRepos(a.String("org"), sdk.ListOrgReposOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list repositories of", orgRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, repo.CompactRepo)
}

func listTeamMembers(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListTeamMembers(a.Int("team_id"), sdk.ListTeamMembersOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list members of", teamRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, compactMember)
}

func listTeamRepos(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListTeamRepositories(a.Int("team_id"), sdk.ListTeamRepositoriesOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list repositories of", teamRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, repo.CompactRepo)
}
