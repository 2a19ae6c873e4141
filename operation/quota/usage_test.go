package quota_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/quota"
)

// mimic is a fake forge answering in the shapes of a described forge:
// "forgejo-13.0.5", "forgejo-15.0.3", "forgejo" (the v17 snapshot) or
// "gitea".
func mimic(t *testing.T, spec string) *fakeforge.Server {
	t.Helper()
	s, err := fakeforge.LoadSpec(spec)
	require.NoError(t, err)
	f := fakeforge.New(t)
	f.Mimic(s)
	return f
}

// forgejos are the described Forgejo versions, all of which have quota.
var forgejos = []string{"forgejo-13.0.5", "forgejo-15.0.3", "forgejo"}

func run(t *testing.T, f *fakeforge.Server, name string, args map[string]any) string {
	t.Helper()
	res := f.Call(t, quota.Tools(), name, args)
	text := fakeforge.Text(t, res)
	require.False(t, res.IsError, "%s: %s", name, text)
	return text
}

// sent is the last request: method, path and query.
func sent(f *fakeforge.Server) string {
	r := f.Requests()
	last := r[len(r)-1]
	if last.RawQuery != "" {
		return last.Method + " " + last.Path + "?" + last.RawQuery
	}
	return last.Method + " " + last.Path
}

// TestUsageOnForgejo: the quota of your account and of an organisation,
// what counts towards it per kind, and the check of a write, on every
// described Forgejo: every field of the forge's answer lands in the
// result.
func TestUsageOnForgejo(t *testing.T) {
	for _, spec := range forgejos {
		t.Run(spec, func(t *testing.T) {
			f := mimic(t, spec)
			for _, c := range []struct {
				args map[string]any
				head string
				who  string
			}{
				{map[string]any{}, "/api/v1/user/quota", "your account"},
				{map[string]any{"org": "acme"}, "/api/v1/orgs/acme/quota", "organisation acme"},
			} {
				with := func(kv ...any) map[string]any {
					out := map[string]any{}
					for k, v := range c.args {
						out[k] = v
					}
					for i := 0; i < len(kv); i += 2 {
						out[kv[i].(string)] = kv[i+1]
					}
					return out
				}
				assert.JSONEq(t, `{"groups":[{"name":"name-v","rules":[{"name":"name-v","limit_bytes":3,"subjects":["subjects-v"]}]}],
					"used":{"repos_public":3,"repos_private":3,"git_lfs":3,"attachments_issues":3,"attachments_releases":3,"artifacts":3,"packages":3}}`,
					run(t, f, "get_quota", with()))
				assert.Equal(t, "GET "+c.head, sent(f))

				want := map[string]string{
					"artifacts":   `{"name":"name-v","size":3,"html_url":"http://forge.example/html_url"}`,
					"attachments": `{"name":"name-v","size":3,"html_url":"http://forge.example/html_url"}`,
					"packages":    `{"name":"name-v","size":3,"type":"type-v","version":"version-v","html_url":"http://forge.example/html_url"}`,
				}
				for _, kind := range quota.Kinds {
					assert.JSONEq(t, `{"items":[`+want[kind]+`],"page":1,"has_more":false}`,
						run(t, f, "list_quota_usage", with("kind", kind)), kind)
					assert.Equal(t, "GET "+c.head+"/"+kind+"?limit=20&page=1", sent(f))
				}
				run(t, f, "list_quota_usage", with("kind", "packages", "page", 2.0, "limit", 1.0))
				assert.Equal(t, "GET "+c.head+"/packages?limit=1&page=2", sent(f))

				var check quota.Check
				require.NoError(t, json.Unmarshal([]byte(run(t, f, "check_quota", with("subject", "size:assets:packages:all"))), &check))
				assert.Equal(t, quota.Check{Subject: "size:assets:packages:all", Allowed: true, For: c.who}, check)
				assert.Equal(t, "GET "+c.head+"/check?subject=size%3Aassets%3Apackages%3Aall", sent(f))
			}
		})
	}
}

// TestUsageArguments: a kind or subject the forge does not know, and a
// name that could change the route, are refused before anything is sent.
func TestUsageArguments(t *testing.T) {
	f := mimic(t, "forgejo-15.0.3")
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"list_quota_usage", map[string]any{"kind": "repos"}},
		{"list_quota_usage", map[string]any{}},
		{"check_quota", map[string]any{"subject": "size:everything"}},
		{"check_quota", map[string]any{}},
		{"get_quota", map[string]any{"org": "../admin"}},
		{"get_quota", map[string]any{"org": "a/b"}},
	} {
		res := f.Call(t, quota.Tools(), c.name, c.args)
		assert.True(t, res.IsError, "%s %v", c.name, c.args)
	}
	for _, r := range f.Requests() {
		assert.Equal(t, "/api/v1/version", r.Path, "nothing sent")
	}
}

// TestUsageFailures: the forge's refusals name the account.
func TestUsageFailures(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
	f.JSON("GET /api/v1/orgs/ghost/quota", 404, map[string]any{"message": "org does not exist"})
	f.JSON("GET /api/v1/orgs/acme/quota/artifacts", 403, map[string]any{"message": "not a member"})
	f.JSON("GET /api/v1/user/quota/check", 422, map[string]any{"message": "invalid quota subject"})
	for _, c := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"get_quota", map[string]any{"org": "ghost"}, "organisation ghost not found (404): it does not exist or this token cannot see it: org does not exist"},
		{"list_quota_usage", map[string]any{"org": "acme", "kind": "artifacts"}, "list the artifacts counting towards the quota of organisation acme: permission denied (403): not a member"},
		{"check_quota", map[string]any{"subject": "size:all"}, "check size:all against the quota of your account"},
	} {
		res := f.Call(t, quota.Tools(), c.name, c.args)
		require.True(t, res.IsError, c.name)
		assert.Contains(t, fakeforge.Text(t, res), c.want)
	}
}

// TestGiteaRefuses: Gitea has no quota; every tool is refused before
// anything is sent, naming the versions that have the route.
func TestGiteaRefuses(t *testing.T) {
	f := mimic(t, "gitea")
	for _, d := range quota.Tools() {
		args := sampleArgs(d)
		if d.Name == "edit_quota_rule" {
			args["limit_bytes"] = 1.0
		}
		res := f.Call(t, quota.Tools(), d.Name, args)
		text := fakeforge.Text(t, res)
		require.True(t, res.IsError, "%s: %s", d.Name, text)
		assert.Contains(t, text, "this forge (Gitea 1.26.0) has no such API route, so nothing was sent", d.Name)
		assert.Contains(t, text, "13.0.5, 15.0.3 and 17.0.0-dev have it; Gitea 1.26.0 lacks it", d.Name)
	}
	for _, r := range f.Requests() {
		assert.Equal(t, "/api/v1/version", r.Path, "nothing sent")
	}
}
