package quota_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26,
// or a Forgejo of FORGEJO_TEST_FORGEJO_BIN).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/quota/

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/quota"
)

// liveArgs are each quota tool's arguments on the live forge: an
// organisation of the site administrator's, the second user, and names
// no other test uses.
func liveArgs(org, user, tag string) map[string]map[string]any {
	group, rule := "live-quota-group-"+tag, "live-quota-rule-"+tag
	return map[string]map[string]any{
		"get_quota":               {"org": org},
		"list_quota_usage":        {"kind": "attachments"},
		"check_quota":             {"subject": "size:repos:all", "org": org},
		"list_quota_groups":       {},
		"get_quota_group":         {"group": group},
		"create_quota_group":      {"name": group},
		"delete_quota_group":      {"group": group},
		"add_quota_group_rule":    {"group": group, "rule": rule},
		"remove_quota_group_rule": {"group": group, "rule": rule},
		"list_quota_group_users":  {"group": group},
		"add_quota_group_user":    {"group": group, "username": user},
		"remove_quota_group_user": {"group": group, "username": user},
		"list_quota_rules":        {},
		"get_quota_rule":          {"rule": rule},
		"create_quota_rule":       {"name": rule, "limit_bytes": 1048576.0, "subjects": []any{"size:assets:attachments:all"}},
		"edit_quota_rule":         {"rule": rule, "limit_bytes": 2097152.0},
		"delete_quota_rule":       {"rule": rule},
		"get_user_quota":          {"username": user},
		"set_user_quota_groups":   {"username": user, "groups": []any{group}},
	}
}

// TestLiveQuota: on a forge without quota (Gitea) every quota tool is
// refused before sending, naming the forge, never as a missing object. On
// a Forgejo the site administrator makes a rule and a group, puts the
// second user in it, and the user's quota shows them.
func TestLiveQuota(t *testing.T) {
	f := testforge.Get(t)
	tag := fmt.Sprintf("%d", time.Now().UnixNano()%1e9)
	org := "live-quota-" + tag
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, "/orgs", map[string]any{"username": org}, nil))
	t.Cleanup(func() { f.Do(t, http.MethodDelete, "/orgs/"+org, nil, nil) })
	args := liveArgs(org, f.User2, tag)
	defs := quota.Tools()
	if f.Lacks(t, http.MethodGet, "/user/quota") {
		require.Len(t, args, len(defs), "every tool has its arguments")
		for _, d := range defs {
			t.Run(d.Name, func(t *testing.T) {
				a, ok := args[d.Name]
				require.True(t, ok, "no arguments for %s", d.Name)
				f.RequireMissingRoute(t, f.Call(t, defs, d.Name, a))
			})
		}
		return
	}
	call := func(name string, more ...any) string {
		a := map[string]any{}
		for k, v := range args[name] {
			a[k] = v
		}
		for i := 0; i < len(more); i += 2 {
			a[more[i].(string)] = more[i+1]
		}
		res := f.Call(t, defs, name, a)
		text := fakeforge.Text(t, res)
		require.False(t, res.IsError, "%s: %s", name, text)
		return text
	}
	var q quota.Quota
	require.NoError(t, json.Unmarshal([]byte(call("get_quota")), &q))
	call("list_quota_usage")
	call("check_quota")

	group, rule := args["get_quota_group"]["group"].(string), args["get_quota_rule"]["rule"].(string)
	t.Cleanup(func() {
		f.Call(t, defs, "delete_quota_group", args["delete_quota_group"])
		f.Call(t, defs, "delete_quota_rule", args["delete_quota_rule"])
	})
	assert.JSONEq(t, `{"name":"`+rule+`","limit_bytes":1048576,"subjects":["size:assets:attachments:all"]}`, call("create_quota_rule"))
	assert.Contains(t, call("edit_quota_rule"), `"limit_bytes":2097152`)
	assert.Contains(t, call("list_quota_rules"), `"name":"`+rule+`"`)
	call("create_quota_group")
	call("add_quota_group_rule")
	assert.Contains(t, call("get_quota_group"), `"name":"`+rule+`"`)
	call("add_quota_group_user")
	assert.Contains(t, call("list_quota_group_users"), `"login":"`+f.User2+`"`)
	assert.Contains(t, call("get_user_quota"), `"name":"`+group+`"`)
	call("remove_quota_group_user")
	assert.NotContains(t, call("list_quota_group_users"), `"login":"`+f.User2+`"`)
	call("set_user_quota_groups")
	assert.Contains(t, call("list_quota_group_users"), `"login":"`+f.User2+`"`)
	call("set_user_quota_groups", "groups", []any{})
	call("remove_quota_group_rule")
	assert.JSONEq(t, `{"deleted":true,"group":"`+group+`"}`, call("delete_quota_group"))
	assert.JSONEq(t, `{"deleted":true,"rule":"`+rule+`"}`, call("delete_quota_rule"))

	// The second user is no site administrator: the admin tools say so.
	res := f.WithToken(f.Token2).Call(t, defs, "list_quota_groups", map[string]any{})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "only a site administrator may do this")
}
