package issue

import (
	"context"
	"slices"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// searchTools returns the cross-repository issue search; Tools includes it.
func searchTools() []tool.Def {
	return []tool.Def{{
		Name:        "search_issues",
		Toolset:     toolset,
		Description: "Search issues and pull requests across every repository the token can see, without their bodies",
		Params: []tool.Param{
			tool.Str("query", "Text to find in titles and bodies", tool.MaxLen(255)),
			tool.State(),
			tool.Str("type", "Only issues or only pull requests", tool.Default("issues"), tool.OneOf("issues", "pulls", "all")),
			tool.Strs("labels", "Only issues with all of these label names (checked on each page, so a page may hold fewer than limit)"),
			tool.Str("owner", "Only repositories of this user or organisation", tool.MaxLen(100), tool.Match(orgPattern, "letters, digits, '-', '_' and '.' only")),
			tool.Since("updated"), tool.Before("updated"),
			tool.Page(), tool.Limit()},
		Annotations: tool.Read(),
		Handler:     searchIssues,
	}}
}

// Found is an issue found by search_issues: the compact issue and the
// repository it is in.
type Found struct {
	Repo string `json:"repo"`
	Issue
}

func searchIssues(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	page, limit := a.Int("page"), a.Int("limit")
	typ := map[string]sdk.IssueType{"issues": sdk.IssueTypeIssue, "pulls": sdk.IssueTypePull}[a.String("type")]
	since, before, err := a.Window()
	if err != nil {
		return nil, err
	}
	labels := a.Strings("labels")
	list, resp, err := c.SDK(ctx).ListIssues(sdk.ListIssueOption{
		ListOptions: sdk.ListOptions{Page: int(page), PageSize: int(limit)},
		State:       sdk.StateType(a.String("state")), Type: typ,
		Labels: labels, KeyWord: a.String("query"), Owner: a.String("owner"), Since: since, Before: before,
	})
	if err := forgejo.Fail(resp, err, "search", "issues"); err != nil {
		return nil, err
	}
	n := len(list)
	// The forge's search keeps issues with any of the labels, and ignores
	// names it does not know: keep only those with all of them.
	if len(labels) > 0 {
		list = slices.DeleteFunc(list, func(i *sdk.Issue) bool { return !hasAllLabels(i, labels) })
	}
	items := tool.Map(list, func(i *sdk.Issue) Found {
		f := Found{Issue: compact(i, false)}
		if i.Repository != nil {
			f.Repo = i.Repository.FullName
		}
		return f
	})
	return tool.Items(items, page, forgejo.HasMore(resp, int(page), n, int(limit)))
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
