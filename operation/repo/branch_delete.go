package repo

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func deleteBranchTool() tool.Def {
	return tool.Def{
		Name: "delete_branch", Title: "Delete a branch", Toolset: Toolset,
		Description: "Delete a branch; the default branch and protected ones are refused",
		Params: []tool.Param{tool.Owner(), tool.Repo(),
			tool.Str("branch", "Branch to delete", tool.Required(), tool.MaxLen(255))},
		Annotations: tool.Destroy(true), Handler: deleteBranch,
	}
}

func deleteBranch(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	branch := a.String("branch")
	// The forge's route takes the rest of the path as the branch, so a
	// name with '/' (feature/x) travels part by part, each part checked:
	// nothing a proxy could decode into another route.
	p, err := forgejo.FilePath([]string{"repos", a.String("owner"), a.String("repo"), "branches"}, branch)
	if err != nil {
		return nil, fmt.Errorf("branch: %w", err)
	}
	subject := fmt.Sprintf("branch %s in %s", branch, tool.FullName(a))
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		err = forgejo.Relabel(err, "delete", subject)
		if forgejo.StatusOf(err) == http.StatusForbidden {
			return nil, whyNotDeleted(ctx, c, a, err)
		}
		if forgejo.IsNotFound(err) {
			if e := whichMissing(ctx, c, a, err, "", "", ""); e != err {
				return nil, e // the repository
			}
			return nil, fmt.Errorf("%w; list_branches shows the branches", err)
		}
		return nil, err
	}
	return tool.Deleted("branch", branch)
}

// whyNotDeleted explains the forge's 403 on deleting a branch, which names
// no reason a token scope would fix: the branch is the default one, the
// base of an open pull request, or protected.
func whyNotDeleted(ctx context.Context, c *forgejo.Client, a tool.Args, err error) error {
	branch := a.String("branch")
	r, resp, rerr := c.SDK(ctx).GetRepo(a.String("owner"), a.String("repo"))
	if rerr == nil && resp != nil && r.DefaultBranch == branch {
		return fmt.Errorf("delete branch %s in %s: refused (403): it is the repository's default branch; make another branch the default first", branch, tool.FullName(a))
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "pull request target"):
		return fmt.Errorf("delete branch %s in %s: refused (403): it is the base of an open pull request; merge, close or retarget those first (list_repo_pull_requests)", branch, tool.FullName(a))
	case strings.Contains(msg, "protected"):
		return fmt.Errorf("delete branch %s in %s: refused (403): the branch is protected; see list_branch_protections", branch, tool.FullName(a))
	}
	return err
}
