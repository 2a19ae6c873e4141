package issue_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

func TestListRepoComments(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/issues/comments", 200, []any{
		map[string]any{"id": 7, "body": "hi", "user": map[string]any{"login": "bob"}, "issue_url": "http://x/api/v1/repos/o/r/issues/12",
			"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z", "html_url": "http://x/o/r/issues/12#issuecomment-7"},
	})
	res := f.Call(t, issue.Tools(), "list_repo_comments", map[string]any{"owner": "o", "repo": "r", "since": "2026-01-01", "limit": 5.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"issue":12`)
	assert.Contains(t, fakeforge.Text(t, res), `"author":"bob"`)
	q := f.Requests()[0].RawQuery
	assert.Contains(t, q, "since=2026-01-01T00%3A00%3A00Z")
	assert.Contains(t, q, "limit=5")
}

func TestListRepoActivity(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/activities/feeds", 200, []any{
		map[string]any{"id": 3, "op_type": "commit_repo", "act_user": map[string]any{"login": "bob"}, "ref_name": "refs/heads/main",
			"content": "{}", "created": "2026-01-02T03:04:05Z"},
	})
	res := f.Call(t, issue.Tools(), "list_repo_activity", map[string]any{"owner": "o", "repo": "r", "date": "2026-01-02", "limit": 1.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":3,"op":"commit_repo","actor":"bob","ref":"refs/heads/main","content":"{}","created_at":"2026-01-02T03:04:05Z"}],"page":1,"has_more":true}`,
		fakeforge.Text(t, res))
	assert.Contains(t, f.Requests()[0].RawQuery, "date=2026-01-02")
	res = f.Call(t, issue.Tools(), "list_repo_activity", map[string]any{"owner": "o", "repo": "r", "date": "yesterday"})
	require.True(t, res.IsError)
	assert.Len(t, f.Requests(), 1)
}

func TestListActivityFeeds(t *testing.T) {
	entry := map[string]any{"id": 4, "op_type": "create_issue", "act_user": map[string]any{"login": "ann"},
		"repo": map[string]any{"full_name": "acme/site", "name": "site"}, "content": "2|Broken", "created": "2026-01-02T03:04:05Z"}
	for _, tc := range []struct {
		tool, route string
		args        map[string]any
		query       string
	}{
		{"list_org_activity", "GET /api/v1/orgs/acme/activities/feeds", map[string]any{"org": "acme"}, ""},
		{"list_team_activity", "GET /api/v1/teams/9/activities/feeds", map[string]any{"team_id": 9.0}, ""},
		{"list_user_activity", "GET /api/v1/users/ann/activities/feeds", map[string]any{"user": "ann", "only_performed_by": true}, "only-performed-by=true"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON(tc.route, 200, []any{entry})
			tc.args["date"], tc.args["limit"] = "2026-01-02", 2.0
			res := f.Call(t, issue.Tools(), tc.tool, tc.args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, `{"items":[{"repo":"acme/site","id":4,"op":"create_issue","actor":"ann","content":"2|Broken","created_at":"2026-01-02T03:04:05Z"}],"page":1,"has_more":false}`,
				fakeforge.Text(t, res))
			q := f.Requests()[0].RawQuery
			assert.Contains(t, q, "date=2026-01-02")
			assert.Contains(t, q, "limit=2")
			if tc.query != "" {
				assert.Contains(t, q, tc.query)
			} else {
				assert.NotContains(t, q, "only-performed-by")
			}
		})
	}
}

func TestListActivityFeedsRefuse(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/orgs/nope/activities/feeds", 404, map[string]any{"message": "org does not exist"})
	res := f.Call(t, issue.Tools(), "list_org_activity", map[string]any{"org": "nope"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation nope")
	res = f.Call(t, issue.Tools(), "list_org_activity", map[string]any{"org": "../x"})
	require.True(t, res.IsError)
	res = f.Call(t, issue.Tools(), "list_user_activity", map[string]any{"user": "ann", "date": "soon"})
	require.True(t, res.IsError)
	assert.Len(t, f.Requests(), 1)
}
