package pull

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// A review that grows: line comments added to a pending review, a reply in
// a thread, a line comment deleted. Forgejo has a route that adds one line
// comment to a known review and one that deletes one; Gitea has neither, but its
// review route folds a PENDING review into the caller's pending one, which
// is how these tools grow a review there, and its issue comment route
// deletes a line comment (forgejo.Routes says so).

// growTools returns the tools that grow or trim a review; Tools includes them.
func growTools() []tool.Def {
	return []tool.Def{
		{
			Name: "add_pull_review_comments", Title: "Add line comments to a review", Toolset: ReviewToolset,
			Description: "Add line comments to your PENDING review; submit_pull_review sends it",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.PullIndex(), reviewID(), lineComments(tool.Required())},
			Annotations: tool.Write(false), Handler: addReviewComments, Output: Review{},
		},
		{
			Name: "reply_to_pull_review_comment", Title: "Reply to a line comment", Toolset: ReviewToolset,
			Description: "Reply in a line comment's thread: a comment on the same path and line, joining your PENDING review if you have one",
			Params: []tool.Param{tool.Owner(), tool.Repo(), tool.PullIndex(), tool.ID("review_id", "Review of the comment"),
				tool.CommentID(), tool.Str("body", "Reply (Markdown)", tool.Required())},
			Annotations: tool.Write(false), Handler: replyToReviewComment, Output: Reply{},
		},
		{
			Name: "delete_pull_review_comment", Title: "Delete a line comment", Toolset: ReviewToolset,
			Description: "Delete a review's line comment",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.PullIndex(), reviewID(), tool.CommentID()},
			Annotations: tool.Destroy(true), Handler: deleteReviewComment, Output: tool.DeletedOutput("comment_id", int64(0)),
		},
		{
			Name: "undismiss_pull_review", Title: "Undismiss a pull request review", Toolset: ReviewToolset,
			Description: "Restore a dismissed review's verdict",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), tool.PullIndex(), reviewID()},
			Annotations: tool.Write(true), Handler: undismissReview, Output: Review{},
		},
		reviewersTool(),
	}
}

// Reply is where reply_to_pull_review_comment put the reply.
type Reply struct {
	ReviewID int64  `json:"review_id"`
	Path     string `json:"path"`
	NewLine  uint64 `json:"new_line,omitempty"`
	OldLine  uint64 `json:"old_line,omitempty"`
	// CommentID is the reply's ID where the forge answers it (Forgejo).
	CommentID int64 `json:"comment_id,omitempty"`
	// Pending: the reply is in the caller's pending review, sent with it.
	Pending bool   `json:"pending,omitempty"`
	Note    string `json:"note,omitempty"`
}

// lineComment is one line comment as the forge's routes take it.
func lineComment(path string, newLine, oldLine int64, body string) sdk.CreatePullReviewComment {
	return sdk.CreatePullReviewComment{Path: path, Body: body, NewLineNum: newLine, OldLineNum: oldLine}
}

func isForgejo(ctx context.Context, c *forgejo.Client) bool {
	f, err := c.Forge(ctx)
	return err == nil && f.Flavour == forgejo.Forgejo
}

func addReviewComments(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	comments := make([]sdk.CreatePullReviewComment, 0, len(a.Objects("comments")))
	for _, cm := range a.Objects("comments") {
		comments = append(comments, lineComment(cm.String("path"), cm.Int("new_line"), cm.Int("old_line"), cm.String("body")))
	}
	if isForgejo(ctx, c) {
		for i, cm := range comments {
			if _, err := postReviewComment(ctx, c, a, a.Int("review_id"), cm); err != nil {
				if i > 0 {
					err = fmt.Errorf("%w; comments[0] to comments[%d] were added, the rest not sent", err, i-1)
				}
				return nil, err
			}
		}
		return getReview(ctx, c, a)
	}
	r, err := ownPending(ctx, c, a, a.Int("review_id"))
	if err != nil {
		return nil, err
	}
	grown, err := foldPending(ctx, c, a, r, comments)
	if err != nil {
		return nil, err
	}
	return tool.JSON(compactReview(grown))
}

// postReviewComment adds one line comment to review id (Forgejo's route).
func postReviewComment(ctx context.Context, c *forgejo.Client, a tool.Args, id int64, cm sdk.CreatePullReviewComment) (*sdk.PullReviewComment, error) {
	p, err := tool.RepoRoute(a, "pulls", tool.Seg(a, "index"), "reviews", fmt.Sprint(id), "comments")
	if err != nil {
		return nil, err
	}
	var out sdk.PullReviewComment
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, cm, &out); err != nil {
		return nil, badComments(forgejo.Relabel(err, "add a line comment on "+cm.Path+" to", fmt.Sprintf("review %d of %s", id, ref(a))), 1)
	}
	return &out, nil
}

// ownPending reads review id and checks that it is the caller's PENDING
// review: on Gitea only that one can grow.
func ownPending(ctx context.Context, c *forgejo.Client, a tool.Args, id int64) (*sdk.PullReview, error) {
	owner, repo, index := a.String("owner"), a.String("repo"), a.Int("index")
	subject := fmt.Sprintf("review %d of %s", id, ref(a))
	r, resp, err := c.SDK(ctx).GetPullReview(owner, repo, index, id)
	if err := forgejo.Fail(resp, err, "get", subject); err != nil {
		return nil, notAPull(ctx, c, a, err)
	}
	if r.State != sdk.ReviewStatePending {
		return nil, fmt.Errorf("%s is %s, not PENDING: on this forge (Gitea) only your pending review can grow; "+
			"start one with create_pull_review event=PENDING", subject, r.State)
	}
	me, resp, err := c.SDK(ctx).GetMyUserInfo()
	if err := forgejo.Fail(resp, err, "get", "the token's user"); err != nil {
		return nil, err
	}
	if forgejo.Login(r.Reviewer) != me.UserName {
		return nil, fmt.Errorf("%s is %s's pending review: only its author can add to it", subject, forgejo.Login(r.Reviewer))
	}
	if r.Body == "" {
		return nil, fmt.Errorf("%s has no text, and Gitea needs one to add to a pending review: submit it with submit_pull_review, then start another", subject)
	}
	return r, nil
}

// foldPending posts comments as a PENDING review, which Gitea folds into
// the caller's pending review r; r's text and commit are sent back as they
// are, as the forge overwrites both with what it is sent.
func foldPending(ctx context.Context, c *forgejo.Client, a tool.Args, r *sdk.PullReview, comments []sdk.CreatePullReviewComment) (*sdk.PullReview, error) {
	got, resp, err := c.SDK(ctx).CreatePullReview(a.String("owner"), a.String("repo"), a.Int("index"), sdk.CreatePullReviewOptions{
		State: sdk.ReviewStatePending, Body: r.Body, CommitID: r.CommitID, Comments: comments})
	subject := fmt.Sprintf("review %d of %s", r.ID, ref(a))
	if err := forgejo.Fail(resp, err, "add line comments to", subject); err != nil {
		return nil, badComments(err, len(comments))
	}
	if got.ID != r.ID {
		return nil, fmt.Errorf("the forge put the comments in review %d, not %d: list_pull_reviews shows both", got.ID, r.ID)
	}
	return got, nil
}

func replyToReviewComment(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	owner, repo, index, id := a.String("owner"), a.String("repo"), a.Int("index"), a.Int("review_id")
	list, resp, err := c.SDK(ctx).ListPullReviewComments(owner, repo, index, id)
	if err := forgejo.Fail(resp, err, "list the comments of", reviewRef(a)); err != nil {
		return nil, notAPull(ctx, c, a, err)
	}
	var orig *sdk.PullReviewComment
	for _, cm := range list {
		if cm.ID == a.Int("comment_id") {
			orig = cm
		}
	}
	if orig == nil {
		return nil, notInReview(a, len(list))
	}
	cm := lineComment(orig.Path, int64(orig.LineNum), int64(orig.OldLineNum), a.String("body"))
	out := Reply{ReviewID: id, Path: orig.Path, NewLine: orig.LineNum, OldLine: orig.OldLineNum}
	if isForgejo(ctx, c) {
		// The web UI's reply: a comment on the same line in the same review.
		posted, err := postReviewComment(ctx, c, a, id, cm)
		if err != nil {
			return nil, err
		}
		out.CommentID = posted.ID
		return tool.JSON(out)
	}
	pending, err := myPending(ctx, c, a)
	if err != nil {
		return nil, err
	}
	if pending != nil {
		r, err := foldPending(ctx, c, a, pending, []sdk.CreatePullReviewComment{cm})
		if err != nil {
			return nil, err
		}
		out.ReviewID, out.Pending, out.Note = r.ID, true, "in your pending review: submit_pull_review sends it"
		return tool.JSON(out)
	}
	// No draft to fold into: a review of this one comment, which the forge
	// shows in the thread of its path and line.
	r, resp, err := c.SDK(ctx).CreatePullReview(owner, repo, index, sdk.CreatePullReviewOptions{
		State: sdk.ReviewStateComment, CommitID: orig.CommitID, Comments: []sdk.CreatePullReviewComment{cm}})
	if err := forgejo.Fail(resp, err, "reply to comment", fmt.Sprintf("%d of %s", a.Int("comment_id"), ref(a))); err != nil {
		return nil, badComments(err, 1)
	}
	out.ReviewID = r.ID
	return tool.JSON(out)
}

// myPending finds the caller's pending review of the pull request, nil
// when there is none. Another user's pending reviews are listed only to
// site admins, so whose a pending review is is checked by login.
func myPending(ctx context.Context, c *forgejo.Client, a tool.Args) (*sdk.PullReview, error) {
	owner, repo, index := a.String("owner"), a.String("repo"), a.Int("index")
	var pending []*sdk.PullReview
	for page := 1; page <= maxReviewPages; page++ {
		list, resp, err := c.SDK(ctx).ListPullReviews(owner, repo, index, sdk.ListPullReviewsOptions{
			ListOptions: sdk.ListOptions{Page: page, PageSize: 50}})
		if err := forgejo.Fail(resp, err, "list reviews of", ref(a)); err != nil {
			return nil, notAPull(ctx, c, a, err)
		}
		for _, r := range list {
			if r.State == sdk.ReviewStatePending {
				pending = append(pending, r)
			}
		}
		if !forgejo.HasMore(resp, page, len(list), 50) {
			break
		}
	}
	if len(pending) == 0 {
		return nil, nil
	}
	me, resp, err := c.SDK(ctx).GetMyUserInfo()
	if err := forgejo.Fail(resp, err, "get", "the token's user"); err != nil {
		return nil, err
	}
	for _, r := range pending {
		if forgejo.Login(r.Reviewer) == me.UserName {
			if r.Body == "" {
				return nil, fmt.Errorf("your pending review %d of %s has no text, and Gitea needs one to add to it: submit it with submit_pull_review first", r.ID, ref(a))
			}
			return r, nil
		}
	}
	return nil, nil
}

// maxReviewPages bounds the pages of reviews myPending reads (50 each).
const maxReviewPages = 10

func deleteReviewComment(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	subject := fmt.Sprintf("comment %d of %s", a.Int("comment_id"), reviewRef(a))
	if isForgejo(ctx, c) {
		p, err := tool.RepoRoute(a, "pulls", tool.Seg(a, "index"), "reviews", tool.Seg(a, "review_id"), "comments", tool.Seg(a, "comment_id"))
		if err != nil {
			return nil, err
		}
		if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
			return nil, forgejo.Relabel(err, "delete", subject)
		}
		return tool.Deleted("comment_id", a.Int("comment_id"))
	}
	// Gitea deletes a line comment through the issue comment route, which
	// takes any comment of the repository: the comment is checked to be the
	// review's first, and checked gone after (an older Gitea answered 204
	// and kept it).
	owner, repo, index, id := a.String("owner"), a.String("repo"), a.Int("index"), a.Int("review_id")
	list, resp, err := c.SDK(ctx).ListPullReviewComments(owner, repo, index, id)
	if err := forgejo.Fail(resp, err, "list the comments of", reviewRef(a)); err != nil {
		return nil, notAPull(ctx, c, a, err)
	}
	if !slices.ContainsFunc(list, func(cm *sdk.PullReviewComment) bool { return cm.ID == a.Int("comment_id") }) {
		return nil, notInReview(a, len(list))
	}
	p, err := tool.RepoRoute(a, "issues", "comments", tool.Seg(a, "comment_id"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", subject)
	}
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, nil); !forgejo.IsNotFound(err) {
		return nil, fmt.Errorf("delete %s: the forge answered success but kept the comment; this forge's API cannot delete a line comment", subject)
	}
	return tool.Deleted("comment_id", a.Int("comment_id"))
}

func undismissReview(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := tool.RepoRoute(a, "pulls", tool.Seg(a, "index"), "reviews", tool.Seg(a, "review_id"), "undismissals")
	if err != nil {
		return nil, err
	}
	// Raw: the SDK's UnDismissPullReview drops the review the forge returns.
	var r sdk.PullReview
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, nil, &r); err != nil {
		return nil, forgejo.Relabel(err, "undismiss", reviewRef(a))
	}
	return tool.JSON(compactReview(&r))
}

func notInReview(a tool.Args, n int) error {
	return fmt.Errorf("comment %d is not a line comment of %s (it has %d): list_pull_review_comments shows them", a.Int("comment_id"), reviewRef(a), n)
}
