package issue

import (
	"context"
	"net/http"
	"net/url"
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
			tool.Str("involved", "Only those involving you this way",
				tool.OneOf(involvements...)),
			tool.Since("updated"), tool.Before("updated"),
			tool.Page(), tool.Limit()},
		Annotations: tool.Read(), Handler: searchIssues,
	}}
}

// Found is an issue found by search_issues: the compact issue and the
// repository it is in.
type Found struct {
	Repo string `json:"repo" trust:"repo"`
	Issue
}

func searchIssues(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	opt, err := issueFilter(a)
	if err != nil {
		return nil, err
	}
	opt.Owner = a.String("owner")
	// Raw, not the SDK: its ListIssues cannot send the involvement filters.
	q, err := url.ParseQuery(opt.QueryEncode())
	if err != nil {
		return nil, err
	}
	if inv := a.String("involved"); inv != "" {
		q.Set(inv, "true")
		if strings.HasPrefix(inv, "review") {
			q.Set("type", string(sdk.IssueTypePull))
		}
	}
	var list []*sdk.Issue
	if err := c.DoJSON(ctx, http.MethodGet, "/repos/issues/search", q, nil, &list); err != nil {
		return nil, forgejo.Relabel(err, "search", "issues")
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
	return tool.Items(items, a.Int("page"), int64(n) >= a.Int("limit"))
}

// involvements are the forge's search flags for how an issue involves the
// token's user: the involved parameter sets one of them to true.
var involvements = []string{"assigned", "created", "mentioned", "review_requested", "reviewed"}

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
