package repo

import (
	"context"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// candidateTools say who can be assigned to an issue or asked for a review
// in a repository: the logins update_issue's assignees and
// create_review_requests' reviewers take. The forge answers all of them at
// once, unpaged.
func candidateTools() []tool.Def {
	return []tool.Def{
		{
			Name: "list_assignee_candidates", Title: "List who can be assigned", Toolset: Toolset,
			Description: "List the users issues and PRs of a repository can be assigned to",
			Params:      []tool.Param{tool.Owner(), tool.Repo()},
			Annotations: tool.Read(), Handler: listAssignees, Output: tool.ListPage[Collaborator]{},
		},
		{
			Name: "list_reviewer_candidates", Title: "List who can review", Toolset: pull.ReviewToolset,
			Description: "List the users a repository's PRs can request reviews from",
			Params:      []tool.Param{tool.Owner(), tool.Repo()},
			Annotations: tool.Read(), Handler: listReviewers, Output: tool.ListPage[Collaborator]{},
		},
	}
}

func candidates(list []*sdk.User, resp *sdk.Response, err error, what string, a tool.Args) (*mcp.CallToolResult, error) {
	if err := forgejo.Fail(resp, err, "list "+what+" of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.Items(tool.Map(list, func(u *sdk.User) Collaborator { return Collaborator{Login: u.UserName, FullName: u.FullName} }), 1, false)
}

func listAssignees(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).GetAssignees(a.String("owner"), a.String("repo"))
	return candidates(list, resp, err, "assignee candidates", a)
}

func listReviewers(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).GetReviewers(a.String("owner"), a.String("repo"))
	return candidates(list, resp, err, "reviewer candidates", a)
}
