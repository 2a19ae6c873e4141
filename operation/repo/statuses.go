package repo

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// maxCombinedStatuses is the page of contexts get_commit_status asks for:
// the forge's largest.
const maxCombinedStatuses = 50

func statusRefParam() tool.Param {
	return tool.Str("ref", "Branch, tag or SHA", tool.Required(), tool.MaxLen(255))
}

// statusTools returns the commit status (CI state) tools.
func statusTools() []tool.Def {
	return []tool.Def{
		{
			Name: "get_commit_status", Title: "Get a commit's CI state", Toolset: Toolset,
			Description: "Get a commit's combined CI state and each check's latest status",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), statusRefParam()},
			Annotations: tool.Read(), Handler: getCommitStatus, Output: CombinedStatus{},
		},
		{
			Name: "list_commit_statuses", Title: "List a commit's statuses", Toolset: Toolset,
			Description: "List all statuses of a commit, superseded ones included",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), statusRefParam(), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listCommitStatuses, Output: tool.ListPage[Status]{},
		},
		{
			Name: "create_commit_status", Title: "Report a commit status", Toolset: Toolset,
			Description: "Report a CI check's state on a commit",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				statusRefParam(),
				tool.Str("state", "State", tool.Required(), tool.OneOf("pending", "success", "error", "failure", "warning")),
				tool.Str("context", "Check name, e.g. ci/lint", tool.Default("default"), tool.MaxLen(255)),
				tool.Str("description", "Short description", tool.MaxLen(255)),
				tool.Str("target_url", "Details URL", tool.MaxLen(2048))},
			Annotations: tool.Write(false), Handler: createCommitStatus, Output: Status{},
		},
	}
}

// Status is one reported status of a check.
type Status struct {
	Context     string    `json:"context"`
	State       string    `json:"state"`
	Description string    `json:"description,omitempty"`
	TargetURL   string    `json:"target_url,omitempty"`
	Creator     string    `json:"creator,omitempty"`
	Updated     time.Time `json:"updated_at"`
}

// CombinedStatus is a commit's overall CI state: the worst of its checks'
// latest states ("" when none reported).
type CombinedStatus struct {
	State      string   `json:"state"`
	SHA        string   `json:"sha"`
	TotalCount int      `json:"total_count"`
	Statuses   []Status `json:"statuses"`
	Note       string   `json:"note,omitempty"`
}

func compactStatus(s *sdk.Status) Status {
	return Status{Context: s.Context, State: string(s.State), Description: s.Description, TargetURL: s.TargetURL,
		Creator: forgejo.Login(s.Creator), Updated: s.Updated}
}

func statusRef(a tool.Args, param string) string {
	return fmt.Sprintf("%s %s in %s", param, a.String(param), tool.FullName(a))
}

func getCommitStatus(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	sha, err := refSegment(ctx, c, a, a.String("ref"))
	if err != nil {
		return nil, err
	}
	out, err := CombinedOf(ctx, c, a, sha)
	if err != nil {
		return nil, whichMissing(ctx, c, a, forgejo.Relabel(err, "get the status of", statusRef(a, "ref")), fmt.Sprintf("ref %q", a.String("ref")), sha, "")
	}
	return tool.JSON(out)
}

// CombinedOf is the combined status of commit sha in the repository a
// names: its overall state and each check's latest status (up to
// maxCombinedStatuses, with a note when there are more). A failure is the
// forge's, unlabelled.
func CombinedOf(ctx context.Context, c *forgejo.Client, a tool.Args, sha string) (CombinedStatus, error) {
	p, err := tool.RepoRoute(a, "commits", sha, "status")
	if err != nil {
		return CombinedStatus{}, err
	}
	// Raw: the SDK's call cannot ask for a page of contexts.
	var cs sdk.CombinedStatus
	q := url.Values{"page": {"1"}, "limit": {fmt.Sprint(maxCombinedStatuses)}}
	if err := c.DoJSON(ctx, http.MethodGet, p, q, nil, &cs); err != nil {
		return CombinedStatus{}, err
	}
	out := CombinedStatus{State: string(cs.State), SHA: cs.SHA, TotalCount: cs.TotalCount, Statuses: tool.Map(cs.Statuses, compactStatus)}
	if out.SHA == "" {
		out.SHA = sha
	}
	if out.TotalCount == 0 {
		out.Note = "no check has reported a status on this commit"
	} else if out.TotalCount > len(out.Statuses) {
		out.Note = fmt.Sprintf("%d of %d checks shown; list_commit_statuses pages through all statuses", len(out.Statuses), out.TotalCount)
	}
	return out, nil
}

// ResolveRef returns ref (a commit SHA, branch or tag) as the SHA of the
// commit it names, resolved without putting the name in a route.
func ResolveRef(ctx context.Context, c *forgejo.Client, a tool.Args, ref string) (string, error) {
	return refSegment(ctx, c, a, ref)
}

func listCommitStatuses(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	sha, err := refSegment(ctx, c, a, a.String("ref"))
	if err != nil {
		return nil, err
	}
	list, resp, err := c.SDK(ctx).ListStatuses(a.String("owner"), a.String("repo"), sha, sdk.ListStatusesOption{ListOptions: tool.ListOptions(a)})
	if err := forgejo.Fail(resp, err, "list statuses of", statusRef(a, "ref")); err != nil {
		return nil, whichMissing(ctx, c, a, err, fmt.Sprintf("ref %q", a.String("ref")), sha, "")
	}
	return tool.ListResult(a, resp, list, compactStatus)
}

func createCommitStatus(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	// The forge resolves a branch or tag in this route itself; only a
	// name with '/' is resolved here first, as it cannot be one segment.
	sha := a.String("ref")
	if strings.ContainsAny(sha, `/\`) {
		var err error
		if sha, err = refSegment(ctx, c, a, sha); err != nil {
			return nil, err
		}
	}
	if u := a.String("target_url"); u != "" {
		if parsed, err := url.Parse(u); err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
			return nil, fmt.Errorf("target_url %q is not an http(s) URL", forgejo.Clip(u))
		}
	}
	s, resp, err := c.SDK(ctx).CreateStatus(a.String("owner"), a.String("repo"), sha, sdk.CreateStatusOption{
		State: sdk.StatusState(a.String("state")), Context: a.String("context"),
		Description: a.String("description"), TargetURL: a.String("target_url")})
	if err := forgejo.Fail(resp, err, "report a status on", fmt.Sprintf("commit %s in %s", sha, tool.FullName(a))); err != nil {
		return nil, whichMissing(ctx, c, a, missingAs500(ctx, c, a, err, sha), fmt.Sprintf("commit %q", a.String("ref")), sha, "")
	}
	return tool.JSON(compactStatus(s))
}
