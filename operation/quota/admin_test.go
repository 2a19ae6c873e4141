package quota_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/quota"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// lastBody is the JSON body of the last request.
func lastBody(t *testing.T, f *fakeforge.Server) map[string]any {
	t.Helper()
	r := f.Requests()
	var body map[string]any
	require.NoError(t, json.Unmarshal(r[len(r)-1].Body, &body))
	return body
}

const (
	ruleJSON  = `{"name":"name-v","limit_bytes":3,"subjects":["subjects-v"]}`
	groupJSON = `{"name":"name-v","rules":[` + ruleJSON + `]}`
)

// TestAdminOnForgejo: every site administrator's quota tool sends its
// route and shapes the answer, on every described Forgejo.
func TestAdminOnForgejo(t *testing.T) {
	calls := []struct {
		name string
		args map[string]any
		sent string
		want string
		body map[string]any
	}{
		{"list_quota_groups", map[string]any{}, "GET /api/v1/admin/quota/groups", `{"items":[` + groupJSON + `],"page":1,"has_more":false}`, nil},
		{"get_quota_group", map[string]any{"group": "small"}, "GET /api/v1/admin/quota/groups/small", groupJSON, nil},
		{"create_quota_group", map[string]any{"name": "small"}, "POST /api/v1/admin/quota/groups", groupJSON, map[string]any{"name": "small"}},
		{"create_quota_group", map[string]any{"name": "small", "rules": []any{
			map[string]any{"name": "existing"},
			map[string]any{"name": "new", "limit_bytes": 1024.0, "subjects": []any{"size:git:lfs", "size:repos:all"}}}},
			"POST /api/v1/admin/quota/groups", groupJSON,
			map[string]any{"name": "small", "rules": []any{map[string]any{"name": "existing"},
				map[string]any{"name": "new", "limit": 1024.0, "subjects": []any{"size:git:lfs", "size:repos:all"}}}}},
		{"delete_quota_group", map[string]any{"group": "small"}, "DELETE /api/v1/admin/quota/groups/small", `{"deleted":true,"group":"small"}`, nil},
		{"add_quota_group_rule", map[string]any{"group": "small", "rule": "lfs"}, "PUT /api/v1/admin/quota/groups/small/rules/lfs",
			`{"group":"small","rule":"lfs","in_group":true}`, nil},
		{"remove_quota_group_rule", map[string]any{"group": "small", "rule": "lfs"}, "DELETE /api/v1/admin/quota/groups/small/rules/lfs",
			`{"group":"small","rule":"lfs","in_group":false}`, nil},
		{"list_quota_group_users", map[string]any{"group": "small"}, "GET /api/v1/admin/quota/groups/small/users",
			`{"items":[{"id":3,"login":"login-v"}],"page":1,"has_more":false}`, nil},
		{"add_quota_group_user", map[string]any{"group": "small", "username": "alice"}, "PUT /api/v1/admin/quota/groups/small/users/alice",
			`{"group":"small","username":"alice","in_group":true}`, nil},
		{"remove_quota_group_user", map[string]any{"group": "small", "username": "alice"}, "DELETE /api/v1/admin/quota/groups/small/users/alice",
			`{"group":"small","username":"alice","in_group":false}`, nil},
		{"list_quota_rules", map[string]any{}, "GET /api/v1/admin/quota/rules", `{"items":[` + ruleJSON + `],"page":1,"has_more":false}`, nil},
		{"get_quota_rule", map[string]any{"rule": "lfs"}, "GET /api/v1/admin/quota/rules/lfs", ruleJSON, nil},
		{"create_quota_rule", map[string]any{"name": "lfs", "limit_bytes": -1.0, "subjects": []any{"size:git:lfs"}}, "POST /api/v1/admin/quota/rules", ruleJSON,
			map[string]any{"name": "lfs", "limit": -1.0, "subjects": []any{"size:git:lfs"}}},
		{"edit_quota_rule", map[string]any{"rule": "lfs", "limit_bytes": 0.0}, "PATCH /api/v1/admin/quota/rules/lfs", ruleJSON,
			map[string]any{"limit": 0.0}},
		{"edit_quota_rule", map[string]any{"rule": "lfs", "subjects": []any{"size:all"}}, "PATCH /api/v1/admin/quota/rules/lfs", ruleJSON,
			map[string]any{"subjects": []any{"size:all"}}},
		{"delete_quota_rule", map[string]any{"rule": "lfs"}, "DELETE /api/v1/admin/quota/rules/lfs", `{"deleted":true,"rule":"lfs"}`, nil},
		{"get_user_quota", map[string]any{"username": "alice"}, "GET /api/v1/admin/users/alice/quota",
			`{"groups":[` + groupJSON + `],"used":{"repos_public":3,"repos_private":3,"git_lfs":3,"attachments_issues":3,"attachments_releases":3,"artifacts":3,"packages":3}}`, nil},
		{"set_user_quota_groups", map[string]any{"username": "alice", "groups": []any{"small", "lfs"}}, "POST /api/v1/admin/users/alice/quota/groups",
			`{"username":"alice","groups":["small","lfs"]}`, map[string]any{"groups": []any{"small", "lfs"}}},
		{"set_user_quota_groups", map[string]any{"username": "alice", "groups": []any{}}, "POST /api/v1/admin/users/alice/quota/groups",
			`{"username":"alice","groups":[]}`, map[string]any{"groups": []any{}}},
	}
	for _, spec := range forgejos {
		t.Run(spec, func(t *testing.T) {
			f := mimic(t, spec)
			for _, c := range calls {
				assert.JSONEq(t, c.want, run(t, f, c.name, c.args), c.name)
				assert.Equal(t, c.sent, sent(f), c.name)
				if c.body != nil {
					assert.Equal(t, c.body, lastBody(t, f), c.name)
				}
			}
		})
	}
}

// TestAdminArguments: an edit that changes nothing, a subject the forge
// does not know and a name that could change the route are refused
// before anything is sent.
func TestAdminArguments(t *testing.T) {
	f := mimic(t, "forgejo-15.0.3")
	for _, c := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"edit_quota_rule", map[string]any{"rule": "lfs"}, "give limit_bytes or subjects to change"},
		{"create_quota_rule", map[string]any{"name": "r", "limit_bytes": 1.0, "subjects": []any{"size:everything"}}, "must be one of"},
		{"create_quota_rule", map[string]any{"name": "r", "limit_bytes": -2.0, "subjects": []any{"size:all"}}, "limit_bytes"},
		{"create_quota_group", map[string]any{"name": "g", "rules": []any{map[string]any{"limit_bytes": 1.0}}}, "rules[0].name"},
		{"get_quota_group", map[string]any{"group": "../rules"}, "group"},
		{"add_quota_group_user", map[string]any{"group": "g", "username": "a/b"}, "username"},
		{"set_user_quota_groups", map[string]any{"username": "alice"}, "groups"},
	} {
		res := f.Call(t, quota.Tools(), c.name, c.args)
		require.True(t, res.IsError, "%s %v", c.name, c.args)
		assert.Contains(t, fakeforge.Text(t, res), c.want, c.name)
	}
	for _, r := range f.Requests() {
		assert.Equal(t, "/api/v1/version", r.Path, "nothing sent")
	}
}

// TestAdminForbidden: a token whose user is not a site administrator gets
// a 403 that names the right, not a repository's; one without the admin
// scope gets one naming the scope. Every admin tool says so.
func TestAdminForbidden(t *testing.T) {
	for _, c := range []struct{ message, want string }{
		{"user should be the site admin", "only a site administrator may do this: the token's user is not one (use a site administrator's token)"},
		{"token does not have at least one of required scope(s): [write:admin]", "site administration needs a token with the read:admin (reads) or write:admin (changes) scope"},
	} {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
		f.Handle("/api/v1/admin/", func(w http.ResponseWriter, _ *http.Request) {
			fakeforge.WriteJSON(w, http.StatusForbidden, map[string]any{"message": c.message})
		})
		for _, d := range quota.Tools() {
			if d.Toolset.ID != "admin" {
				continue
			}
			res := f.Call(t, quota.Tools(), d.Name, sampleArgs(d))
			text := fakeforge.Text(t, res)
			require.True(t, res.IsError, d.Name)
			assert.Contains(t, text, "permission denied (403): "+c.message+"; "+c.want, d.Name)
		}
	}
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
	f.JSON("GET /api/v1/admin/quota/rules/gone", 404, map[string]any{"message": "quota rule does not exist"})
	f.JSON("POST /api/v1/admin/quota/groups", 409, map[string]any{"message": "quota group already exists"})
	res := f.Call(t, quota.Tools(), "get_quota_rule", map[string]any{"rule": "gone"})
	assert.Contains(t, fakeforge.Text(t, res), "quota rule gone not found (404)")
	res = f.Call(t, quota.Tools(), "create_quota_group", map[string]any{"name": "small"})
	assert.Contains(t, fakeforge.Text(t, res), "create quota group small: conflict (409)")
}

// sampleArgs are arguments every parameter of d accepts.
func sampleArgs(d tool.Def) map[string]any {
	args := map[string]any{}
	for _, p := range d.Params {
		switch {
		case !p.Required && p.Name != "limit_bytes":
		case p.Type == tool.TypeList && len(p.Enum) > 0:
			args[p.Name] = []any{p.Enum[0]}
		case p.Type == tool.TypeList:
			args[p.Name] = []any{"x"}
		case len(p.Enum) > 0:
			args[p.Name] = p.Enum[0]
		case p.Type == tool.TypeInteger:
			args[p.Name] = 1.0
		default:
			args[p.Name] = "x"
		}
	}
	return args
}

// TestToolsets: the quota toolset is in all but not the default; the site
// administrator's quota tools are in admin, which all leaves out and only
// a selection naming it offers.
func TestToolsets(t *testing.T) {
	names := func(sel tool.Selection) map[string]bool {
		got, err := tool.Select(operation.All(), sel)
		require.NoError(t, err)
		out := map[string]bool{}
		for _, d := range got {
			out[d.Name] = true
		}
		return out
	}
	all := names(tool.Selection{Toolsets: []string{"all"}})
	def := names(tool.Selection{Toolsets: []string{"default"}})
	named := names(tool.Selection{Toolsets: []string{"admin"}})
	var user, admin int
	for _, d := range quota.Tools() {
		switch d.Toolset.ID {
		case "quota":
			user++
			assert.True(t, all[d.Name], "all offers %s", d.Name)
			assert.False(t, def[d.Name], "the default leaves out %s", d.Name)
		case "admin":
			admin++
			assert.True(t, d.Toolset.Explicit)
			assert.False(t, all[d.Name], "all leaves out %s", d.Name)
			assert.True(t, named[d.Name], "--toolsets admin offers %s", d.Name)
		default:
			t.Errorf("%s is in toolset %s", d.Name, d.Toolset.ID)
		}
	}
	assert.Equal(t, 3, user)
	assert.Equal(t, 16, admin)
}
