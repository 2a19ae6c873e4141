package repo

import (
	"context"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func collaboratorsTool() tool.Def {
	return tool.Def{
		Name: "list_collaborators", Title: "List collaborators", Toolset: Toolset,
		Description: "List users given direct access to a repository",
		Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Page(), tool.Limit()},
		Annotations: tool.Read(), Handler: listCollaborators, Output: tool.ListPage[Collaborator]{},
	}
}

// Collaborator is a user with direct access to a repository. The forge's
// list carries no permission: it would take one more call per user
// (collaborators/{user}/permission), so it is left out.
type Collaborator struct {
	Login    string `json:"login"`
	FullName string `json:"full_name,omitempty"`
}

func listCollaborators(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListCollaborators(a.String("owner"), a.String("repo"), sdk.ListCollaboratorsOptions{
		ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list collaborators of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, func(u *sdk.User) Collaborator {
		return Collaborator{Login: u.UserName, FullName: u.FullName}
	})
}
