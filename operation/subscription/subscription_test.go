package subscription_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/subscription"
)

func call(t *testing.T, f *fakeforge.Server, name string, args map[string]any) (bool, string) {
	t.Helper()
	res := f.Call(t, subscription.Tools(), name, args)
	return res.IsError, fakeforge.Text(t, res)
}

var or = map[string]any{"owner": "o", "repo": "r"}

func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestWatching(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PUT /api/v1/repos/o/r/subscription", 200, map[string]any{"subscribed": true})
	f.JSON("DELETE /api/v1/repos/o/r/subscription", 204, nil)
	f.JSON("GET /api/v1/repos/o/r/subscription", 200, map[string]any{"subscribed": true})
	f.JSON("GET /api/v1/repos/o/quiet/subscription", 404, map[string]any{"message": "not found"})
	f.JSON("GET /api/v1/repos/o/quiet", 200, map[string]any{"full_name": "o/quiet"})
	f.JSON("GET /api/v1/repos/o/gone/subscription", 404, map[string]any{"message": "not found"})
	f.JSON("GET /api/v1/repos/o/gone", 404, map[string]any{"message": "not found"})
	f.JSON("GET /api/v1/user/subscriptions", 200, []any{map[string]any{"full_name": "o/r", "default_branch": "main",
		"html_url": "http://forge/o/r", "updated_at": "2026-01-02T03:04:05Z"}})
	f.JSON("GET /api/v1/repos/o/r/subscribers", 200, []any{map[string]any{"login": "ann", "full_name": "Ann", "email": "ann@example.com"}})

	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"watch_repo", or, `{"repo":"o/r","watching":true}`},
		{"unwatch_repo", or, `{"repo":"o/r","watching":false}`},
		{"check_repo_watch", or, `{"repo":"o/r","watching":true}`},
		{"check_repo_watch", map[string]any{"owner": "o", "repo": "quiet"}, `{"repo":"o/quiet","watching":false}`},
		{"list_my_watched_repos", map[string]any{"limit": 1.0}, `{"items":[{"full_name":"o/r","private":false,"default_branch":"main",
			"open_issues":0,"open_pulls":0,"stars":0,"updated_at":"2026-01-02T03:04:05Z","html_url":"http://forge/o/r"}],"page":1,"has_more":true}`},
		{"list_repo_watchers", or, `{"items":[{"login":"ann","full_name":"Ann"}],"page":1,"has_more":false}`},
	} {
		isErr, text := call(t, f, c.tool, c.args)
		require.False(t, isErr, "%s: %s", c.tool, text)
		assert.JSONEq(t, c.want, text, c.tool)
	}
	assert.Equal(t, "limit=1&page=1", f.RequestsTo("GET", "/api/v1/user/subscriptions")[0].RawQuery)

	isErr, text := call(t, f, "check_repo_watch", map[string]any{"owner": "o", "repo": "gone"})
	assert.True(t, isErr, "a missing repository is no silent false")
	assert.Contains(t, text, "repository o/gone not found (404)")
}

func TestIssueSubscriptions(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "me"})
	f.JSON("PUT /api/v1/repos/o/r/issues/3/subscriptions/me", 201, nil)
	f.JSON("DELETE /api/v1/repos/o/r/issues/3/subscriptions/me", 201, nil)
	f.JSON("GET /api/v1/repos/o/r/issues/3/subscriptions/check", 200, map[string]any{"subscribed": true, "ignored": false})
	f.JSON("GET /api/v1/repos/o/r/issues/4/subscriptions/check", 200, map[string]any{"subscribed": false, "ignored": true})
	f.JSON("GET /api/v1/repos/o/r/issues/3/subscriptions", 200, []any{map[string]any{"login": "me"}})
	f.JSON("GET /api/v1/repos/o/r/issues/9/subscriptions/check", 404, map[string]any{"message": "issue does not exist"})

	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"subscribe_issue", with(or, "index", 3.0), `{"number":3,"subscribed":true}`},
		{"unsubscribe_issue", with(or, "index", 3.0), `{"number":3,"subscribed":false}`},
		{"check_issue_subscription", with(or, "index", 3.0), `{"number":3,"subscribed":true}`},
		{"check_issue_subscription", with(or, "index", 4.0), `{"number":4,"subscribed":false}`},
		{"list_issue_subscribers", with(or, "index", 3.0), `{"items":[{"login":"me"}],"page":1,"has_more":false}`},
	} {
		isErr, text := call(t, f, c.tool, c.args)
		require.False(t, isErr, "%s: %s", c.tool, text)
		assert.JSONEq(t, c.want, text, c.tool)
	}
	isErr, text := call(t, f, "check_issue_subscription", with(or, "index", 9.0))
	assert.True(t, isErr)
	assert.Contains(t, text, "issue o/r#9 not found (404)")
}
