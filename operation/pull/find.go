package pull

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Finding pull requests: list_repo_pull_requests with the filters an agent
// needs to find its own PR ("is there one for my branch, for this
// commit?"). The flavours filter differently: Gitea's list takes
// base_branch, poster, labels (any of them), milestone and sort; Forgejo's
// takes base and head from v14 on (13.0.5 has neither); no list filters by
// commit. So every filter the forge may ignore (head, base, sha, labels)
// is also checked here on each PR, and the list is read in pages of
// scanPageSize until a page of matches is full: the result is right on
// every forge, and one call on the forges that filter themselves.

// scanPageSize is the forge page a filtered list reads: its largest.
const scanPageSize = 50

// maxScanPages bounds the forge pages one filtered list reads (500 pull
// requests): past it, the result says how far it looked.
const maxScanPages = 10

// shaPattern is a full or abbreviated commit SHA: 7 hex digits or more,
// the 64 at most checked by MaxLen (a {7,64} repetition compiles to 64
// copies, which every process start would pay for).
var shaPattern = regexp.MustCompile(`^[0-9a-fA-F]{7}[0-9a-fA-F]*$`)

func listPullsParams() []tool.Param {
	return []tool.Param{tool.Owner(), tool.Repo(), tool.State(),
		tool.Str("head", "Head branch (owner:branch for a fork)"),
		tool.Str("base", "Base branch"),
		tool.Str("sha", "Head or merge commit SHA", tool.MaxLen(64), tool.Match(shaPattern, "a commit SHA, 7 to 64 hex digits")),
		tool.Named("author", "Author login").Optional(),
		tool.Strs("labels", "Label names, all required"),
		tool.Int("milestone", "Milestone ID", tool.AtLeast(1)),
		tool.Str("sort", "Order (default newest)", tool.OneOf("oldest", "recentupdate", "leastupdate", "mostcomment", "leastcomment", "priority")),
		tool.Page(), tool.Limit()}
}

// PullPage is a page of pull requests; Note says how far a filtered list
// looked when it stopped before the end.
type PullPage struct {
	tool.ListPage[Pull]
	Note string `json:"note,omitempty"`
}

// pullFilter is what list_repo_pull_requests checks on each PR itself.
type pullFilter struct {
	headOwner, head, base, sha string
	labels                     []string
}

func (f pullFilter) none() bool {
	return f.head == "" && f.base == "" && f.sha == "" && len(f.labels) == 0
}

// keep says whether p passes every filter.
func (f pullFilter) keep(p *sdk.PullRequest) bool {
	if f.head != "" && !headIs(p, f.headOwner, f.head) {
		return false
	}
	if f.base != "" && (p.Base == nil || p.Base.Ref != f.base) {
		return false
	}
	if f.sha != "" && !shaIs(p, f.sha) {
		return false
	}
	for _, want := range f.labels {
		if !slices.ContainsFunc(p.Labels, func(l *sdk.Label) bool { return l != nil && strings.EqualFold(l.Name, want) }) {
			return false
		}
	}
	return true
}

// headIs says whether p's head is branch, in owner's repository when owner
// is set and in the base repository otherwise. The branch is the head's
// label: its ref becomes refs/pull/N/head once the branch is deleted.
func headIs(p *sdk.PullRequest, owner, branch string) bool {
	h := p.Head
	if h == nil || (h.Name != branch && h.Ref != branch) {
		return false
	}
	if owner == "" {
		return p.Base == nil || h.RepoID == 0 || h.RepoID == p.Base.RepoID
	}
	return h.Repository != nil && h.Repository.Owner != nil && strings.EqualFold(h.Repository.Owner.UserName, owner)
}

// shaIs says whether sha (full or abbreviated) is p's head or merge commit.
func shaIs(p *sdk.PullRequest, sha string) bool {
	prefix := func(full string) bool {
		return len(full) >= len(sha) && strings.EqualFold(full[:len(sha)], sha)
	}
	return (p.Head != nil && prefix(p.Head.Sha)) || (p.MergedCommitID != nil && prefix(*p.MergedCommitID))
}

func listPulls(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "pulls")
	if err != nil {
		return nil, err
	}
	f := pullFilter{base: a.String("base"), sha: a.String("sha"), labels: a.Strings("labels")}
	if h := a.String("head"); h != "" {
		if owner, branch, ok := strings.Cut(h, ":"); ok {
			f.headOwner, f.head = owner, branch
		} else {
			f.head = h
		}
	}
	q := url.Values{"state": {a.String("state")}}
	for param, v := range map[string]string{"sort": a.String("sort"), "poster": a.String("author"),
		"base": f.base, "base_branch": f.base} {
		if v != "" {
			q.Set(param, v)
		}
	}
	if f.headOwner == "" && f.head != "" {
		q.Set("head", f.head) // Forgejo's filter; owner:branch is left to keep
	}
	if m := a.Int("milestone"); m > 0 {
		q.Set("milestone", strconv.FormatInt(m, 10))
	}
	if len(f.labels) > 0 {
		ids, err := issue.LabelIDs(ctx, c, a.String("owner"), a.String("repo"), f.labels)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			q.Add("labels", strconv.FormatInt(id, 10))
		}
	}
	page, limit := a.Int("page"), a.Int("limit")
	if f.none() {
		q.Set("page", strconv.FormatInt(page, 10))
		q.Set("limit", strconv.FormatInt(limit, 10))
		var list []*sdk.PullRequest
		if err := c.DoJSON(ctx, http.MethodGet, p, q, nil, &list); err != nil {
			return nil, forgejo.Relabel(err, "list pull requests of", tool.RepoRef(a))
		}
		return tool.JSON(PullPage{ListPage: tool.ListPage[Pull]{Items: tool.Map(list, listed), Page: page,
			HasMore: int64(len(list)) >= limit}})
	}
	out, err := scanPulls(ctx, c, p, q, f, page, limit)
	if err != nil {
		return nil, forgejo.Relabel(err, "list pull requests of", tool.RepoRef(a))
	}
	return tool.JSON(out)
}

// listed is a pull request as lists show it: without its body.
func listed(p *sdk.PullRequest) Pull { return compact(p, false) }

// scanPulls reads the forge's list (q, pages of scanPageSize) and keeps the
// PRs f accepts, until it holds page's matches and one more (so it knows
// more follow), the list ends, or maxScanPages pages were read.
func scanPulls(ctx context.Context, c *forgejo.Client, route string, q url.Values, f pullFilter, page, limit int64) (PullPage, error) {
	skip, want := (page-1)*limit, page*limit+1
	var matches []*sdk.PullRequest
	seen := map[int64]bool{} // Gitea lists a PR once per matching label
	q.Set("limit", strconv.Itoa(scanPageSize))
	read, ended := 0, false
	for read < maxScanPages && int64(len(matches)) < want {
		read++
		q.Set("page", strconv.Itoa(read))
		var list []*sdk.PullRequest
		if err := c.DoJSON(ctx, http.MethodGet, route, q, nil, &list); err != nil {
			return PullPage{}, err
		}
		for _, p := range list {
			if p != nil && !seen[p.Index] && f.keep(p) {
				seen[p.Index] = true
				matches = append(matches, p)
			}
		}
		if len(list) < scanPageSize {
			ended = true
			break
		}
	}
	out := PullPage{ListPage: tool.ListPage[Pull]{Items: []Pull{}, Page: page}}
	if int64(len(matches)) > skip {
		end := min(int64(len(matches)), skip+limit)
		out.Items = tool.Map(matches[skip:end], listed)
		out.HasMore = int64(len(matches)) > end
	}
	if !ended && !out.HasMore {
		// Another page would read the same PRs again: say where it stopped.
		out.Note = fmt.Sprintf("stopped after the %d newest pull requests (state=%s), older ones unchecked: narrow with base, author or state, or sort=oldest",
			read*scanPageSize, q.Get("state"))
	}
	return out, nil
}
