package webhook_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/webhook"
)

// TestLiveOrgAndUserHooks: an organisation's and the token's user's
// webhooks are created with a secret that never comes back, read, listed,
// edited keeping what is not given, and deleted on a real forge; a member
// who does not own the organisation cannot list its hooks.
func TestLiveOrgAndUserHooks(t *testing.T) {
	f := testforge.Get(t)
	org := f.NewOrg(t)
	defs := webhook.Tools()
	const secret = "live-owner-s3cret-do-not-return"
	for _, c := range []struct {
		kind string
		args map[string]any
	}{{"org", map[string]any{"org": org}}, {"my", map[string]any{}}} {
		t.Run(c.kind, func(t *testing.T) {
			call := func(name string, more map[string]any) string {
				args := map[string]any{}
				for k, v := range c.args {
					args[k] = v
				}
				for k, v := range more {
					args[k] = v
				}
				res := f.Call(t, defs, name, args)
				text := fakeforge.Text(t, res)
				require.False(t, res.IsError, "%s: %s", name, text)
				assert.NotContains(t, text, secret)
				return text
			}
			decode := func(text string) liveHook {
				var h liveHook
				require.NoError(t, json.Unmarshal([]byte(text), &h), text)
				return h
			}
			url := "http://hooks.example.com/" + c.kind
			h := decode(call("create_"+c.kind+"_hook", map[string]any{"target_url": url, "secret": secret,
				"events": []any{"push"}, "branch_filter": "main"}))
			t.Cleanup(func() { f.Call(t, defs, "delete_"+c.kind+"_hook", merged(c.args, "hook_id", float64(h.ID))) })
			assert.Equal(t, liveHook{ID: h.ID, Type: "gitea", URL: url, ContentType: "json", Events: []string{"push"},
				BranchFilter: "main", Active: true}, h)
			id := float64(h.ID)
			assert.Equal(t, "main", decode(call("get_"+c.kind+"_hook", map[string]any{"hook_id": id})).BranchFilter)

			var page struct {
				Items []liveHook `json:"items"`
			}
			require.NoError(t, json.Unmarshal([]byte(call("list_"+c.kind+"_hooks", map[string]any{"limit": 50.0})), &page))
			var ids []int64
			for _, it := range page.Items {
				ids = append(ids, it.ID)
			}
			assert.Contains(t, ids, h.ID)

			e := decode(call("edit_"+c.kind+"_hook", map[string]any{"hook_id": id, "active": false}))
			assert.False(t, e.Active)
			assert.Equal(t, url, e.URL)
			assert.Equal(t, []string{"push"}, e.Events)
			assert.Equal(t, "main", e.BranchFilter)

			assert.JSONEq(t, `{"deleted":true,"id":`+jsonInt(h.ID)+`}`, call("delete_"+c.kind+"_hook", map[string]any{"hook_id": id}))
			res := f.Call(t, defs, "get_"+c.kind+"_hook", merged(c.args, "hook_id", id))
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
		})
	}
	res := f.WithToken(f.Token2).Call(t, defs, "list_org_hooks", map[string]any{"org": org})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation "+org)
}

func merged(args map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for k, v := range args {
		out[k] = v
	}
	return out
}
