package repo

import (
	"context"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// assigneesTool says who issues and pull requests can be assigned to: the
// logins update_issue's assignees take (list_reviewer_candidates, in the
// review toolset, says whom create_review_requests can ask). The forge
// answers all of them at once, unpaged.
func assigneesTool() tool.Def {
	return tool.Def{
		Name: "list_assignee_candidates", Title: "List who can be assigned", Toolset: Toolset,
		Description: "List the users issues and PRs of a repository can be assigned to",
		Params:      []tool.Param{tool.Owner(), tool.Repo()},
		Annotations: tool.Read(), Handler: listAssignees, Output: tool.ListPage[Collaborator]{},
	}
}

func listAssignees(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).GetAssignees(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "list assignee candidates of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.Items(tool.Map(list, func(u *sdk.User) Collaborator { return Collaborator{Login: u.UserName, FullName: u.FullName} }), 1, false)
}
