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

var rawReview = map[string]any{
	"id": 7, "user": map[string]any{"login": "bob", "avatar_url": "http://x/b"}, "team": nil, "state": "REQUEST_CHANGES",
	"body": "Please fix.", "commit_id": "c0ffee", "stale": false, "official": true, "dismissed": false, "comments_count": 1,
	"submitted_at": "2026-01-02T03:04:05Z", "html_url": "http://x/o/r/pulls/4#review-7", "pull_request_url": "http://x/o/r/pulls/4",
}

const compactReview = `{"id":7,"reviewer":"bob","state":"REQUEST_CHANGES","body":"Please fix.","commit_id":"c0ffee","comments":1,
	"official":true,"submitted_at":"2026-01-02T03:04:05Z","html_url":"http://x/o/r/pulls/4#review-7"}`

func args(kv ...any) map[string]any {
	m := map[string]any{"owner": "o", "repo": "r", "index": 4.0}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func sent(t *testing.T, f *fakeforge.Server, i int) map[string]any {
	t.Helper()
	var body map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[i].Body, &body))
	return body
}

func TestReadReviews(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/pulls/4/reviews", 200, []any{rawReview})
	f.JSON("GET /api/v1/repos/o/r/pulls/4/reviews/7", 200, rawReview)
	f.JSON("GET /api/v1/repos/o/r/pulls/4/reviews/7/comments", 200, []any{map[string]any{
		"id": 70, "body": "Off by one.", "user": map[string]any{"login": "bob"}, "pull_request_review_id": 7,
		"resolver": map[string]any{"login": "alice"}, "path": "a.go", "commit_id": "c0ffee", "original_commit_id": "c0ffee",
		"diff_hunk": "@@ -1,2 +1,3 @@\n a\n+b", "position": 0, "original_position": 2,
		"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z", "html_url": "http://x/c", "pull_request_url": "http://x/p",
	}})
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"list_pull_reviews", args(), `{"items":[` + compactReview + `],"page":1,"has_more":false}`},
		{"get_pull_review", args("review_id", 7.0), compactReview},
		{"list_pull_review_comments", args("review_id", 7.0), `{"items":[{"id":70,"path":"a.go","old_line":2,"body":"Off by one.",
			"author":"bob","resolved":true,"resolved_by":"alice","diff_hunk":"@@ -1,2 +1,3 @@\n a\n+b","commit_id":"c0ffee",
			"created_at":"2026-01-02T03:04:05Z"}],"page":1,"has_more":false}`},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			res := f.Call(t, pull.Tools(), tc.tool, tc.args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, tc.want, fakeforge.Text(t, res))
		})
	}
	assert.Contains(t, f.Requests()[0].RawQuery, "limit=20")
}

func TestCreateReview(t *testing.T) {
	tests := []struct {
		name    string
		args    map[string]any
		event   string // sent; "" when nothing may be sent
		wantErr string
	}{
		{"comment with a line comment", args("comments", []any{map[string]any{"path": "a.go", "new_line": 3.0, "body": "nit"}}), "COMMENT", ""},
		{"approve without body", args("event", "APPROVE"), "APPROVED", ""},
		{"pending", args("event", "PENDING", "body", "draft"), "PENDING", ""},
		{"request changes", args("event", "REQUEST_CHANGES", "body", "fix it", "commit_id", "c0ffee"), "REQUEST_CHANGES", ""},
		{"comment needs something", args(), "", "a COMMENT review needs a body or comments"},
		{"request changes needs a body", args("event", "REQUEST_CHANGES"), "", "a REQUEST_CHANGES review needs a body"},
		{"pending needs a body", args("event", "PENDING", "comments", []any{map[string]any{"path": "a.go", "new_line": 1.0, "body": "x"}}), "",
			"the forge needs a body for a PENDING review too"},
		{"both lines", args("comments", []any{map[string]any{"path": "a.go", "new_line": 3.0, "old_line": 2.0, "body": "x"}}), "",
			"comments[0]: give exactly one of new_line (a line of the new version) and old_line (a removed line)"},
		{"no path", args("comments", []any{map[string]any{"new_line": 3.0, "body": "x"}}), "", "comments[0].path is required (File path)"},
		{"unknown event", args("event", "LGTM"), "", `argument "event" must be one of APPROVE, REQUEST_CHANGES, COMMENT, PENDING`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews", 200, rawReview)
			res := f.Call(t, pull.Tools(), "create_pull_review", tc.args)
			if tc.wantErr != "" {
				require.True(t, res.IsError)
				assert.Contains(t, fakeforge.Text(t, res), tc.wantErr)
				assert.Empty(t, f.Requests(), "refused before the forge")
				return
			}
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, compactReview, fakeforge.Text(t, res))
			body := sent(t, f, 0)
			assert.Equal(t, tc.event, body["event"])
		})
	}
}

func TestCreateReviewSendsLineComments(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews", 200, rawReview)
	res := f.Call(t, pull.Tools(), "create_pull_review", args("body", "see lines", "comments", []any{
		map[string]any{"path": "a.go", "new_line": 3.0, "body": "new side"},
		map[string]any{"path": "b.go", "old_line": 9.0, "body": "old side"},
	}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	body := sent(t, f, 0)
	assert.Equal(t, []any{
		map[string]any{"path": "a.go", "body": "new side", "new_position": 3.0, "old_position": 0.0},
		map[string]any{"path": "b.go", "body": "old side", "new_position": 0.0, "old_position": 9.0},
	}, body["comments"])
}

// TestCreateReviewLinePastTheEnd: the forge fails (500) on a line past
// the end of a file, leaving an empty pending review; the error says what
// to check and how to clean up.
func TestCreateReviewLinePastTheEnd(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews", 500, map[string]any{"message": "exit status 128 - fatal: file a.go has only 2 lines"})
	res := f.Call(t, pull.Tools(), "create_pull_review", args("body", "b", "comments", []any{map[string]any{"path": "a.go", "new_line": 99.0, "body": "x"}}))
	require.True(t, res.IsError)
	assert.Equal(t, "review pull request o/r#4: the forge failed on the line comments (500): exit status 128 - fatal: file a.go has only 2 lines; "+
		"check each comment's path and line against get_pull_request_diff. The failed review may be left as an empty PENDING review of yours: "+
		"list_pull_reviews shows it, delete_pull_review removes it", fakeforge.Text(t, res))

	res = f.Call(t, pull.Tools(), "create_pull_review", args("body", "b"))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "retry later", "without comments, the usual text")
}

func TestSubmitDismissDeleteReview(t *testing.T) {
	f := fakeforge.New(t)
	approved := map[string]any{"id": 7, "user": map[string]any{"login": "bob"}, "state": "APPROVED"}
	dismissed := map[string]any{"id": 7, "user": map[string]any{"login": "bob"}, "state": "REQUEST_CHANGES", "dismissed": true}
	f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews/7", 200, approved)
	f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews/7/dismissals", 200, dismissed)
	f.Handle("DELETE /api/v1/repos/o/r/pulls/4/reviews/7", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	f.JSON("POST /api/v1/repos/o/r/pulls/4/reviews/8", 422, map[string]any{"message": "only a pending review can be submitted"})

	res := f.Call(t, pull.Tools(), "submit_pull_review", args("review_id", 7.0, "event", "APPROVE"))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"id":7,"reviewer":"bob","state":"APPROVED","comments":0}`, fakeforge.Text(t, res))
	assert.Equal(t, map[string]any{"event": "APPROVED", "body": ""}, sent(t, f, 0))

	res = f.Call(t, pull.Tools(), "dismiss_pull_review", args("review_id", 7.0, "message", "stale"))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"id":7,"reviewer":"bob","state":"REQUEST_CHANGES","comments":0,"dismissed":true}`, fakeforge.Text(t, res))
	assert.Equal(t, map[string]any{"message": "stale"}, sent(t, f, 1))

	res = f.Call(t, pull.Tools(), "delete_pull_review", args("review_id", 7.0))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"review_id":7}`, fakeforge.Text(t, res))

	res = f.Call(t, pull.Tools(), "submit_pull_review", args("review_id", 8.0, "event", "COMMENT", "body", "x"))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "submit review 8 of pull request o/r#4")
	assert.Contains(t, fakeforge.Text(t, res), "only a pending review can be submitted")

	n := len(f.Requests())
	res = f.Call(t, pull.Tools(), "submit_pull_review", args("review_id", 8.0, "event", "REQUEST_CHANGES"))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "REQUEST_CHANGES needs a body")
	res = f.Call(t, pull.Tools(), "submit_pull_review", args("review_id", 8.0, "event", "COMMENT"))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "the forge needs a body to submit a COMMENT review, even one with line comments")
	res = f.Call(t, pull.Tools(), "submit_pull_review", args("review_id", 8.0, "event", "PENDING"))
	require.True(t, res.IsError, "submitting keeps nothing pending")
	res = f.Call(t, pull.Tools(), "dismiss_pull_review", args("review_id", 7.0))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `missing required argument "message"`)
	assert.Len(t, f.Requests(), n, "refused before the forge")
}

func TestReviewRequests(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/pulls/4/requested_reviewers", 201, []any{
		map[string]any{"id": 9, "user": map[string]any{"login": "carol"}, "state": "REQUEST_REVIEW"},
		map[string]any{"id": 10, "team": map[string]any{"name": "core"}, "state": "REQUEST_REVIEW"},
	})
	f.Handle("DELETE /api/v1/repos/o/r/pulls/4/requested_reviewers", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })

	res := f.Call(t, pull.Tools(), "create_review_requests", args("reviewers", []any{"carol"}, "team_reviewers", []any{"core"}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":9,"reviewer":"carol","state":"REQUEST_REVIEW","comments":0},
		{"id":10,"team":"core","state":"REQUEST_REVIEW","comments":0}],"page":1,"has_more":false}`, fakeforge.Text(t, res))
	assert.Equal(t, map[string]any{"reviewers": []any{"carol"}, "team_reviewers": []any{"core"}}, sent(t, f, 0))

	res = f.Call(t, pull.Tools(), "delete_review_requests", args("reviewers", []any{"carol"}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"withdrawn":true,"reviewers":["carol"],"team_reviewers":[]}`, fakeforge.Text(t, res))
	assert.Equal(t, "DELETE", f.Requests()[1].Method)

	for _, name := range []string{"create_review_requests", "delete_review_requests"} {
		res = f.Call(t, pull.Tools(), name, args())
		require.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), "give reviewers, team_reviewers or both")
	}
	assert.Len(t, f.Requests(), 2)
}

// TestReviewOfAnIssue: a review tool used on an issue's number says so.
func TestReviewOfAnIssue(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/4", 200, map[string]any{"number": 4, "title": "bug", "state": "open"})
	res := f.Call(t, pull.Tools(), "list_pull_reviews", args())
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "o/r#4 is an issue, not a pull request")
	res = f.Call(t, pull.Tools(), "get_pull_review", args("review_id", 5.0))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "review 5 of pull request o/r#4 not found (404)")
}
