package issue

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// ReactionToolset holds the reaction tools, outside the default selection.
var ReactionToolset = tool.Toolset{ID: "reaction", Description: "Emoji reactions on issues, pull requests and their comments"}

// Reactions are on an issue (or pull request), or on one of its comments
// when comment_id is given: the forge routes them by comment ID alone, so
// index only says which issue the comment is under.
func reactionTools() []tool.Def {
	on := []tool.Param{tool.Owner(), tool.Repo(), tool.Index(),
		tool.Int("comment_id", "One of its comments instead (ID from list_issue_comments)", tool.AtLeast(1))}
	reaction := tool.Str("reaction", "Reaction, e.g. +1, -1, laugh, hooray, confused, heart, rocket, eyes", tool.Required(), tool.MaxLen(64))
	return []tool.Def{
		{
			Name: "list_issue_reactions", Title: "List reactions", Toolset: ReactionToolset,
			Description: "List the reactions on an issue, a PR or a comment",
			Params:      append(on, tool.Page(), tool.Limit()),
			Annotations: tool.Read(), Handler: listReactions, Output: tool.ListPage[Reaction]{},
		},
		{
			Name: "add_issue_reaction", Title: "Add a reaction", Toolset: ReactionToolset,
			Description: "React to an issue, a PR or a comment",
			Params:      append(on[:len(on):len(on)], reaction),
			Annotations: tool.Write(true), Handler: addReaction, Output: Reaction{},
		},
		{
			Name: "remove_issue_reaction", Title: "Remove a reaction", Toolset: ReactionToolset,
			Description: "Take back your reaction",
			Params:      append(on[:len(on):len(on)], reaction),
			Annotations: tool.Destroy(true), Handler: removeReaction, Output: tool.DeletedOutput("reaction", ""),
		},
	}
}

// Reaction is one user's reaction.
type Reaction struct {
	User     string    `json:"user"`
	Reaction string    `json:"reaction"`
	Created  time.Time `json:"created_at"`
	// Already is set when add_issue_reaction found the reaction there.
	Already bool `json:"already,omitempty"`
}

func compactReaction(r *sdk.Reaction) Reaction {
	return Reaction{User: forgejo.Login(r.User), Reaction: r.Reaction, Created: r.Created}
}

// reactionRoute is the reactions route of the comment or the issue, and
// how messages name it.
func reactionRoute(a tool.Args) (route, subject string, err error) {
	if a.Has("comment_id") {
		route, err = tool.RepoRoute(a, "issues", "comments", tool.Seg(a, "comment_id"), "reactions")
		return route, tool.CommentRef(a), err
	}
	route, err = tool.RepoRoute(a, "issues", tool.Seg(a, "index"), "reactions")
	return route, tool.IssueRef(a), err
}

func listReactions(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, subject, err := reactionRoute(a)
	if err != nil {
		return nil, err
	}
	// Raw: the SDK's lists send no page. A comment's reactions are not
	// paged by the forge: one page holds them all.
	var list []*sdk.Reaction
	q := tool.PageQuery(a)
	if a.Has("comment_id") {
		q = nil
	}
	if err := c.DoJSON(ctx, http.MethodGet, p, q, nil, &list); err != nil {
		return nil, forgejo.Relabel(err, "list reactions on", subject)
	}
	if a.Has("comment_id") {
		return tool.Items(tool.Map(list, compactReaction), 1, false)
	}
	return tool.ListResult(a, nil, list, compactReaction)
}

func addReaction(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	owner, repo, reaction := a.String("owner"), a.String("repo"), a.String("reaction")
	var (
		r    *sdk.Reaction
		resp *sdk.Response
		err  error
	)
	if a.Has("comment_id") {
		r, resp, err = c.SDK(ctx).PostIssueCommentReaction(owner, repo, a.Int("comment_id"), reaction)
	} else {
		r, resp, err = c.SDK(ctx).PostIssueReaction(owner, repo, a.Int("index"), reaction)
	}
	_, subject, _ := reactionRoute(a)
	if err := forgejo.Fail(resp, err, fmt.Sprintf("react %q to", reaction), subject); err != nil {
		return nil, allowedHint(err)
	}
	out := compactReaction(r)
	// 201 adds the reaction; 200 answers the one already there.
	out.Already = resp != nil && resp.StatusCode == http.StatusOK
	return tool.JSON(out)
}

func removeReaction(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	owner, repo, reaction := a.String("owner"), a.String("repo"), a.String("reaction")
	var (
		resp *sdk.Response
		err  error
	)
	if a.Has("comment_id") {
		resp, err = c.SDK(ctx).DeleteIssueCommentReaction(owner, repo, a.Int("comment_id"), reaction)
	} else {
		resp, err = c.SDK(ctx).DeleteIssueReaction(owner, repo, a.Int("index"), reaction)
	}
	_, subject, _ := reactionRoute(a)
	if err := forgejo.Fail(resp, err, fmt.Sprintf("remove reaction %q from", reaction), subject); err != nil {
		return nil, allowedHint(err)
	}
	return tool.Deleted("reaction", reaction)
}

// allowedHint explains the forge's 403 for a reaction it does not allow
// (the site's [ui] REACTIONS list): "'x' is not an allowed reaction".
func allowedHint(err error) error {
	var fe *forgejo.Error
	if errors.As(err, &fe) && fe.Status == http.StatusForbidden && strings.Contains(fe.Message, "not an allowed reaction") {
		return fmt.Errorf("%s %s: %s (403); the forge takes only the reactions its site allows, by default +1, -1, laugh, hooray, confused, heart, rocket, eyes",
			fe.Verb, fe.Subject, fe.Message)
	}
	return err
}
