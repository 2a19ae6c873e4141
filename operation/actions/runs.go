package actions

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Listing runs, the same on both flavours. Where they differ
// (forgejo.Behaviours): Forgejo names statuses its own way and refuses
// Gitea's words with 400 "unknown status", so a status filter is
// translated; Forgejo 13 lists runs oldest first, so the newest-first page
// is cut from the forge's pages by the total both send in the body (neither
// the X-Total-Count header nor Link, which Forgejo does not send).

// fullSHA is a full commit SHA (SHA-1 or SHA-256): the forges match a
// run's commit exactly.
var fullSHA = regexp.MustCompile(`^([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$`)

// runFilter is what a runs list filters on that some flavours ignore
// (Forgejo 13 filters by neither branch nor workflow, Gitea not by
// workflow): each page is also checked here, so a page may hold fewer than
// limit runs. status is checked here too, in this server's vocabulary.
type runFilter struct{ branch, sha, workflow, status string }

func (f runFilter) keep(r Run) bool {
	return (f.branch == "" || r.Branch == f.branch) && (f.workflow == "" || r.Workflow == f.workflow) &&
		(f.sha == "" || strings.EqualFold(r.SHA, f.sha)) &&
		(f.status == "" || r.Status == f.status || r.Conclusion == f.status)
}

// forgejoStatuses are the words Forgejo's status filter takes for one of
// this server's (Gitea's) status words (forgejoStatus is the other way);
// a conclusion is the same word on both.
func forgejoStatuses(status string) []string {
	switch status {
	case "queued":
		return []string{"waiting"}
	case "in_progress":
		return []string{"running"}
	case "waiting":
		return []string{"blocked"}
	case "completed":
		return []string{"success", "failure", "cancelled", "skipped"}
	}
	return []string{status}
}

// rawRunList is a page of runs; both flavours send the total in the body.
type rawRunList struct {
	Runs  []*rawRun `json:"workflow_runs"`
	Total int64     `json:"total_count"`
}

// runsOf lists one page (a's page and limit) of the repository's runs that
// pass f and event, newest first, and whether more follow. A failure is
// the forge's, unlabelled.
func runsOf(ctx context.Context, c *forgejo.Client, a tool.Args, f runFilter, event string) ([]Run, bool, error) {
	p, err := route(a, "runs")
	if err != nil {
		return nil, false, err
	}
	onForgejo := false
	if fg, err := c.Forge(ctx); err == nil {
		onForgejo = fg.Flavour == forgejo.Forgejo
	}
	q := url.Values{}
	for k, v := range map[string]string{"event": event, "branch": f.branch, "head_sha": f.sha, "workflow_id": f.workflow} {
		if v != "" {
			q.Set(k, v) // branch: Gitea's; workflow_id: Forgejo's
		}
	}
	if f.branch != "" {
		q.Set("ref", "refs/heads/"+f.branch) // Forgejo's branch filter
	}
	switch {
	case f.status != "" && onForgejo:
		q["status"] = forgejoStatuses(f.status)
	case f.status != "":
		q.Set("status", f.status)
	}
	page, limit := a.Int("page"), a.Int("limit")
	var runs []*rawRun
	var more bool
	if onForgejo {
		runs, more, err = newestFirst(ctx, c, p, q, page, limit)
	} else {
		var list rawRunList
		err = c.DoJSON(ctx, http.MethodGet, p, withPage(q, page, limit), nil, &list)
		runs, more = list.Runs, (page-1)*limit+int64(len(list.Runs)) < list.Total
	}
	if err != nil {
		return nil, false, err
	}
	items := make([]Run, 0, len(runs))
	for _, r := range runs {
		if r != nil {
			if run := compactRun(r); f.keep(run) {
				items = append(items, run)
			}
		}
	}
	return items, more, nil
}

// withPage is q with page and limit set.
func withPage(q url.Values, page, limit int64) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = v
	}
	out.Set("page", strconv.FormatInt(page, 10))
	out.Set("limit", strconv.FormatInt(limit, 10))
	return out
}

// newestFirst reads page of limit runs, newest first, from a forge that
// may list them oldest first (Forgejo 13 does). A probe of the first two
// runs gives the total and the forge's order; when it is oldest first,
// the runs wanted are the total's last ones, read from the one or two
// forge pages of limit runs that hold them and reversed. A run added
// between the requests may shift the page by one.
func newestFirst(ctx context.Context, c *forgejo.Client, p string, q url.Values, page, limit int64) ([]*rawRun, bool, error) {
	var probe rawRunList
	if err := c.DoJSON(ctx, http.MethodGet, p, withPage(q, 1, 2), nil, &probe); err != nil {
		return nil, false, err
	}
	total := probe.Total
	ascending := len(probe.Runs) == 2 && probe.Runs[0] != nil && probe.Runs[1] != nil && probe.Runs[0].ID < probe.Runs[1].ID
	if !ascending {
		if total <= int64(len(probe.Runs)) { // the probe holds them all
			runs, _ := forgejo.Cut(probe.Runs, int(page), int(limit))
			return runs, page*limit < total, nil
		}
		var list rawRunList
		err := c.DoJSON(ctx, http.MethodGet, p, withPage(q, page, limit), nil, &list)
		return list.Runs, (page-1)*limit+int64(len(list.Runs)) < list.Total, err
	}
	hi := total - (page-1)*limit // the wanted runs are [lo, hi) oldest first
	if hi <= 0 {
		return nil, false, nil
	}
	lo := max(0, hi-limit)
	var window []*rawRun
	for fp := lo/limit + 1; fp <= (hi-1)/limit+1; fp++ {
		var list rawRunList
		if err := c.DoJSON(ctx, http.MethodGet, p, withPage(q, fp, limit), nil, &list); err != nil {
			return nil, false, err
		}
		for i, r := range list.Runs {
			if at := (fp-1)*limit + int64(i); at >= lo && at < hi {
				window = append(window, r)
			}
		}
	}
	slices.Reverse(window)
	return window, lo > 0, nil
}
