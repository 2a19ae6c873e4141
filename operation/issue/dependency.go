package issue

import (
	"context"
	"fmt"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// dependencyTools returns the issue dependency tools; Tools includes them.
// forgejo-sdk has no dependency calls, so they go through DoJSON.
func dependencyTools() []tool.Def {
	dep := tool.ID("dependency", "Number of the blocking issue in the same repository")
	return []tool.Def{
		{
			Name: "list_issue_dependencies", Toolset: DependencyToolset,
			Title: "List the issues blocking an issue", Output: tool.ListPage[Dependency]{},
			Description: "List the issues that block an issue (its dependencies)",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Index(), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listDeps("dependencies"),
		},
		{
			Name: "list_issue_dependents", Toolset: DependencyToolset,
			Title: "List the issues an issue blocks", Output: tool.ListPage[Dependency]{},
			Description: "List the issues an issue blocks",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Index(), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listDeps("blocks"),
		},
		{
			Name: "add_issue_dependency", Toolset: DependencyToolset,
			Title: "Add an issue dependency", Output: tool.Shape{"added": true, "issue": int64(0), "blocked_by": ""},
			Description: "Mark an issue as blocked by another issue of the same repository",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Index(), dep},
			Annotations: tool.Write(false), Handler: changeDep("POST", "add a dependency to"),
		},
		{
			Name: "remove_issue_dependency", Toolset: DependencyToolset,
			Title: "Remove an issue dependency", Output: tool.Shape{"removed": true, "issue": int64(0), "blocked_by": ""},
			Description: "Remove a blocking issue from an issue's dependencies",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.Index(), dep},
			Annotations: tool.Destroy(true), Handler: changeDep("DELETE", "remove a dependency from"),
		},
	}
}

// Dependency is the compact shape of a blocking or blocked issue, which
// may live in another repository.
type Dependency struct {
	Repo   string `json:"repo,omitempty" trust:"repo"`
	Number int64  `json:"number"`
	Title  string `json:"title" trust:"text"`
	State  string `json:"state"`
	Author string `json:"author,omitempty" trust:"author"`
}

func compactDep(i *sdk.Issue) Dependency {
	d := Dependency{Number: i.Index, Title: i.Title, State: string(i.State), Author: forgejo.Login(i.Poster)}
	if i.Repository != nil {
		d.Repo = i.Repository.FullName
	}
	return d
}

func listDeps(route string) tool.Handler {
	verb := map[string]string{"dependencies": "list the dependencies of", "blocks": "list the issues blocked by"}[route]
	return func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
		var list []*sdk.Issue
		req := repoRequest{Method: "GET", Route: issueRoute(a, route), Query: tool.PageQuery(a), Verb: verb, Subject: tool.IssueRef(a)}
		if err := req.send(ctx, c, a, &list); err != nil {
			return nil, err
		}
		return tool.ListResult(a, nil, list, compactDep)
	}
}

func changeDep(method, verb string) tool.Handler {
	return func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
		body := map[string]any{"owner": a.String("owner"), "repo": a.String("repo"), "index": a.Int("dependency")}
		req := repoRequest{Method: method, Route: issueRoute(a, "dependencies"), Body: body,
			Verb: verb, Subject: fmt.Sprintf("%s (dependency #%d)", tool.IssueRef(a), a.Int("dependency"))}
		if err := req.send(ctx, c, a, nil); err != nil {
			return nil, err
		}
		key := map[string]string{"POST": "added", "DELETE": "removed"}[method]
		return tool.JSON(map[string]any{key: true, "issue": a.Int("index"), "blocked_by": fmt.Sprintf("%s#%d", tool.FullName(a), a.Int("dependency"))})
	}
}
