package issue

import (
	"context"
	"slices"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/search"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// searchTools returns the cross-repository issue search; Tools includes it.
func searchTools() []tool.Def {
	return []tool.Def{{
		Name: "search_issues", Toolset: search.Toolset,
		Title: "Search issues across repositories", Output: tool.ListPage[Found]{},
		Description: "Search issues and PRs in every repository the token can see, without bodies",
		Params: []tool.Param{
			tool.Str("query", "Text to find in titles and bodies", tool.MaxLen(255)),
			tool.State(),
			tool.Str("type", "Only issues or only pull requests", tool.Default("issues"), tool.OneOf("issues", "pulls", "all")),
			tool.Strs("labels", "Only issues with all of these label names (checked on each page, so a page may hold fewer than limit)"),
			tool.Owner().Optional().Describe("Only repositories of this user or organisation"),
			tool.Since("updated"), tool.Before("updated"),
			tool.Page(), tool.Limit()},
		Annotations: tool.Read(), Handler: searchIssues,
	}}
}

// Found is an issue found by search_issues: the compact issue and the
// repository it is in.
type Found struct {
	Repo string `json:"repo"`
	Issue
}

func searchIssues(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	opt, err := issueFilter(a)
	if err != nil {
		return nil, err
	}
	opt.Owner = a.String("owner")
	list, resp, err := c.SDK(ctx).ListIssues(opt)
	if err := forgejo.Fail(resp, err, "search", "issues"); err != nil {
		return nil, err
	}
	n := len(list)
	// The forge's search keeps issues with any of the labels, and ignores
	// names it does not know: keep only those with all of them.
	if len(opt.Labels) > 0 {
		list = slices.DeleteFunc(list, func(i *sdk.Issue) bool { return !hasAllLabels(i, opt.Labels) })
	}
	items := tool.Map(list, func(i *sdk.Issue) Found {
		f := Found{Issue: compact(i, false)}
		if i.Repository != nil {
			f.Repo = i.Repository.FullName
		}
		return f
	})
	page := a.Int("page")
	return tool.Items(items, page, forgejo.HasMore(resp, int(page), n, int(a.Int("limit"))))
}

// hasAllLabels reports whether i carries every label of names, compared
// ignoring case as list_repo_issues resolves them.
func hasAllLabels(i *sdk.Issue, names []string) bool {
	for _, n := range names {
		if !slices.ContainsFunc(i.Labels, func(l *sdk.Label) bool { return l != nil && strings.EqualFold(l.Name, n) }) {
			return false
		}
	}
	return true
}
