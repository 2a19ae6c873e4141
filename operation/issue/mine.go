package issue

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// "What are my open pull requests?" in one call of the default selection
// (issue 28, B.4): search_issues answers it but is outside the default,
// where no tool listed the user's work across repositories. list_my_issues
// is the compact form: the token user's issues and pull requests, by how
// they involve the user, all of the ways unless one is asked.

// mineVia are the ways an issue is the user's that "any" gathers: the
// forge's search takes one at a time (several set are all required).
var mineVia = []string{"created", "assigned", "review_requested"}

// maxSearchLimit is the most issues the forge's search answers in one page
// (both forges' MAX_RESPONSE_ITEMS default): a larger limit is cut to it.
const maxSearchLimit = 50

func mineTools() []tool.Def {
	return []tool.Def{{
		Name: "list_my_issues", Toolset: Toolset,
		// Output unadvertised: its schema would cost the default
		// selection 700 bytes of tools/list, yet it types the result for
		// the Runner's passes (lockdown, author marks, scope filtering).
		Output: tool.ListPage[Mine]{}, Unadvertised: true,
		Title:       "My issues and pull requests",
		Description: "Your issues and PRs in every repo, newest first",
		Params: []tool.Param{
			tool.Str("type", "Issues, pulls or all", tool.Default("all"), tool.OneOf("issues", "pulls", "all")),
			tool.Str("involved", "One way only", tool.OneOf(mineVia...)),
			tool.State(), tool.Limit()},
		Annotations: tool.Read(), Handler: listMine,
	}}
}

// Mine is an issue or pull request of the user's: where it is, the
// compact issue, and how it is the user's.
type Mine struct {
	Found
	Via []string `json:"via"`
}

// listMine asks the forge's cross-repository search once per way and
// merges the answers. Both forges answer newest first (by creation:
// Gitea always, Forgejo by its default sort), so each answer is a prefix
// of that way's whole list, and the newest limit of the union are among
// the first limit of each answer: the merge is exact, not a sample.
func listMine(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	ways := mineVia
	if way := a.String("involved"); way != "" {
		ways = []string{way}
	}
	typ, limit := a.String("type"), int(a.Int("limit"))
	if typ == "issues" {
		ways = slices.DeleteFunc(slices.Clone(ways), func(w string) bool { return w == "review_requested" })
		if len(ways) == 0 {
			return nil, errors.New("involved review_requested lists pull requests awaiting your review, and type issues leaves them out: use type pulls (or all)")
		}
	}
	byURL := map[string]*Mine{}
	more := false
	for _, way := range ways {
		list, full, err := searchMine(ctx, c, a.String("state"), typ, way, limit)
		if err != nil {
			return nil, err
		}
		more = more || full
		for _, i := range list {
			if m, ok := byURL[i.HTMLURL]; ok {
				m.Via = append(m.Via, way)
				continue
			}
			f := Found{Issue: compact(i, false)}
			if i.Repository != nil {
				f.Repo = i.Repository.FullName
			}
			byURL[i.HTMLURL] = &Mine{Found: f, Via: []string{way}}
		}
	}
	all := make([]Mine, 0, len(byURL))
	for _, m := range byURL {
		all = append(all, *m)
	}
	slices.SortFunc(all, func(x, y Mine) int {
		if c := y.Created.Compare(x.Created); c != 0 {
			return c
		}
		if c := strings.Compare(x.Repo, y.Repo); c != 0 {
			return c
		}
		return int(y.Number - x.Number)
	})
	if len(all) > limit {
		all, more = all[:limit], true
	}
	return tool.Items(all, 1, more)
}

// searchMine reads the first page of the forge's cross-repository search
// for the issues involving the token's user in way, asking one more than
// limit (within the forge's page size) to know whether more follow; full
// says they may.
func searchMine(ctx context.Context, c *forgejo.Client, state, typ, way string, limit int) ([]*sdk.Issue, bool, error) {
	ask := min(limit+1, maxSearchLimit)
	q := url.Values{"state": {state}, way: {"true"}, "limit": {strconv.Itoa(ask)}, "page": {"1"}}
	switch {
	case way == "review_requested" || typ == "pulls":
		q.Set("type", string(sdk.IssueTypePull))
	case typ == "issues":
		q.Set("type", string(sdk.IssueTypeIssue))
	}
	var list []*sdk.Issue
	if err := c.DoJSON(ctx, http.MethodGet, "/repos/issues/search", q, nil, &list); err != nil {
		return nil, false, forgejo.Relabel(err, "search", "your issues ("+way+")")
	}
	full := len(list) >= ask
	list = slices.DeleteFunc(list, func(i *sdk.Issue) bool { return i == nil })
	if len(list) > limit {
		list = list[:limit]
	}
	return list, full, nil
}
