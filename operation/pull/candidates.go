package pull

import (
	"context"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// reviewersTool says whom a repository's pull requests can ask for a
// review: the logins create_review_requests' reviewers take. The forge
// answers all of them at once, unpaged.
func reviewersTool() tool.Def {
	return tool.Def{
		Name: "list_reviewer_candidates", Title: "List who can review", Toolset: ReviewToolset,
		Description: "List the users a repository's PRs can request reviews from",
		Params:      []tool.Param{tool.Owner(), tool.Repo()},
		Annotations: tool.Read(), Handler: listReviewerCandidates, Output: tool.ListPage[Candidate]{},
	}
}

// Candidate is a user a tool can name.
type Candidate struct {
	Login    string `json:"login"`
	FullName string `json:"full_name,omitempty"`
}

func listReviewerCandidates(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	list, resp, err := c.SDK(ctx).GetReviewers(a.String("owner"), a.String("repo"))
	if err := forgejo.Fail(resp, err, "list reviewer candidates of", tool.RepoRef(a)); err != nil {
		return nil, err
	}
	return tool.Items(tool.Map(list, func(u *sdk.User) Candidate { return Candidate{Login: u.UserName, FullName: u.FullName} }), 1, false)
}
