package pull_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

type liveReview struct {
	ID        int64  `json:"id"`
	Reviewer  string `json:"reviewer"`
	State     string `json:"state"`
	Body      string `json:"body"`
	Comments  int    `json:"comments"`
	Dismissed bool   `json:"dismissed"`
	CommitID  string `json:"commit_id"`
}

// openReviewedPull makes the pull request a review round trip works on: a
// branch made by one change_files commit, and a pull request from it. The
// second test user may write to the repository: a pull request's author
// cannot approve it or ask for changes, so reviews come from that user.
func openReviewedPull(t *testing.T, f *testforge.Forge) (owner, name string, index float64, call func(string, map[string]any) string) {
	owner, name = f.NewRepo(t)
	var raw []byte
	status := f.Do(t, http.MethodPut, fmt.Sprintf("/repos/%s/%s/collaborators/%s", owner, name, f.User2), map[string]any{"permission": "write"}, &raw)
	require.Equal(t, http.StatusNoContent, status, "adding a collaborator: %s", raw)
	defs := append(repo.Tools(), pull.Tools()...)
	call = f.RepoCaller(t, defs, owner, name)
	call("change_files", map[string]any{"new_branch": "feature", "message": "Add a greeter\n\nTwo files at once.", "files": []any{
		map[string]any{"operation": "create", "path": "hello.go", "content": "package hello\n\nfunc Hello() string { return \"hi\" }\n"},
		map[string]any{"operation": "create", "path": "docs/hello.md", "content": "# Hello\n"},
	}})
	var pr struct {
		Number int64 `json:"number"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("create_pull_request", map[string]any{"head": "feature", "base": "main", "title": "Add a greeter"})), &pr))
	return owner, name, float64(pr.Number), call
}

// TestLiveReviewRoundTrip: branch + change + pull request, a review with a
// line comment, its comments listed, a pending review submitted, a review
// dismissed, another deleted, and review requests made and withdrawn.
func TestLiveReviewRoundTrip(t *testing.T) {
	f := testforge.Get(t)
	require.NotEmpty(t, f.Token2, "the review round trip needs %s (scripts/test-forge sets it)", testforge.EnvToken2)
	owner, name, index, call := openReviewedPull(t, f)
	defs := pull.Tools()
	reviewer := f.WithToken(f.Token2).RepoCaller(t, defs, owner, name)

	text := call("list_pull_request_commits", map[string]any{"index": index})
	var commits struct {
		Items []pull.Commit `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &commits))
	require.Len(t, commits.Items, 1)
	assert.Equal(t, "Add a greeter", commits.Items[0].Message, "first line only")
	assert.Equal(t, f.User, commits.Items[0].Author)
	assert.Len(t, commits.Items[0].SHA, 40)
	assert.NotNil(t, commits.Items[0].Date)

	// The author may not ask for changes on their own pull request.
	res := f.Call(t, defs, "create_pull_review", map[string]any{"owner": owner, "repo": name, "index": index, "event": "REQUEST_CHANGES", "body": "no"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "reject your own pull is not allowed")

	var changes liveReview
	require.NoError(t, json.Unmarshal([]byte(reviewer("create_pull_review", map[string]any{"index": index, "event": "REQUEST_CHANGES",
		"body": "Please export a constant.", "comments": []any{
			map[string]any{"path": "hello.go", "new_line": 3, "body": "Return a constant here."},
		}})), &changes))
	assert.Equal(t, "REQUEST_CHANGES", changes.State)
	assert.Equal(t, f.User2, changes.Reviewer)
	assert.Equal(t, 1, changes.Comments)
	assert.Len(t, changes.CommitID, 40, "the head commit by default")

	text = call("list_pull_reviews", map[string]any{"index": index})
	assert.Contains(t, text, fmt.Sprintf(`"id":%d,"reviewer":"%s","state":"REQUEST_CHANGES","body":"Please export a constant."`, changes.ID, f.User2))

	text = call("list_pull_review_comments", map[string]any{"index": index, "review_id": changes.ID})
	var comments struct {
		Items []pull.ReviewComment `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &comments))
	require.Len(t, comments.Items, 1)
	c := comments.Items[0]
	assert.Equal(t, "hello.go", c.Path)
	assert.Equal(t, uint64(3), c.NewLine)
	assert.Zero(t, c.OldLine)
	assert.Equal(t, "Return a constant here.", c.Body)
	assert.Equal(t, f.User2, c.Author)
	assert.False(t, c.Resolved)
	assert.Contains(t, c.DiffHunk, `+func Hello() string { return "hi" }`)

	// A pending review, then submitted as an approval.
	var pending liveReview
	require.NoError(t, json.Unmarshal([]byte(reviewer("create_pull_review", map[string]any{"index": index, "event": "PENDING",
		"body": "Looking again."})), &pending))
	assert.Equal(t, "PENDING", pending.State)
	var approved liveReview
	require.NoError(t, json.Unmarshal([]byte(reviewer("submit_pull_review", map[string]any{"index": index, "review_id": pending.ID,
		"event": "APPROVE", "body": "Fine after all."})), &approved))
	assert.Equal(t, pending.ID, approved.ID)
	assert.Equal(t, "APPROVED", approved.State)
	res = f.WithToken(f.Token2).Call(t, operation.All(), "submit_pull_review", map[string]any{"owner": owner, "repo": name, "index": index, "id": pending.ID, "state": "COMMENT", "body": "again"})
	require.True(t, res.IsError, "a submitted review cannot be submitted again; the established server's spellings id and state are read")
	assert.Contains(t, fakeforge.Text(t, res), "only a pending review can be submitted")

	// The repository admin dismisses the change request.
	var dismissed liveReview
	require.NoError(t, json.Unmarshal([]byte(call("dismiss_pull_review", map[string]any{"index": index, "review_id": changes.ID,
		"message": "Addressed in review 2."})), &dismissed))
	assert.True(t, dismissed.Dismissed)
	text = call("get_pull_review", map[string]any{"index": index, "review_id": changes.ID})
	assert.Contains(t, text, `"dismissed":true`)

	text = call("delete_pull_review", map[string]any{"index": index, "review_id": approved.ID})
	assert.JSONEq(t, fmt.Sprintf(`{"deleted":true,"review_id":%d}`, approved.ID), text)
	res = f.Call(t, defs, "get_pull_review", map[string]any{"owner": owner, "repo": name, "index": index, "review_id": approved.ID})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("review %d of pull request %s/%s#%d", approved.ID, owner, name, int64(index)))
	assert.NotContains(t, call("list_pull_reviews", map[string]any{"index": index}), fmt.Sprintf(`"id":%d,`, approved.ID))

	text = call("create_review_requests", map[string]any{"index": index, "reviewers": []any{f.User2}})
	assert.Contains(t, text, fmt.Sprintf(`"reviewer":"%s","state":"REQUEST_REVIEW"`, f.User2))
	text = call("delete_review_requests", map[string]any{"index": index, "reviewers": []any{f.User2}})
	assert.Contains(t, text, `"withdrawn":true`)
	assert.NotContains(t, call("list_pull_reviews", map[string]any{"index": index}), "REQUEST_REVIEW")

	// A line comment naming both sides is refused before the forge.
	res = f.Call(t, defs, "create_pull_review", map[string]any{"owner": owner, "repo": name, "index": index, "comments": []any{
		map[string]any{"path": "hello.go", "new_line": 1, "body": "ok"},
		map[string]any{"path": "hello.go", "new_line": 1, "old_line": 1, "body": "both"},
	}})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "comments[1]: give exactly one of new_line")

	// A line past the end of the file: the forge fails and leaves an empty
	// pending review, as the error says; delete_pull_review removes it.
	res = f.WithToken(f.Token2).Call(t, defs, "create_pull_review", map[string]any{"owner": owner, "repo": name, "index": index,
		"body": "late", "comments": []any{map[string]any{"path": "hello.go", "new_line": 99, "body": "past the end"}}})
	if f.Identify(t).ForgejoUpTo(10) {
		// Forgejo 10 takes a comment on a line the file does not have: the review is made.
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.Contains(t, fakeforge.Text(t, res), `"body":"late"`)
		return
	}
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "the forge failed on the line comments (500)")
	var reviews struct {
		Items []liveReview `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(reviewer("list_pull_reviews", map[string]any{"index": index})), &reviews))
	var left []liveReview
	for _, r := range reviews.Items {
		if r.State == "PENDING" && r.Reviewer == f.User2 {
			left = append(left, r)
		}
	}
	require.Len(t, left, 1, "the forge left one pending review: %+v", reviews.Items)
	reviewer("delete_pull_review", map[string]any{"index": index, "review_id": left[0].ID})
}

// TestLiveUpdatePullRequest sets every field update_pull_request has and
// reads them back.
func TestLiveUpdatePullRequest(t *testing.T) {
	f := testforge.Get(t)
	owner, name, index, call := openReviewedPull(t, f)
	var label, milestone struct {
		ID int64 `json:"id"`
	}
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, fmt.Sprintf("/repos/%s/%s/labels", owner, name), map[string]any{"name": "needs-review", "color": "#00aabb"}, &label))
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, fmt.Sprintf("/repos/%s/%s/milestones", owner, name), map[string]any{"title": "v1"}, &milestone))
	call("create_branch", map[string]any{"branch": "next"})

	var got pull.Edited
	require.NoError(t, json.Unmarshal([]byte(call("update_pull_request", map[string]any{"index": index,
		"title": "Add a friendly greeter", "body": "Now with docs.", "base": "next", "assignees": []any{f.User},
		"labels": []any{"Needs-Review"}, "milestone": milestone.ID, "draft": true})), &got))
	assert.Equal(t, "WIP: Add a friendly greeter", got.Title)
	assert.True(t, got.Draft)
	assert.Equal(t, "next", got.Base)
	assert.Equal(t, []string{f.User}, got.Assignees)
	assert.Equal(t, []string{"needs-review"}, got.Labels)
	assert.Equal(t, "v1", got.Milestone)

	text := call("get_pull_request_by_index", map[string]any{"index": index})
	assert.Contains(t, text, `"body":"Now with docs."`, "read back")
	assert.Contains(t, text, `"title":"WIP: Add a friendly greeter"`)

	// Ready again, without naming the title: only its prefix goes.
	require.NoError(t, json.Unmarshal([]byte(call("update_pull_request", map[string]any{"index": index, "draft": false, "labels": []any{}, "state": "closed"})), &got))
	assert.Equal(t, "Add a friendly greeter", got.Title)
	assert.False(t, got.Draft)
	assert.Empty(t, got.Labels, "[] removes every label")
	assert.Equal(t, "closed", got.State)
	assert.Equal(t, "v1", got.Milestone, "fields not given stay")

	res := f.Call(t, pull.Tools(), "update_pull_request", map[string]any{"owner": owner, "repo": name, "index": index, "labels": []any{"nope"}})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `no label "nope" in repository`)
	assert.Contains(t, fakeforge.Text(t, res), "needs-review")
}
