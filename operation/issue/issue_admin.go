package issue

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// AdminToolset holds what a repository's maintainer does to issues beyond
// the everyday: delete one, set all its labels at once. (Its deadline is
// update_issue's due_date.)
var AdminToolset = tool.Toolset{ID: "issue-admin", Description: "Issue upkeep: delete an issue, replace or clear its labels in one call"}

func adminTools() []tool.Def {
	return []tool.Def{
		{
			Name: "replace_issue_labels", Toolset: AdminToolset,
			Title: "Replace an issue's labels", Output: tool.Shape{"labels": []Label{}},
			Description: "Set an issue's or PR's labels to exactly these; an empty list clears them",
			Params: []tool.Param{tool.Owner(), tool.Repo(), tool.Index(),
				tool.Strs("labels", "Label names or IDs; [] clears", tool.Required())},
			Annotations: tool.Destroy(true), Handler: replaceIssueLabels,
		},
		{
			Name: "delete_issue", Toolset: AdminToolset,
			Title: "Delete an issue", Output: tool.DeletedOutput("index", int64(0)),
			Description: "Delete an issue or PR for good, with its comments (repository admins)",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Index()},
			Annotations: tool.Destroy(true), Handler: deleteIssue,
		},
	}
}

// replaceIssueLabels resolves every name first (an unknown one changes
// nothing), then sets them in one PUT, or clears them with one DELETE.
func replaceIssueLabels(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if len(a.Strings("labels")) == 0 {
		req := repoRequest{Method: "DELETE", Route: issueRoute(a, "labels"), Verb: "clear the labels of", Subject: tool.IssueRef(a)}
		if err := req.send(ctx, c, a, nil); err != nil {
			return nil, err
		}
		return tool.JSON(map[string]any{"labels": []Label{}})
	}
	return sendIssueLabels(ctx, c, a, "PUT", "replace the labels of", func(unknown []string) error {
		return fmt.Errorf("the forge did not set label %v on %s: no such label in %s", unknown, tool.IssueRef(a), tool.RepoRef(a))
	})
}

func deleteIssue(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	req := repoRequest{Method: "DELETE", Route: issueRoute(a), Verb: "delete", Subject: tool.IssueRef(a)}
	if err := req.send(ctx, c, a, nil); err != nil {
		if forgejo.StatusOf(err) == 403 {
			return nil, fmt.Errorf("%w; deleting an issue needs admin rights on %s (its author or a writer may close it: issue_state_change)", err, tool.RepoRef(a))
		}
		return nil, err
	}
	return tool.Deleted("index", a.Int("index"))
}
