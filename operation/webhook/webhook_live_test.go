package webhook_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/webhook/

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/webhook"
)

type liveHook struct {
	ID           int64    `json:"id"`
	Type         string   `json:"type"`
	URL          string   `json:"url"`
	ContentType  string   `json:"content_type"`
	Events       []string `json:"events"`
	BranchFilter string   `json:"branch_filter"`
	Active       bool     `json:"active"`
}

func TestLiveWebhookLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := webhook.Tools()
	call := f.RepoCaller(t, defs, owner, repo)
	decode := func(text string) liveHook {
		var h liveHook
		require.NoError(t, json.Unmarshal([]byte(text), &h), text)
		return h
	}
	// The hook's target is a loopback server of this test.
	delivered := make(chan *http.Request, 4)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		delivered <- r
	}))
	defer target.Close()

	const secret = "live-s3cret-do-not-return"
	text := call("create_repo_hook", map[string]any{"target_url": target.URL + "/hook", "secret": secret,
		"events": []any{"push", "issues"}, "branch_filter": "main"})
	assert.NotContains(t, text, secret)
	h := decode(text)
	assert.Equal(t, liveHook{ID: h.ID, Type: "gitea", URL: target.URL + "/hook", ContentType: "json",
		Events: h.Events, BranchFilter: "main", Active: true}, h)
	// Gitea lists "issues" with its finer events (issue_label, issue_assign…).
	assert.Subset(t, h.Events, []string{"push", "issues"})
	id := float64(h.ID)

	text = call("get_repo_hook", map[string]any{"hook_id": id})
	assert.NotContains(t, text, secret)
	assert.Equal(t, "main", decode(text).BranchFilter)

	var page struct {
		Items   []liveHook `json:"items"`
		HasMore bool       `json:"has_more"`
	}
	text = call("list_repo_hooks", map[string]any{})
	assert.NotContains(t, text, secret)
	require.NoError(t, json.Unmarshal([]byte(text), &page), text)
	require.Len(t, page.Items, 1)
	assert.Equal(t, h.ID, page.Items[0].ID)

	// Only the given fields change: events and branch filter stay.
	e := decode(call("edit_repo_hook", map[string]any{"hook_id": id, "active": false, "content_type": "form"}))
	assert.False(t, e.Active)
	assert.Equal(t, "form", e.ContentType)
	assert.Equal(t, target.URL+"/hook", e.URL)
	assert.ElementsMatch(t, h.Events, e.Events)
	assert.Equal(t, "main", e.BranchFilter)
	e = decode(call("edit_repo_hook", map[string]any{"hook_id": id, "active": true, "events": []any{"release"}}))
	assert.Equal(t, []string{"release"}, e.Events)
	assert.True(t, e.Active)

	// The forge accepts the test request and queues a delivery. Gitea's
	// default [webhook] ALLOWED_HOST_LIST ("external") refuses loopback
	// targets, so the delivery itself only arrives on a forge that allows
	// them; it is checked when it does.
	assert.JSONEq(t, `{"queued":true,"id":`+jsonInt(h.ID)+`}`, call("test_repo_hook", map[string]any{"hook_id": id}))
	select {
	case r := <-delivered:
		assert.Equal(t, http.MethodPost, r.Method)
		assert.Equal(t, "/hook", r.URL.Path)
	case <-time.After(2 * time.Second):
		t.Log("no delivery to the loopback target: the forge does not allow loopback webhook hosts")
	}

	// A non-admin cannot see the hooks.
	res := f.WithToken(f.Token2).Call(t, defs, "list_repo_hooks", map[string]any{"owner": owner, "repo": repo})
	assert.True(t, res.IsError)

	assert.JSONEq(t, `{"deleted":true,"id":`+jsonInt(h.ID)+`}`, call("delete_repo_hook", map[string]any{"hook_id": id}))
	res = f.Call(t, defs, "get_repo_hook", map[string]any{"owner": owner, "repo": repo, "hook_id": id})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
	res = f.Call(t, defs, "test_repo_hook", map[string]any{"owner": owner, "repo": repo, "hook_id": id})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "webhook")
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }
