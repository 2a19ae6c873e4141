package issue_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

var repoLabels = []any{map[string]any{"id": 1, "name": "bug"}, map[string]any{"id": 2, "name": "UI"}}

// TestListIssuesLabelFilter: label names are resolved before the list is
// asked for; an unknown one is refused with the labels there are, since
// the forge would drop it and filter nothing.
func TestListIssuesLabelFilter(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/labels", 200, repoLabels)
	f.JSON("GET /api/v1/repos/o/r/issues", 200, []any{rawIssue})

	res := f.Call(t, issue.Tools(), "list_repo_issues", map[string]any{"owner": "o", "repo": "r", "labels": []any{"bug", "nosuch"}})
	require.True(t, res.IsError)
	assert.Equal(t, `no label "nosuch" in repository o/r; its labels are: bug, UI`, fakeforge.Text(t, res))
	for _, r := range f.Requests() {
		assert.NotEqual(t, "/api/v1/repos/o/r/issues", r.Path, "nothing listed with an unknown label")
	}

	res = f.Call(t, issue.Tools(), "list_repo_issues", map[string]any{"owner": "o", "repo": "r", "labels": []any{"ui"}})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	q := f.LastQuery(t)
	assert.Equal(t, "UI", q.Get("labels"), "the forge's own spelling is sent")
}

// TestSearchIssuesLabelFilter: search keeps only issues with all the
// labels, as its description says (the forge keeps any, and ignores
// unknown names).
func TestSearchIssuesLabelFilter(t *testing.T) {
	f := fakeforge.New(t)
	other := map[string]any{}
	for k, v := range rawIssue {
		other[k] = v
	}
	other["number"], other["labels"] = 4, []any{}
	f.JSON("GET /api/v1/repos/issues/search", 200, []any{rawIssue, other})
	res := f.Call(t, issue.Tools(), "search_issues", map[string]any{"labels": []any{"BUG"}})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var page struct {
		Items []struct {
			Number int `json:"number"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
	require.Len(t, page.Items, 1)
	assert.Equal(t, 3, page.Items[0].Number)

	res = f.Call(t, issue.Tools(), "search_issues", map[string]any{"labels": []any{"nosuch"}})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, fakeforge.Text(t, res))
}

// TestSinceBefore: the time window reaches the forge; a bad or empty one
// is refused before anything is sent.
func TestSinceBefore(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues", 200, []any{})
	f.JSON("GET /api/v1/repos/issues/search", 200, []any{})
	f.JSON("GET /api/v1/repos/o/r/issues/3/comments", 200, []any{})
	for _, tt := range []struct {
		tool string
		args map[string]any
	}{
		{"list_repo_issues", map[string]any{"owner": "o", "repo": "r"}},
		{"search_issues", map[string]any{}},
		{"list_issue_comments", map[string]any{"owner": "o", "repo": "r", "index": 3.0}},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			tt.args["since"], tt.args["before"] = "2026-01-02", "2026-02-01T10:00:00+01:00"
			res := f.Call(t, issue.Tools(), tt.tool, tt.args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			reqs := f.Requests()
			q := f.LastQuery(t)
			assert.Equal(t, "2026-01-02T00:00:00Z", q.Get("since"))
			assert.Equal(t, "2026-02-01T10:00:00+01:00", q.Get("before"))

			n := len(reqs)
			tt.args["since"], tt.args["before"] = "2026-03-01", "2026-02-01"
			res = f.Call(t, issue.Tools(), tt.tool, tt.args)
			require.True(t, res.IsError)
			assert.Equal(t, "invalid arguments: since (2026-03-01) must be earlier than before (2026-02-01)", fakeforge.Text(t, res))
			tt.args["since"] = "last week"
			res = f.Call(t, issue.Tools(), tt.tool, tt.args)
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), `argument "since"`)
			assert.Len(t, f.Requests(), n, "refused before asking the forge")
		})
	}
}

// TestUpdateIssueDueDate: due_date sets the date; an empty one removes it.
func TestUpdateIssueDueDate(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PATCH /api/v1/repos/o/r/issues/3", 201, rawIssue)
	for _, tt := range []struct {
		due  string
		sent map[string]any
	}{
		{"2026-05-01", map[string]any{"due_date": "2026-05-01T00:00:00Z"}},
		{"2026-05-01T12:00:00+02:00", map[string]any{"due_date": "2026-05-01T12:00:00+02:00"}},
		{"", map[string]any{"unset_due_date": true}},
	} {
		res := f.Call(t, issue.Tools(), "update_issue", map[string]any{"owner": "o", "repo": "r", "index": 3.0, "due_date": tt.due})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		reqs := f.Requests()
		var sent map[string]any
		require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &sent))
		assert.Equal(t, tt.sent, sent, tt.due)
	}
}

// TestCommentOnMissingIssue: Gitea's 500 for a missing issue reads as not
// found, not as "retry later".
func TestCommentOnMissingIssue(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/issues/999/comments", 500, map[string]string{"message": "issue does not exist [id: 0, repo_id: 1, index: 999]"})
	res := f.Call(t, issue.Tools(), "create_issue_comment", map[string]any{"owner": "o", "repo": "r", "index": 999.0, "body": "x"})
	require.True(t, res.IsError)
	assert.Equal(t, "issue o/r#999 not found (404): it does not exist or this token cannot see it: issue does not exist", fakeforge.Text(t, res))
}

// TestInvolvementFilters: "my open PRs awaiting my review" and "issues
// assigned to me" are one call each; a repository's list filters by any
// user's involvement.
func TestInvolvementFilters(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/issues/search", 200, []any{rawIssue})
	f.JSON("GET /api/v1/repos/o/r/issues", 200, []any{rawIssue})
	for _, tt := range []struct {
		tool string
		args map[string]any
		want map[string]string
	}{
		{"search_issues", map[string]any{"involved": "review_requested"}, map[string]string{"review_requested": "true", "type": "pulls", "state": "open"}},
		{"search_issues", map[string]any{"involved": "reviewed", "type": "issues"}, map[string]string{"reviewed": "true", "type": "pulls"}},
		{"search_issues", map[string]any{"involved": "assigned"}, map[string]string{"assigned": "true", "type": "issues"}},
		{"search_issues", map[string]any{"involved": "created", "type": "all", "owner": "org"}, map[string]string{"created": "true", "type": "", "owner": "org"}},
		{"list_repo_issues", map[string]any{"owner": "o", "repo": "r", "author": "al", "assignee": "bo", "mentioned": "cy"},
			map[string]string{"created_by": "al", "assigned_by": "bo", "mentioned_by": "cy"}},
	} {
		res := f.Call(t, issue.Tools(), tt.tool, tt.args)
		require.False(t, res.IsError, fakeforge.Text(t, res))
		q := f.LastQuery(t)
		for k, v := range tt.want {
			assert.Equal(t, v, q.Get(k), "%s %v: %s", tt.tool, tt.args, k)
		}
		assert.Contains(t, fakeforge.Text(t, res), `"number":3`)
	}
	res := f.Call(t, issue.Tools(), "search_issues", map[string]any{"involved": "owner"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "involved")
}

// TestUserFilterNamesNobody: the forge answers 404 as for a missing
// repository when a user filter names nobody; the error says which.
func TestUserFilterNamesNobody(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues", 404, map[string]any{"message": "user does not exist"})
	f.JSON("GET /api/v1/users/al", 200, map[string]any{"login": "al"})
	res := f.Call(t, issue.Tools(), "list_repo_issues", map[string]any{"owner": "o", "repo": "r", "author": "al", "mentioned": "ghost"})
	require.True(t, res.IsError)
	assert.Equal(t, `list issues of repository o/r: no user "ghost" (mentioned)`, fakeforge.Text(t, res))
}
