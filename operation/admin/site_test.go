package admin_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/admin"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/meta"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestSiteLists: organisations, e-mails, cron tasks and unadopted
// repositories, each on its route with its query, compact.
func TestSiteLists(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("GET /api/v1/admin/orgs", 200, []any{map[string]any{"id": 3, "name": "acme", "username": "acme", "full_name": "Acme",
		"visibility": "private", "avatar_url": "http://x/a", "email": "x@acme"}})
	email := map[string]any{"email": "a@example.org", "username": "alice", "user_id": 7, "verified": true, "primary": true}
	f.JSON("GET /api/v1/admin/emails", 200, []any{email})
	f.JSON("GET /api/v1/admin/emails/search", 200, []any{email})
	f.JSON("GET /api/v1/admin/cron", 200, []any{map[string]any{"name": "update_mirrors", "schedule": "@every 10m",
		"next": "2026-01-02T03:14:05Z", "prev": "2026-01-02T03:04:05Z", "exec_times": 12}})
	f.JSON("GET /api/v1/admin/unadopted", 200, []string{"alice/old", "acme/lost"})

	for _, c := range []struct {
		tool  string
		args  map[string]any
		query map[string]string
		want  string
	}{
		{"list_site_orgs", map[string]any{}, nil,
			`{"items":[{"id":3,"name":"acme","full_name":"Acme","visibility":"private"}],"page":1,"has_more":false}`},
		{"list_site_emails", map[string]any{}, nil,
			`{"items":[{"email":"a@example.org","user":"alice","user_id":7,"verified":true,"primary":true}],"page":1,"has_more":false}`},
		{"search_site_emails", map[string]any{"query": "example"}, map[string]string{"q": "example"},
			`{"items":[{"email":"a@example.org","user":"alice","user_id":7,"verified":true,"primary":true}],"page":1,"has_more":false}`},
		{"list_site_cron_tasks", map[string]any{}, nil,
			`{"items":[{"name":"update_mirrors","schedule":"@every 10m","next":"2026-01-02T03:14:05Z","prev":"2026-01-02T03:04:05Z","exec_times":12}],"page":1,"has_more":false}`},
		{"list_site_unadopted_repos", map[string]any{"pattern": "alice/*", "limit": 2.0}, map[string]string{"pattern": "alice/*", "limit": "2"},
			`{"items":[{"full_name":"alice/old"},{"full_name":"acme/lost"}],"page":1,"has_more":true}`},
	} {
		t.Run(c.tool, func(t *testing.T) {
			isErr, text := call(t, f, &logs, c.tool, c.args)
			require.False(t, isErr, text)
			assert.JSONEq(t, c.want, text)
			q := f.LastQuery(t)
			for k, v := range c.query {
				assert.Equal(t, v, q.Get(k), k)
			}
		})
	}
}

func TestCronAndUnadopted(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("POST /api/v1/admin/cron/update_mirrors", 204, nil)
	f.JSON("POST /api/v1/admin/cron/nope", 404, map[string]any{"message": "Not Found"})
	f.JSON("POST /api/v1/admin/unadopted/alice/old", 204, nil)
	f.JSON("DELETE /api/v1/admin/unadopted/alice/old", 204, nil)

	isErr, text := call(t, f, &logs, "run_site_cron_task", map[string]any{"task": "update_mirrors"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"started":true,"task":"update_mirrors"}`, text)
	isErr, text = call(t, f, &logs, "run_site_cron_task", map[string]any{"task": "nope"})
	require.True(t, isErr)
	assert.Contains(t, text, "cron task nope (list_site_cron_tasks names them) not found (404)")
	sent := len(f.Requests())
	isErr, text = call(t, f, &logs, "run_site_cron_task", map[string]any{"task": "../users"})
	require.True(t, isErr)
	assert.Contains(t, text, "invalid arguments")
	assert.Len(t, f.Requests(), sent, "a bad name is never sent")

	isErr, text = call(t, f, &logs, "adopt_site_unadopted_repo", map[string]any{"owner": "alice", "repo": "old"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"adopted":true,"full_name":"alice/old"}`, text)
	isErr, text = call(t, f, &logs, "delete_site_unadopted_repo", map[string]any{"owner": "alice", "repo": "old"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"full_name":"alice/old"}`, text)
	assert.Equal(t, "DELETE", last(t, f).Method)
}

// TestOwned: an organisation, a repository and a key made in a user's
// name; what is not a public key is never sent.
func TestOwned(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("POST /api/v1/admin/users/alice/orgs", 201, map[string]any{"id": 4, "name": "acme", "username": "acme", "visibility": "limited"})
	f.JSON("POST /api/v1/admin/users/alice/repos", 201, map[string]any{"id": 9, "name": "r", "full_name": "alice/r", "private": true,
		"default_branch": "main", "empty": true, "clone_url": "http://x/alice/r.git", "owner": map[string]any{"login": "alice"}})
	f.JSON("POST /api/v1/admin/users/alice/keys", 201, map[string]any{"id": 5, "title": "laptop", "fingerprint": "SHA256:abc",
		"key": "ssh-ed25519 AAAA", "read_only": false, "created_at": "2026-01-02T03:04:05Z"})
	f.JSON("DELETE /api/v1/admin/users/alice/keys/5", 204, nil)

	isErr, text := call(t, f, &logs, "create_site_user_org", map[string]any{"user": "alice", "org": "acme", "visibility": "limited"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"id":4,"name":"acme","visibility":"limited"}`, text)
	assert.Equal(t, map[string]any{"username": "acme", "visibility": "limited"}, body(t, last(t, f)))

	isErr, text = call(t, f, &logs, "create_site_user_repo", map[string]any{"user": "alice", "repo": "r", "private": true})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"id":9,"full_name":"alice/r","private":true,"default_branch":"main","empty":true,"clone_url":"http://x/alice/r.git"}`, text)
	assert.Equal(t, map[string]any{"name": "r", "private": true, "auto_init": false}, body(t, last(t, f)))

	const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAgi2TBGx0M0Jt+ckTOLGV6/N79tyBwapTLBRxOkY6c9 me@laptop"
	isErr, text = call(t, f, &logs, "add_site_user_key", map[string]any{"user": "alice", "title": "laptop", "key": key})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"id":5,"title":"laptop","fingerprint":"SHA256:abc","created_at":"2026-01-02T03:04:05Z"}`, text)
	assert.Equal(t, key, body(t, last(t, f))["key"])

	const private = "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA"
	sent := len(f.Requests())
	isErr, text = call(t, f, &logs, "add_site_user_key", map[string]any{"user": "alice", "title": "oops", "key": private})
	require.True(t, isErr)
	assert.Contains(t, text, "not an OpenSSH public key line")
	assert.NotContains(t, text, "b3BlbnNzaC1rZXktdjEAAAAA")
	assert.NotContains(t, logs.String(), "b3BlbnNzaC1rZXktdjEAAAAA")
	assert.Len(t, f.Requests(), sent)

	isErr, text = call(t, f, &logs, "delete_site_user_key", map[string]any{"user": "alice", "key_id": 5.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"key_id":5}`, text)
}

// TestSiteHooks: the webhook tools on /admin/hooks; a hook's secret and
// authorization header never come back.
func TestSiteHooks(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	hook := map[string]any{"id": 2, "type": "gitea", "active": true, "events": []string{"push"}, "branch_filter": "main",
		"authorization_header": "Bearer hunter2", "updated_at": "2026-01-02T03:04:05Z",
		"config": map[string]any{"url": "https://ci.example/hook", "content_type": "json", "secret": "hunter2"}}
	f.JSON("GET /api/v1/admin/hooks", 200, []any{hook})
	f.JSON("GET /api/v1/admin/hooks/2", 200, hook)
	f.JSON("POST /api/v1/admin/hooks", 201, hook)
	f.JSON("PATCH /api/v1/admin/hooks/2", 200, hook)
	f.JSON("DELETE /api/v1/admin/hooks/2", 204, nil)
	const one = `{"id":2,"type":"gitea","url":"https://ci.example/hook","content_type":"json","events":["push"],"branch_filter":"main","active":true,"updated_at":"2026-01-02T03:04:05Z"}`

	isErr, text := call(t, f, &logs, "list_site_hooks", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[`+one+`],"page":1,"has_more":false}`, text)
	assert.Equal(t, "all", f.LastQuery(t).Get("type"), "Gitea lists system hooks only unless asked for all")
	isErr, text = call(t, f, &logs, "get_site_hook", map[string]any{"hook_id": 2.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, one, text)
	isErr, text = call(t, f, &logs, "create_site_hook", map[string]any{"target_url": "https://ci.example/hook", "secret": "hunter2"})
	require.False(t, isErr, text)
	assert.JSONEq(t, one, text)
	assert.Equal(t, "/api/v1/admin/hooks", last(t, f).Path)
	assert.Equal(t, map[string]any{"url": "https://ci.example/hook", "content_type": "json", "secret": "hunter2", "is_system_webhook": "true"},
		body(t, last(t, f))["config"])
	isErr, text = call(t, f, &logs, "create_site_hook", map[string]any{"target_url": "https://ci.example/hook", "kind": "default"})
	require.False(t, isErr, text)
	assert.Equal(t, "false", body(t, last(t, f))["config"].(map[string]any)["is_system_webhook"])
	isErr, text = call(t, f, &logs, "edit_site_hook", map[string]any{"hook_id": 2.0, "active": false})
	require.False(t, isErr, text)
	assert.Equal(t, "PATCH", last(t, f).Method)
	isErr, text = call(t, f, &logs, "delete_site_hook", map[string]any{"hook_id": 2.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"id":2}`, text)
	assert.NotContains(t, logs.String(), "hunter2")
}

// TestSiteRunners: the runner tools on the site's routes: Forgejo hands
// out the token on its /admin/runners route (every described version has
// it), Gitea on POST; Forgejo 13 lacks the runner list and Gitea the job
// search: refused before sending.
func TestSiteRunners(t *testing.T) {
	for _, c := range []struct{ version, method, route string }{
		{"13.0.5+gitea-1.22.0", "GET", "/api/v1/admin/runners/registration-token"},
		{"15.0.3+gitea-1.22.0", "GET", "/api/v1/admin/runners/registration-token"},
		{"1.26.0", "POST", "/api/v1/admin/actions/runners/registration-token"},
	} {
		t.Run(c.version, func(t *testing.T) {
			f := fakeforge.New(t)
			var logs bytes.Buffer
			f.JSON("GET /api/v1/version", 200, map[string]any{"version": c.version})
			f.JSON(c.method+" "+c.route, 200, map[string]any{"token": "REGTOKEN-secret"})
			isErr, text := call(t, f, &logs, "get_site_runner_registration_token", map[string]any{})
			require.False(t, isErr, text)
			assert.Contains(t, text, `"token":"REGTOKEN-secret"`)
			assert.NotContains(t, logs.String(), "REGTOKEN-secret")
		})
	}

	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
	f.JSON("GET /api/v1/admin/actions/runners", 200, []any{map[string]any{"id": 3, "name": "r1", "status": "idle", "labels": []string{"docker"}}})
	f.JSON("GET /api/v1/admin/runners/jobs", 200, []any{map[string]any{"id": 12, "name": "build", "status": "waiting", "runs_on": []string{"docker"}}})
	isErr, text := call(t, f, &logs, "list_site_runners", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"id":3,"name":"r1","status":"idle","labels":["docker"]}],"page":1,"has_more":false}`, text)
	isErr, text = call(t, f, &logs, "search_site_runner_jobs", map[string]any{"labels": "docker"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"id":12,"name":"build","status":"waiting","runs_on":["docker"]}]}`, text)

	for _, c := range []struct{ version, tool string }{
		{"13.0.5+gitea-1.22.0", "list_site_runners"},
		{"1.26.0", "search_site_runner_jobs"},
		{"1.26.0", "register_site_runner"},
	} {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/version", 200, map[string]any{"version": c.version})
		args := map[string]any{}
		if c.tool == "register_site_runner" {
			args["name"] = "x"
		}
		isErr, text := call(t, f, &logs, c.tool, args)
		require.True(t, isErr, c.tool)
		assert.Contains(t, text, "has no such API route, so nothing was sent", c.tool)
		assert.Len(t, f.Requests(), 1, "only the version probe")
	}
}

// TestSiteRunsAndJobs: Gitea's lists of every repository's runs and
// jobs, compact, filtered; Forgejo lacks them: refused before sending.
func TestSiteRunsAndJobs(t *testing.T) {
	f := fakeforge.New(t)
	var logs bytes.Buffer
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "1.26.0"})
	f.JSON("GET /api/v1/admin/actions/runs", 200, map[string]any{"total_count": 3, "workflow_runs": []any{map[string]any{
		"id": 8, "run_number": 2, "path": "ci.yml@refs/heads/main", "display_title": "Fix it", "status": "completed",
		"conclusion": "success", "event": "push", "head_branch": "main", "head_sha": "abc", "actor": map[string]any{"login": "alice", "avatar_url": "x"},
		"repository": map[string]any{"full_name": "alice/r", "id": 4}, "started_at": "2026-01-02T03:04:05Z",
		"completed_at": "1970-01-01T00:00:00Z", "html_url": "http://x/alice/r/actions/runs/2"}}})
	f.JSON("GET /api/v1/admin/actions/jobs", 200, map[string]any{"total_count": 1, "jobs": []any{map[string]any{
		"id": 12, "run_id": 8, "name": "build", "status": "queued", "labels": []string{"docker"}, "steps": []any{},
		"started_at": "0001-01-01T00:00:00Z", "html_url": "http://x/alice/r/actions/runs/2/jobs/0"}}})

	isErr, text := call(t, f, &logs, "list_site_workflow_runs", map[string]any{"status": "success", "branch": "main", "limit": 1.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"id":8,"repo":"alice/r","run_number":2,"workflow":"ci.yml@refs/heads/main","title":"Fix it",`+
		`"status":"completed","conclusion":"success","event":"push","branch":"main","sha":"abc","actor":"alice",`+
		`"started":"2026-01-02T03:04:05Z","html_url":"http://x/alice/r/actions/runs/2"}],"page":1,"has_more":true}`, text)
	q := f.LastQuery(t)
	assert.Equal(t, "success", q.Get("status"))
	assert.Equal(t, "main", q.Get("branch"))
	isErr, text = call(t, f, &logs, "list_site_action_jobs", map[string]any{"status": "queued"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"id":12,"run_id":8,"name":"build","status":"queued","labels":["docker"],`+
		`"html_url":"http://x/alice/r/actions/runs/2/jobs/0"}],"page":1,"has_more":false}`, text)

	for _, name := range []string{"list_site_workflow_runs", "list_site_action_jobs"} {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
		isErr, text := call(t, f, &logs, name, map[string]any{})
		require.True(t, isErr, name)
		assert.Contains(t, text, "has no such API route, so nothing was sent", name)
		assert.Contains(t, text, "list_workflow_runs and list_action_run_jobs read one repository's", name)
		assert.Len(t, f.Requests(), 1, "only the version probe")
	}
}

// TestSelection: "all" never offers site administration; naming the
// toolset (admin, +admin) or one of its tools does.
func TestSelection(t *testing.T) {
	inv := operation.All()
	count := func(words []string, tools ...string) (n, adminN int) {
		got, err := tool.Select(inv, tool.Selection{Toolsets: words, Tools: tools})
		require.NoError(t, err)
		for _, d := range got {
			if d.Toolset.ID == admin.Toolset.ID {
				adminN++
			}
		}
		return len(got), adminN
	}
	_, total := count([]string{"admin"})
	assert.Equal(t, 31, len(admin.Tools()))
	assert.Greater(t, total, len(admin.Tools()), "the quota package adds its site tools to admin")
	_, n := count([]string{"all"})
	assert.Zero(t, n, "all leaves admin out")
	_, n = count(nil)
	assert.Zero(t, n, "the default leaves admin out")
	all, n := count([]string{"admin"})
	assert.Equal(t, total, n)
	assert.Equal(t, total, all, "admin alone is the admin tools")
	_, n = count([]string{"+admin"})
	assert.Equal(t, total, n)
	_, n = count([]string{"all", "admin"})
	assert.Equal(t, total, n)
	_, n = count([]string{"all"}, "list_site_users")
	assert.Equal(t, 1, n, "a tool named is kept")
}

// TestSearchFindsAdminTools: search_tools' ranking puts site
// administration first for "admin user" and "site users".
func TestSearchFindsAdminTools(t *testing.T) {
	for _, q := range []string{"admin user", "admin create user", "site users", "admin cron"} {
		ranked := meta.Rank(operation.All(), q)
		require.NotEmpty(t, ranked, q)
		assert.Equal(t, "admin", ranked[0].Toolset.ID, "%q ranks %s first", q, ranked[0].Name)
	}
	var top []string
	for _, d := range meta.Rank(operation.All(), "admin create user")[:3] {
		top = append(top, d.Name)
	}
	assert.Contains(t, top, "create_site_user")
	assert.True(t, strings.HasPrefix(meta.Rank(operation.All(), "admin cron")[0].Name, "list_site_cron") ||
		strings.HasPrefix(meta.Rank(operation.All(), "admin cron")[0].Name, "run_site_cron"))
}
