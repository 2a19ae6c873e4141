package admin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/admin"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// TestLiveSite: the site's organisations, e-mail addresses and cron
// tasks as a site administrator reads them; a harmless task run now.
func TestLiveSite(t *testing.T) {
	f := testforge.Get(t)
	call := caller(t, f)
	var me struct {
		Email string `json:"email"`
	}
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/user", nil, &me))

	var emails struct {
		Items []admin.Email `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("search_site_emails", map[string]any{"query": me.Email})), &emails))
	require.NotEmpty(t, emails.Items)
	assert.Equal(t, me.Email, emails.Items[0].Email)
	assert.Equal(t, f.User, emails.Items[0].User)
	require.NoError(t, json.Unmarshal([]byte(call("list_site_emails", map[string]any{"limit": 50})), &emails))
	assert.NotEmpty(t, emails.Items)

	org := fmt.Sprintf("live-admin-%d", time.Now().UnixNano()%1e9)
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, "/orgs", map[string]any{"username": org, "visibility": "private"}, nil))
	t.Cleanup(func() { f.Do(t, http.MethodDelete, "/orgs/"+org, nil, nil) })
	found := false
	for page := 1; page <= 20 && !found; page++ {
		var orgs struct {
			Items   []admin.Org `json:"items"`
			HasMore bool        `json:"has_more"`
		}
		require.NoError(t, json.Unmarshal([]byte(call("list_site_orgs", map[string]any{"page": page, "limit": 50})), &orgs))
		found = slices.ContainsFunc(orgs.Items, func(o admin.Org) bool { return o.Name == org && o.Visibility == "private" })
		if !orgs.HasMore {
			break
		}
	}
	assert.True(t, found, "list_site_orgs lists the private organisation %s", org)

	var tasks struct {
		Items []admin.CronTask `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("list_site_cron_tasks", map[string]any{"limit": 50})), &tasks))
	require.NotEmpty(t, tasks.Items)
	names := make([]string, 0, len(tasks.Items))
	for _, task := range tasks.Items {
		names = append(names, task.Name)
		assert.NotEmpty(t, task.Schedule, task.Name)
	}
	task := "update_mirrors"
	if !slices.Contains(names, task) {
		task = names[0]
	}
	assert.JSONEq(t, fmt.Sprintf(`{"started":true,"task":%q}`, task), call("run_site_cron_task", map[string]any{"task": task}))
	res := f.Call(t, admin.Tools(), "run_site_cron_task", map[string]any{"task": "no_such_task"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "cron task no_such_task")
}

// TestLiveUnadopted: a repository directory no account owns is listed,
// adopted (then an ordinary repository), and another deleted from disk.
// The directories are made where the test forge keeps repositories
// (FORGEJO_TEST_STATE/repos, scripts/test-forge's layout); without it
// only the list is read.
func TestLiveUnadopted(t *testing.T) {
	f := testforge.Get(t)
	call := caller(t, f)
	owner := f.NewUser(t).User
	root := filepath.Join(os.Getenv("FORGEJO_TEST_STATE"), "repos")
	if _, err := os.Stat(root); os.Getenv("FORGEJO_TEST_STATE") == "" || err != nil {
		assert.Contains(t, call("list_site_unadopted_repos", map[string]any{}), `"items":`)
		return
	}
	for _, name := range []string{"kept", "dropped"} {
		out, err := exec.Command("git", "init", "--bare", "-q", filepath.Join(root, owner, name+".git")).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	var list struct {
		Items []admin.Unadopted `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("list_site_unadopted_repos", map[string]any{"pattern": owner + "/*"})), &list))
	assert.ElementsMatch(t, []admin.Unadopted{{FullName: owner + "/kept"}, {FullName: owner + "/dropped"}}, list.Items)

	assert.JSONEq(t, fmt.Sprintf(`{"adopted":true,"full_name":"%s/kept"}`, owner),
		call("adopt_site_unadopted_repo", map[string]any{"owner": owner, "repo": "kept"}))
	assert.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/repos/"+owner+"/kept", nil, nil))
	assert.JSONEq(t, fmt.Sprintf(`{"deleted":true,"full_name":"%s/dropped"}`, owner),
		call("delete_site_unadopted_repo", map[string]any{"owner": owner, "repo": "dropped"}))
	_, err := os.Stat(filepath.Join(root, owner, "dropped.git"))
	assert.True(t, os.IsNotExist(err), "the directory is gone: %v", err)
	require.NoError(t, json.Unmarshal([]byte(call("list_site_unadopted_repos", map[string]any{"pattern": owner + "/*"})), &list))
	assert.Empty(t, list.Items)
}

// TestLiveSiteHooks: a system and a default webhook are created with a
// secret that never comes back, read, listed, edited and deleted.
func TestLiveSiteHooks(t *testing.T) {
	f := testforge.Get(t)
	call := caller(t, f)
	const secret = "live-site-s3cret-do-not-return"
	var h struct {
		ID           int64    `json:"id"`
		URL          string   `json:"url"`
		Events       []string `json:"events"`
		BranchFilter string   `json:"branch_filter"`
		Active       bool     `json:"active"`
	}
	text := call("create_site_hook", map[string]any{"target_url": "http://127.0.0.1:9/site-hook", "secret": secret,
		"events": []string{"push", "repository"}, "branch_filter": "main"})
	assert.NotContains(t, text, secret)
	require.NoError(t, json.Unmarshal([]byte(text), &h))
	t.Cleanup(func() { f.Do(t, http.MethodDelete, fmt.Sprintf("/admin/hooks/%d", h.ID), nil, nil) })
	assert.Equal(t, "http://127.0.0.1:9/site-hook", h.URL)
	assert.True(t, h.Active)

	text = call("get_site_hook", map[string]any{"hook_id": h.ID})
	assert.NotContains(t, text, secret)
	assert.Contains(t, text, `"branch_filter":"main"`)
	var dflt struct {
		ID int64 `json:"id"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("create_site_hook", map[string]any{"target_url": "http://127.0.0.1:9/default-hook",
		"kind": "default"})), &dflt))
	t.Cleanup(func() { f.Do(t, http.MethodDelete, fmt.Sprintf("/admin/hooks/%d", dflt.ID), nil, nil) })
	listed := call("list_site_hooks", map[string]any{"limit": 50})
	assert.Contains(t, listed, fmt.Sprintf(`"id":%d`, h.ID), "the system webhook is listed")
	assert.Contains(t, listed, fmt.Sprintf(`"id":%d`, dflt.ID), "the default webhook is listed")
	if f.Identify(t).Flavour() == "Gitea" {
		// Gitea tells the kinds apart when asked for one.
		var system []struct {
			ID int64 `json:"id"`
		}
		require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/admin/hooks?type=system&limit=50", nil, &system))
		ids := make([]int64, 0, len(system))
		for _, s := range system {
			ids = append(ids, s.ID)
		}
		assert.Contains(t, ids, h.ID, "kind system makes a system webhook")
		assert.NotContains(t, ids, dflt.ID, "kind default makes a default webhook")
	}

	text = call("edit_site_hook", map[string]any{"hook_id": h.ID, "active": false})
	require.NoError(t, json.Unmarshal([]byte(text), &h))
	assert.False(t, h.Active)
	assert.Equal(t, "main", h.BranchFilter, "what is not given is kept")
	assert.ElementsMatch(t, []string{"push", "repository"}, h.Events)

	assert.JSONEq(t, fmt.Sprintf(`{"deleted":true,"id":%d}`, h.ID), call("delete_site_hook", map[string]any{"hook_id": h.ID}))
	res := f.Call(t, admin.Tools(), "get_site_hook", map[string]any{"hook_id": h.ID})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}

// TestLiveSiteRunners: the site's registration token (Gitea: POST),
// runner list and every repository's runs and jobs; the routes this forge
// lacks are refused clearly.
func TestLiveSiteRunners(t *testing.T) {
	f := testforge.Get(t)
	call := caller(t, f)
	var tok struct {
		Token string `json:"token"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("get_site_runner_registration_token", map[string]any{})), &tok))
	assert.NotEmpty(t, tok.Token)
	forge, err := f.Client(t).Forge(context.Background())
	require.NoError(t, err)

	for name, route := range map[string][2]string{
		"list_site_runners":       {"GET", "/admin/actions/runners"},
		"search_site_runner_jobs": {"GET", "/admin/runners/jobs"},
		"register_site_runner":    {"POST", "/admin/actions/runners"},
		"list_site_workflow_runs": {"GET", "/admin/actions/runs"},
		"list_site_action_jobs":   {"GET", "/admin/actions/jobs"},
	} {
		args := map[string]any{}
		if name == "register_site_runner" {
			args["name"] = "live-site-runner"
		}
		res := f.Call(t, admin.Tools(), name, args)
		// Gitea's router answers 405 to POST …/runners (it has GET):
		// the route table, not the router, says which routes it lacks.
		rd, declared := forgejo.RouteFor(route[0], route[1])
		if declared && rd.LackedBy(forge) || f.Lacks(t, route[0], route[1]) {
			f.RequireMissingRoute(t, res)
			continue
		}
		text := fakeforge.Text(t, res)
		require.False(t, res.IsError, "%s: %s", name, text)
		if name != "register_site_runner" {
			assert.Contains(t, text, `"items":`, name)
			continue
		}
		var reg struct {
			ID int64 `json:"id"`
		}
		require.NoError(t, json.Unmarshal([]byte(text), &reg))
		assert.JSONEq(t, fmt.Sprintf(`{"deleted":true,"runner_id":%d}`, reg.ID), call("delete_site_runner", map[string]any{"runner_id": reg.ID}))
	}

	// Disabling a runner the site does not have: Gitea's PATCH answers
	// that it is not found, naming it; a Forgejo is refused before sending.
	res := f.Call(t, admin.Tools(), "edit_site_runner", map[string]any{"runner_id": 987654, "disabled": true})
	if rd, declared := forgejo.RouteFor("PATCH", "/admin/actions/runners/{runner_id}"); declared && rd.LackedBy(forge) {
		f.RequireMissingRoute(t, res)
		return
	}
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "runner 987654")
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}
