package pull

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Opened is what create_pull_request returns: the pull request, and,
// when a step after opening it did not take, which one and why. The pull
// request exists either way: an agent must not open it again.
// Only the fields that say what was opened and where: a PR just opened
// is open, by the token's user, and has no merge, comments or updates.
type Opened struct {
	Number     int64    `json:"number"`
	Title      string   `json:"title" trust:"text"`
	Head       string   `json:"head"`
	Base       string   `json:"base"`
	HeadSHA    string   `json:"head_sha,omitempty"`
	Labels     []string `json:"labels"`
	HTMLURL    string   `json:"html_url"`
	Incomplete string   `json:"incomplete,omitempty"`
}

// createPull opens a pull request with its labels, assignees and
// milestone in the one request the forge takes them in (label names are
// resolved first, so a wrong one opens nothing), then requests the
// reviews, the one step that needs a second call. What the forge
// silently dropped (assignees or labels the token may not set) or a
// review request it refused is named in Incomplete, beside the opened
// pull request, never as an error that would hide it.
func createPull(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	owner, repo := a.String("owner"), a.String("repo")
	subject := fmt.Sprintf("a pull request from %s into %s in %s", a.String("head"), a.String("base"), tool.FullName(a))
	title := a.String("title")
	if a.Has("draft") {
		title = draftTitle(title, a.Bool("draft"))
	}
	body := map[string]any{"head": a.String("head"), "base": a.String("base"), "title": title, "body": a.String("body")}
	if a.Has("assignees") {
		body["assignees"] = a.Strings("assignees")
	}
	if a.Has("milestone") {
		body["milestone"] = a.Int("milestone")
	}
	if labels := a.Strings("labels"); len(labels) > 0 {
		ids, err := issue.LabelIDs(ctx, c, owner, repo, labels)
		if err != nil {
			return nil, fmt.Errorf("open %s: nothing opened: %w", subject, err)
		}
		body["labels"] = ids
	}
	p, err := tool.RepoRoute(a, "pulls")
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := c.DoJSON(ctx, "POST", p, nil, body, &raw); err != nil {
		err = forgejo.Relabel(err, "open", subject)
		if forgejo.IsNotFound(err) { // "a pull request … not found" would mislead
			return nil, fmt.Errorf("open %s: the repository or one of the branches does not exist (404), or this token cannot see it", subject)
		}
		return nil, alreadyOpen(ctx, c, a, subject, err)
	}
	pr, _, err := pullJSON(raw)
	if err != nil {
		return nil, &forgejo.Error{Verb: "open", Subject: subject, Status: 201, Cause: err}
	}
	full := compact(pr, false)
	out := Opened{Number: full.Number, Title: full.Title, Head: full.Head,
		Base: full.Base, HeadSHA: full.HeadSHA, Labels: full.Labels, HTMLURL: full.HTMLURL}
	var missed []string
	if want := a.Strings("assignees"); len(want) > 0 {
		if lost := absent(want, forgejo.Logins(pr.Assignees)); len(lost) > 0 {
			missed = append(missed, "assignees "+strings.Join(lost, ", ")+" not set (not collaborators, or the token may not assign): retry with update_pull_request")
		}
	}
	if a.Has("labels") && len(out.Labels) < len(body["labels"].([]int64)) {
		missed = append(missed, "some labels not set (the token may not label): retry with update_pull_request")
	}
	if a.Has("milestone") && pr.Milestone == nil {
		missed = append(missed, "milestone not set: retry with update_pull_request")
	}
	if reviewers := a.Strings("reviewers"); len(reviewers) > 0 {
		rp, err := tool.RepoRoute(a, "pulls", fmt.Sprint(pr.Index), "requested_reviewers")
		if err == nil {
			err = c.DoJSON(ctx, "POST", rp, nil, map[string]any{"reviewers": reviewers, "team_reviewers": []string{}}, nil)
		}
		if err != nil {
			missed = append(missed, fmt.Sprintf("review requests failed (%v): retry with create_review_requests", forgejo.Relabel(err, "request reviews of", fmt.Sprintf("pull request %s#%d", tool.FullName(a), pr.Index))))
		}
	}
	if len(missed) > 0 {
		out.Incomplete = fmt.Sprintf("PR #%d is open; ", pr.Index) + strings.Join(missed, "; ")
	}
	return tool.JSON(out)
}

// absent is the members of want that got lacks, ignoring case (logins).
func absent(want, got []string) []string {
	var out []string
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.EqualFold(g, w) }) {
			out = append(out, w)
		}
	}
	return out
}
