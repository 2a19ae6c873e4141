package pull

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// wipPrefixes are the title prefixes that make a pull request a draft:
// Gitea and Forgejo have no draft flag to set through the API, only
// [repository.pull-request] WORK_IN_PROGRESS_PREFIXES, "WIP:,[WIP]" by
// default, matched ignoring case.
var wipPrefixes = []string{"WIP:", "[WIP]"}

// editTools returns update_pull_request and list_pull_request_commits;
// Tools includes them.
func editTools() []tool.Def {
	return []tool.Def{
		{
			Name: "update_pull_request", Title: "Edit a pull request", Toolset: Toolset,
			Description: "Edit a PR; only given fields change",
			Params: []tool.Param{tool.Owner(), tool.Repo(), tool.PullIndex(),
				tool.Str("title", "New title"),
				tool.Str("body", "New description (Markdown)"),
				tool.Str("base", "New target branch"),
				tool.Str("state", "New state", tool.OneOf("open", "closed")),
				tool.Strs("assignees", "Assignee logins; replaces all"),
				tool.Strs("labels", "Label names or IDs; replaces all"),
				tool.Int("milestone", "Milestone ID", tool.AtLeast(1)),
				tool.Bool("draft", "Draft (WIP: title prefix)")},
			Annotations: tool.Destroy(true), Handler: updatePull, Output: Edited{},
		},
		{
			Name: "list_pull_request_commits", Title: "List pull request commits", Toolset: Toolset,
			Description: "List a PR's commits: sha, message's first line, author, date",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.PullIndex(), tool.Page(), tool.Limit()},
			Annotations: tool.Read(), Handler: listPullCommits, Output: tool.ListPage[Commit]{},
		},
	}
}

// Edited is what update_pull_request returns: the pull request with the
// fields it can change.
type Edited struct {
	Pull
	Draft     bool     `json:"draft"`
	Assignees []string `json:"assignees"`
	Milestone string   `json:"milestone,omitempty"`
}

// pullJSON decodes a pull request with the draft flag the SDK lacks.
func pullJSON(raw json.RawMessage) (*sdk.PullRequest, bool, error) {
	var p sdk.PullRequest
	var d struct {
		Draft bool `json:"draft"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, false, err
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, false, err
	}
	return &p, d.Draft, nil
}

func updatePull(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "pulls", tool.Seg(a, "index"))
	if err != nil {
		return nil, err
	}
	// A map, not sdk.EditPullRequestOption: only the fields the agent
	// gave may reach the forge.
	body := a.Given("title", "body", "base", "state", "assignees", "milestone")
	if a.Has("labels") {
		ids, err := issue.LabelIDs(ctx, c, a.String("owner"), a.String("repo"), a.Strings("labels"))
		if err != nil {
			return nil, err
		}
		body["labels"] = ids
	}
	if a.Has("draft") {
		title := a.String("title")
		if !a.Has("title") {
			var raw json.RawMessage
			if err := c.DoJSON(ctx, "GET", p, nil, nil, &raw); err != nil {
				return nil, notAPull(ctx, c, a, forgejo.Relabel(err, "get", ref(a)))
			}
			cur, _, err := pullJSON(raw)
			if err != nil {
				return nil, &forgejo.Error{Verb: "get", Subject: ref(a), Status: 200, Cause: err}
			}
			title = cur.Title
		}
		body["title"] = draftTitle(title, a.Bool("draft"))
	}
	var raw json.RawMessage
	if err := c.DoJSON(ctx, "PATCH", p, nil, body, &raw); err != nil {
		return nil, notAPull(ctx, c, a, forgejo.Relabel(err, "update", ref(a)))
	}
	pr, draft, err := pullJSON(raw)
	if err != nil {
		return nil, &forgejo.Error{Verb: "update", Subject: ref(a), Status: 200, Cause: err}
	}
	out := Edited{Pull: compact(pr, false), Draft: draft, Assignees: forgejo.Logins(pr.Assignees)}
	if pr.Milestone != nil {
		out.Milestone = pr.Milestone.Title
	}
	return tool.JSON(out)
}

// draftTitle is title with a WIP prefix when draft, without any when not.
func draftTitle(title string, draft bool) string {
	bare := strings.TrimSpace(title)
	for stripped := true; stripped; {
		stripped = false
		for _, w := range wipPrefixes {
			if len(bare) >= len(w) && strings.EqualFold(bare[:len(w)], w) {
				bare, stripped = strings.TrimSpace(bare[len(w):]), true
			}
		}
	}
	if draft {
		return wipPrefixes[0] + " " + bare
	}
	return bare
}

// Commit is one commit of a pull request, compact.
type Commit struct {
	SHA     string `json:"sha"`
	Message string `json:"message" trust:"text"` // its first line
	// Author is the login of the commit author's forge account;
	// AuthorName the commit's own name for them when the forge has none.
	Author     string     `json:"author,omitempty" trust:"author"`
	AuthorName string     `json:"author_name,omitempty"`
	Date       *time.Time `json:"date,omitempty"`
}

func listPullCommits(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "pulls", tool.Seg(a, "index"), "commits")
	if err != nil {
		return nil, err
	}
	// Raw, not the SDK: without verification=false and files=false the
	// forge checks every signature and lists every commit's files.
	q := tool.PageQuery(a)
	q.Set("verification", "false")
	q.Set("files", "false")
	var list []*sdk.Commit
	if err := c.DoJSON(ctx, "GET", p, q, nil, &list); err != nil {
		return nil, notAPull(ctx, c, a, forgejo.Relabel(err, "list commits of", ref(a)))
	}
	return tool.ListResult(a, nil, list, compactCommit)
}

func compactCommit(cm *sdk.Commit) Commit {
	out := Commit{Author: forgejo.Login(cm.Author)}
	if cm.CommitMeta != nil {
		out.SHA = cm.SHA
	}
	if rc := cm.RepoCommit; rc != nil {
		out.Message, _, _ = strings.Cut(rc.Message, "\n")
		if rc.Author != nil {
			if out.Author == "" {
				out.AuthorName = rc.Author.Name
			}
			if t, err := time.Parse(time.RFC3339, rc.Author.Date); err == nil {
				out.Date = &t
			}
		}
	}
	return out
}
