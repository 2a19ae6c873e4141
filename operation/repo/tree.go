package repo

import (
	"context"
	"fmt"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func treeTool() tool.Def {
	return tool.Def{
		Name: "get_repo_tree", Title: "Get a repository's file tree", Toolset: Toolset,
		Description: "List a tree's files and directories at a ref, paged",
		Params: []tool.Param{tool.Owner(), tool.Repo(),
			tool.Str("ref", "Branch, tag or SHA (default: default branch)", tool.MaxLen(255)),
			tool.Bool("recursive", "Descend into subdirectories", tool.Default(false)),
			tool.Page(),
			tool.Int("limit", "Entries per page", tool.Default(200), tool.Range(1, 1000))},
		Annotations: tool.Read(), Handler: getTree, Output: Tree{},
	}
}

// TreeEntry is one file (blob), directory (tree) or submodule (commit).
type TreeEntry struct {
	Path string `json:"path"`
	Type string `json:"type"`
	Size *int64 `json:"size,omitempty"` // of a file
	SHA  string `json:"sha"`
}

// Tree is one page of a tree's entries.
type Tree struct {
	SHA        string      `json:"sha"`
	Entries    []TreeEntry `json:"entries"`
	Page       int         `json:"page"`
	TotalCount int         `json:"total_count"`
	HasMore    bool        `json:"has_more"`
	// Truncated is the forge's flag: it cut the tree short of its end,
	// by paging or by its own size limits.
	Truncated bool `json:"truncated"`
}

func getTree(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	sha, err := refSegment(ctx, c, a, a.String("ref"))
	if err != nil {
		return nil, err
	}
	t, resp, err := c.SDK(ctx).GetTrees(a.String("owner"), a.String("repo"), sha, sdk.GetTreesOptions{
		Recursive: a.Bool("recursive"), ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "get the tree of", fmt.Sprintf("%s in %s", sha, tool.FullName(a))); err != nil {
		return nil, whichMissing(ctx, c, a, err, fmt.Sprintf("tree or commit %q", a.String("ref")), sha, "")
	}
	out := Tree{SHA: t.SHA, Entries: make([]TreeEntry, 0, len(t.Entries)), Page: t.Page, TotalCount: t.TotalCount, Truncated: t.Truncated}
	for _, e := range t.Entries {
		entry := TreeEntry{Path: e.Path, Type: e.Type, SHA: e.SHA}
		if e.Type == "blob" {
			entry.Size = &e.Size
		}
		out.Entries = append(out.Entries, entry)
	}
	out.HasMore = int64(out.Page)*a.Int("limit") < int64(out.TotalCount)
	return tool.JSON(out)
}
