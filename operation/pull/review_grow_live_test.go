package pull_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
)

// TestLiveReviewGrows: a pending review grown by a second call and
// submitted; a reply in its thread, by the author; a reply that joins the
// reviewer's next draft; a line comment deleted; a dismissed review
// restored. On Gitea, the live forge, every growth goes through the
// pending-review fold (forgejo.Routes).
func TestLiveReviewGrows(t *testing.T) {
	f := testforge.Get(t)
	require.NotEmpty(t, f.Token2, "the review tests need %s (scripts/test-forge sets it)", testforge.EnvToken2)
	owner, name, index, call := openReviewedPull(t, f)
	defs := pull.Tools()
	reviewer := f.WithToken(f.Token2).RepoCaller(t, defs, owner, name)
	decodeReview := func(text string) liveReview {
		var r liveReview
		require.NoError(t, json.Unmarshal([]byte(text), &r), text)
		return r
	}
	comments := func(id int64) []pull.ReviewComment {
		var out struct {
			Items []pull.ReviewComment `json:"items"`
		}
		require.NoError(t, json.Unmarshal([]byte(call("list_pull_review_comments", map[string]any{"index": index, "review_id": id})), &out))
		return out.Items
	}

	// Round one: a draft with one comment, grown by a second call.
	draft := decodeReview(reviewer("create_pull_review", map[string]any{"index": index, "event": "PENDING", "body": "Round one.",
		"comments": []any{map[string]any{"path": "hello.go", "new_line": 3, "body": "A constant?"}}}))
	grown := decodeReview(reviewer("add_pull_review_comments", map[string]any{"index": index, "review_id": draft.ID, "comments": []any{
		map[string]any{"path": "hello.go", "new_line": 1, "body": "Package doc?"},
		map[string]any{"path": "docs/hello.md", "new_line": 1, "body": "Say more."},
	}}))
	assert.Equal(t, draft.ID, grown.ID, "the same review")
	assert.Equal(t, "PENDING", grown.State)
	assert.Equal(t, "Round one.", grown.Body, "its text kept")
	assert.Equal(t, draft.CommitID, grown.CommitID, "its commit kept")
	assert.Equal(t, 3, grown.Comments)

	// Only the author's own draft grows (Gitea, where the tool folds comments into the caller's
	// pending review). Forgejo's own route lets the site admin add to another's draft.
	res := f.Call(t, defs, "add_pull_review_comments", map[string]any{"owner": owner, "repo": name, "index": index, "review_id": draft.ID,
		"comments": []any{map[string]any{"path": "hello.go", "new_line": 1, "body": "mine"}}})
	if f.Identify(t).ForgejoUpTo(10) {
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.Len(t, comments(draft.ID), 4, "the admin's comment is in the draft")
		return // what follows checks Gitea's way: replies folded into the caller's pending review
	}
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "is "+f.User2+"'s pending review: only its author can add to it")

	sent := decodeReview(reviewer("submit_pull_review", map[string]any{"index": index, "review_id": draft.ID, "event": "COMMENT", "body": "Three notes."}))
	assert.Equal(t, "COMMENT", sent.State)
	res = f.WithToken(f.Token2).Call(t, defs, "add_pull_review_comments", map[string]any{"owner": owner, "repo": name, "index": index,
		"review_id": draft.ID, "comments": []any{map[string]any{"path": "hello.go", "new_line": 1, "body": "late"}}})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "is COMMENT, not PENDING")

	// The author replies in the thread of "A constant?".
	var target pull.ReviewComment
	for _, c := range comments(draft.ID) {
		if c.Body == "A constant?" {
			target = c
		}
	}
	require.NotZero(t, target.ID)
	var reply pull.Reply
	require.NoError(t, json.Unmarshal([]byte(call("reply_to_pull_review_comment", map[string]any{"index": index, "review_id": draft.ID,
		"comment_id": target.ID, "body": "Done in the next push."})), &reply))
	assert.Equal(t, pull.Reply{ReviewID: reply.ReviewID, Path: "hello.go", NewLine: 3}, reply)
	replyReview := reply.ReviewID
	replies := comments(replyReview)
	require.Len(t, replies, 1)
	assert.Equal(t, "Done in the next push.", replies[0].Body)
	assert.Equal(t, f.User, replies[0].Author)
	assert.Equal(t, target.Path, replies[0].Path, "same path and line: the forge shows it in the thread")
	assert.Equal(t, target.NewLine, replies[0].NewLine)

	// A reply by someone with a draft joins the draft.
	next := decodeReview(reviewer("create_pull_review", map[string]any{"index": index, "event": "PENDING", "body": "Round two."}))
	require.NoError(t, json.Unmarshal([]byte(reviewer("reply_to_pull_review_comment", map[string]any{"index": index, "review_id": reply.ReviewID,
		"comment_id": replies[0].ID, "body": "Thanks."})), &reply))
	assert.True(t, reply.Pending)
	assert.Equal(t, next.ID, reply.ReviewID)
	assert.Equal(t, "Round two.", decodeReview(reviewer("get_pull_review", map[string]any{"index": index, "review_id": next.ID})).Body)

	// The author deletes their reply.
	text := call("delete_pull_review_comment", map[string]any{"index": index, "review_id": replyReview, "comment_id": replies[0].ID})
	assert.JSONEq(t, fmt.Sprintf(`{"comment_id":%d,"deleted":true}`, replies[0].ID), text)
	assert.Empty(t, comments(replyReview))
	res = f.Call(t, defs, "delete_pull_review_comment", map[string]any{"owner": owner, "repo": name, "index": index, "review_id": draft.ID,
		"comment_id": replies[0].ID})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "is not a line comment of review")

	// A change request dismissed, then restored.
	changes := decodeReview(reviewer("create_pull_review", map[string]any{"index": index, "event": "REQUEST_CHANGES", "body": "Not yet."}))
	assert.True(t, decodeReview(call("dismiss_pull_review", map[string]any{"index": index, "review_id": changes.ID, "message": "Outdated."})).Dismissed)
	restored := decodeReview(call("undismiss_pull_review", map[string]any{"index": index, "review_id": changes.ID}))
	assert.False(t, restored.Dismissed)
	assert.Equal(t, "REQUEST_CHANGES", restored.State)
}
