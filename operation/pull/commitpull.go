package pull

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// commitPullTool is get_commit_pull_request: the PR a commit came in
// with, and whether it merged, in one call. The forges' route
// (getCommitPullRequest) knows only the commit a merged PR merged as;
// for any other commit, the PRs whose head it is are looked up as
// list_repo_pull_requests' sha does (the open one first).
func commitPullTool() tool.Def {
	return tool.Def{
		Name: "get_commit_pull_request", Title: "Get a commit's pull request", Toolset: MergeToolset,
		Description: "The PR a commit belongs to, and whether it merged",
		Params: []tool.Param{tool.Owner(), tool.Repo(),
			tool.Str("sha", "Commit SHA", tool.Required(), tool.MaxLen(64), tool.Match(shaPattern, "a commit SHA, 7 to 64 hex digits"))},
		Annotations: tool.Read(), Handler: commitPull, Output: Pull{},
	}
}

func commitPull(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "commits", a.String("sha"), "pull")
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	subject := fmt.Sprintf("the pull request of commit %s in %s", a.String("sha"), tool.FullName(a))
	if err := c.DoJSON(ctx, "GET", p, nil, nil, &raw); err != nil {
		err = forgejo.Relabel(err, "get", subject)
		if !forgejo.IsNotFound(err) && !forgejo.IsNoRoute(err) {
			return nil, err
		}
		return headOf(ctx, c, a, subject)
	}
	pr, _, err := pullJSON(raw)
	if err != nil {
		return nil, &forgejo.Error{Verb: "get", Subject: subject, Status: 200, Cause: err}
	}
	return tool.JSON(compact(pr, false))
}

// headOf is the PR whose head is the commit, open first, then closed.
func headOf(ctx context.Context, c *forgejo.Client, a tool.Args, subject string) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "pulls")
	if err != nil {
		return nil, err
	}
	f := pullFilter{sha: a.String("sha")}
	page, err := scanPulls(ctx, c, p, url.Values{"state": {"all"}}, f, 1, 1)
	if err != nil {
		return nil, forgejo.Relabel(err, "find", subject)
	}
	if len(page.Items) == 0 {
		note := ""
		if page.Note != "" {
			note = " (" + page.Note + ")"
		}
		return nil, fmt.Errorf("%s: no pull request merged as commit %s or has it as its head%s: it was pushed directly, is inside a PR's branch (list_pull_request_commits), or this token cannot see it",
			subject, a.String("sha"), note)
	}
	return tool.JSON(page.Items[0])
}
