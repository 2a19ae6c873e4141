package subscription_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/subscription/

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/subscription"
)

// TestLiveWatchAndSubscribe: the second user watches a public repository
// and subscribes to one of its issues, sees both in the lists and checks,
// and undoes both; a missing repository is an error, not "not watching".
func TestLiveWatchAndSubscribe(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewPublicRepo(t)
	index := float64(f.NewIssue(t, owner, repo, "to follow", ""))
	u2 := f.WithToken(f.Token2)
	defs := subscription.Tools()
	call := func(g *testforge.Forge, name string, args map[string]any) string {
		return g.CallOK(t, defs, name, args)
	}
	at := map[string]any{"owner": owner, "repo": repo}
	issue := with(at, "index", index)
	full := `"repo":"` + owner + "/" + repo + `"`

	assert.JSONEq(t, `{`+full+`,"watching":false}`, call(u2, "check_repo_watch", at))
	assert.JSONEq(t, `{`+full+`,"watching":true}`, call(u2, "watch_repo", at))
	assert.JSONEq(t, `{`+full+`,"watching":true}`, call(u2, "check_repo_watch", at))
	assert.Contains(t, call(u2, "list_my_watched_repos", map[string]any{"limit": 50.0}), `"full_name":"`+owner+"/"+repo+`"`)
	assert.Contains(t, call(f, "list_repo_watchers", at), `"login":"`+f.User2+`"`)
	assert.JSONEq(t, `{`+full+`,"watching":false}`, call(u2, "unwatch_repo", at))
	assert.NotContains(t, call(f, "list_repo_watchers", at), f.User2)

	assert.JSONEq(t, `{"number":1,"subscribed":false}`, call(u2, "check_issue_subscription", issue))
	assert.JSONEq(t, `{"number":1,"subscribed":true}`, call(u2, "subscribe_issue", issue))
	assert.JSONEq(t, `{"number":1,"subscribed":true}`, call(u2, "check_issue_subscription", issue))
	assert.Contains(t, call(f, "list_issue_subscribers", issue), `"login":"`+f.User2+`"`)
	assert.JSONEq(t, `{"number":1,"subscribed":false}`, call(u2, "unsubscribe_issue", issue))
	assert.JSONEq(t, `{"number":1,"subscribed":false}`, call(u2, "check_issue_subscription", issue))

	res := u2.Call(t, defs, "check_repo_watch", map[string]any{"owner": owner, "repo": repo + "-missing"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
	res = u2.Call(t, defs, "subscribe_issue", with(at, "index", 999.0))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "issue "+owner+"/"+repo+"#999")
}
