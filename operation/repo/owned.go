package repo

import (
	"context"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// ownedTools list the repositories a user owns, those the token can see
// (list_org_repos, in the org toolset, an organisation's): search_repos
// with owner does the same with a query.
func ownedTools() []tool.Def {
	return []tool.Def{
		{
			Name: "list_user_repos", Title: "List a user's repositories", Toolset: Toolset,
			Description: "List a user's own repositories that the token can see",
			Params:      []tool.Param{tool.User(), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listUserRepos, Output: tool.ListPage[Repo]{},
		},
	}
}

func listUserRepos(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).ListUserRepos(a.String("user"), sdk.ListReposOptions{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list repositories of", "user "+a.String("user")); err != nil {
		return nil, err
	}
	return tool.ListResult(a, resp, list, CompactRepo)
}
