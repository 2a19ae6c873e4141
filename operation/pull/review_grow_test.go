package pull_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
)

const (
	forgejoVersion = "11.0.0+gitea-1.22.0"
	giteaVersion   = "1.26.0"
)

// flavoured is a fake forge that says which flavour it is.
func flavoured(t *testing.T, version string) *fakeforge.Server {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": version})
	return f
}

func pendingReview(id int, login, body string) map[string]any {
	return map[string]any{"id": id, "user": map[string]any{"login": login}, "state": "PENDING", "body": body,
		"commit_id": "c0ffee", "comments_count": 1}
}

var rawLineComment = map[string]any{"id": 70, "path": "a.go", "original_position": 2, "position": 0, "commit_id": "feed",
	"body": "Off by one.", "user": map[string]any{"login": "bob"}}

// writes are the requests that were not reads.
func writes(f *fakeforge.Server) []fakeforge.Request {
	var out []fakeforge.Request
	for _, r := range f.Requests() {
		if r.Method != http.MethodGet {
			out = append(out, r)
		}
	}
	return out
}

func TestAddReviewCommentsForgejo(t *testing.T) {
	f := flavoured(t, forgejoVersion)
	f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews/7/comments", 200, map[string]any{"id": 71})
	f.JSON("GET /api/v1/repos/o/r/pulls/4/reviews/7", 200, rawReview)
	res := f.Call(t, pull.Tools(), "add_pull_review_comments", args("review_id", 7.0, "comments", []any{
		map[string]any{"path": "a.go", "new_line": 3.0, "body": "nit"},
		map[string]any{"path": "b.go", "old_position": 9.0, "body": "gone"},
	}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, compactReview, fakeforge.Text(t, res), "the review as it now stands")
	w := writes(f)
	require.Len(t, w, 2, "one comment per request, the route's only form")
	assert.Equal(t, map[string]any{"path": "a.go", "body": "nit", "new_position": 3.0, "old_position": 0.0}, body(t, w[0]))
	assert.Equal(t, map[string]any{"path": "b.go", "body": "gone", "new_position": 0.0, "old_position": 9.0}, body(t, w[1]))
}

func TestAddReviewCommentsForgejoPartly(t *testing.T) {
	f := flavoured(t, forgejoVersion)
	n := 0
	f.Handle("POST /api/v1/repos/o/r/pulls/4/reviews/7/comments", func(w http.ResponseWriter, r *http.Request) {
		if n++; n == 2 {
			fakeforge.WriteJSON(w, 500, map[string]any{"message": "file b.go has only 2 lines"})
			return
		}
		fakeforge.WriteJSON(w, 200, map[string]any{"id": 71})
	})
	res := f.Call(t, pull.Tools(), "add_pull_review_comments", args("review_id", 7.0, "comments", []any{
		map[string]any{"path": "a.go", "new_line": 3.0, "body": "nit"},
		map[string]any{"path": "b.go", "new_line": 9.0, "body": "past the end"},
		map[string]any{"path": "c.go", "new_line": 1.0, "body": "never sent"},
	}))
	require.True(t, res.IsError)
	text := fakeforge.Text(t, res)
	assert.Contains(t, text, "add a line comment on b.go to review 7 of pull request o/r#4: the forge failed on the line comments (500): file b.go has only 2 lines")
	assert.Contains(t, text, "comments[0] to comments[0] were added, the rest not sent")
	assert.Len(t, writes(f), 2)
}

func TestAddReviewCommentsGitea(t *testing.T) {
	tests := []struct {
		name    string
		review  map[string]any
		me      string
		folded  int // the review id the forge answers the fold with
		wantErr string
	}{
		{"own pending review", pendingReview(7, "bob", "Draft."), "bob", 7, ""},
		{"submitted", rawReview, "bob", 0, "review 7 of pull request o/r#4 is REQUEST_CHANGES, not PENDING: on this forge (Gitea) only your pending review can grow"},
		{"another's draft", pendingReview(7, "carol", "Draft."), "bob", 0, "is carol's pending review: only its author can add to it"},
		{"a draft without text", pendingReview(7, "bob", ""), "bob", 0, "has no text, and Gitea needs one"},
		{"folded elsewhere", pendingReview(7, "bob", "Draft."), "bob", 8, "the forge put the comments in review 8, not 7: list_pull_reviews shows both"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := flavoured(t, giteaVersion)
			f.JSON("GET /api/v1/repos/o/r/pulls/4/reviews/7", 200, tc.review)
			f.JSON("GET /api/v1/user", 200, map[string]any{"login": tc.me})
			f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews", 200, pendingReview(tc.folded, "bob", "Draft."))
			res := f.Call(t, pull.Tools(), "add_pull_review_comments", args("review_id", 7.0, "comments", []any{
				map[string]any{"path": "a.go", "new_line": 3.0, "body": "nit"}}))
			if tc.wantErr != "" {
				require.True(t, res.IsError)
				assert.Contains(t, fakeforge.Text(t, res), tc.wantErr)
				if tc.folded == 0 {
					assert.Empty(t, writes(f))
				}
				return
			}
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.Contains(t, fakeforge.Text(t, res), `"state":"PENDING"`)
			w := writes(f)
			require.Len(t, w, 1)
			assert.Equal(t, map[string]any{"event": "PENDING", "body": "Draft.", "commit_id": "c0ffee", "comments": []any{
				map[string]any{"path": "a.go", "body": "nit", "new_position": 3.0, "old_position": 0.0}}}, body(t, w[0]),
				"the draft's text and commit go back as they are")
		})
	}
}

func TestReplyToReviewComment(t *testing.T) {
	oldSide := map[string]any{"path": "a.go", "body": "Agreed.", "new_position": 0.0, "old_position": 2.0}
	tests := []struct {
		name     string
		version  string
		reviews  []any // the pull request's reviews (Gitea)
		wantPath string
		want     map[string]any // the body sent
		wantOut  string
	}{
		{"Forgejo: in the comment's review", forgejoVersion, nil, "/api/v1/repos/o/r/pulls/4/reviews/7/comments", oldSide,
			`{"review_id":7,"path":"a.go","old_line":2,"comment_id":71}`},
		{"Gitea: a one-comment review", giteaVersion, []any{rawReview}, "/api/v1/repos/o/r/pulls/4/reviews",
			map[string]any{"event": "COMMENT", "body": "", "commit_id": "feed", "comments": []any{oldSide}},
			`{"review_id":9,"path":"a.go","old_line":2}`},
		{"Gitea: into my draft", giteaVersion, []any{rawReview, pendingReview(5, "carol", "Hers."), pendingReview(9, "bob", "Mine.")},
			"/api/v1/repos/o/r/pulls/4/reviews",
			map[string]any{"event": "PENDING", "body": "Mine.", "commit_id": "c0ffee", "comments": []any{oldSide}},
			`{"review_id":9,"path":"a.go","old_line":2,"pending":true,"note":"in your pending review: submit_pull_review sends it"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := flavoured(t, tc.version)
			f.JSON("GET /api/v1/repos/o/r/pulls/4/reviews/7/comments", 200, []any{rawLineComment})
			f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews/7/comments", 200, map[string]any{"id": 71})
			f.JSON("GET /api/v1/repos/o/r/pulls/4/reviews", 200, tc.reviews)
			f.JSON("GET /api/v1/user", 200, map[string]any{"login": "bob"})
			f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews", 200, pendingReview(9, "bob", "x"))
			res := f.Call(t, pull.Tools(), "reply_to_pull_review_comment", args("review_id", 7.0, "comment_id", 70.0, "body", "Agreed."))
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, tc.wantOut, fakeforge.Text(t, res))
			w := writes(f)
			require.Len(t, w, 1)
			assert.Equal(t, tc.wantPath, w[0].Path)
			assert.Equal(t, tc.want, body(t, w[0]))
		})
	}
}

func TestReplyToAnotherReviewsComment(t *testing.T) {
	f := flavoured(t, forgejoVersion)
	f.JSON("GET /api/v1/repos/o/r/pulls/4/reviews/7/comments", 200, []any{rawLineComment})
	res := f.Call(t, pull.Tools(), "reply_to_pull_review_comment", args("review_id", 7.0, "comment_id", 80.0, "body", "?"))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "comment 80 is not a line comment of review 7 of pull request o/r#4 (it has 1): list_pull_review_comments shows them")
	assert.Empty(t, writes(f))
}

func TestDeleteReviewComment(t *testing.T) {
	tests := []struct {
		name     string
		version  string
		comment  float64
		gone     bool // whether the comment reads 404 after the delete (Gitea)
		wantPath string
		wantErr  string
	}{
		{"Forgejo's route", forgejoVersion, 70, true, "/api/v1/repos/o/r/pulls/4/reviews/7/comments/70", ""},
		{"Gitea: the issue comment route", giteaVersion, 70, true, "/api/v1/repos/o/r/issues/comments/70", ""},
		{"Gitea: kept", giteaVersion, 70, false, "/api/v1/repos/o/r/issues/comments/70", "the forge answered success but kept the comment"},
		{"Gitea: not the review's", giteaVersion, 12, true, "", "comment 12 is not a line comment of review 7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := flavoured(t, tc.version)
			f.JSON("GET /api/v1/repos/o/r/pulls/4/reviews/7/comments", 200, []any{rawLineComment})
			f.Handle("DELETE /", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
			status := http.StatusNoContent
			if tc.gone {
				status = http.StatusNotFound
			}
			f.JSON("GET /api/v1/repos/o/r/issues/comments/70", status, nil)
			res := f.Call(t, pull.Tools(), "delete_pull_review_comment", args("review_id", 7.0, "comment_id", tc.comment))
			w := writes(f)
			if tc.wantPath == "" {
				assert.Empty(t, w)
			} else {
				require.Len(t, w, 1)
				assert.Equal(t, tc.wantPath, w[0].Path)
			}
			if tc.wantErr != "" {
				require.True(t, res.IsError)
				assert.Contains(t, fakeforge.Text(t, res), tc.wantErr)
				return
			}
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, `{"comment_id":70,"deleted":true}`, fakeforge.Text(t, res))
		})
	}
}

func TestUndismissReview(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews/7/undismissals", 200, rawReview)
	res := f.Call(t, pull.Tools(), "undismiss_pull_review", args("review_id", 7.0))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, compactReview, fakeforge.Text(t, res))
	assert.Empty(t, f.Requests()[0].Body)
}

// body is a request's JSON body.
func body(t *testing.T, r fakeforge.Request) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m))
	return m
}

func TestListReviewerCandidates(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/reviewers", 200, []any{map[string]any{"id": 1, "login": "alice", "full_name": "Alice A."}, map[string]any{"id": 2, "login": "bob"}})
	res := f.Call(t, pull.Tools(), "list_reviewer_candidates", map[string]any{"owner": "o", "repo": "r"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"login":"alice","full_name":"Alice A."},{"login":"bob"}],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	f2 := fakeforge.New(t)
	f2.JSON("GET /api/v1/repos/o/r/reviewers", 404, map[string]any{"message": "not found"})
	res = f2.Call(t, pull.Tools(), "list_reviewer_candidates", map[string]any{"owner": "o", "repo": "r"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "repository o/r not found (404)")
}
