package admin_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/admin"
)

// caller returns a function that calls an admin tool as f's token, fails
// the test on an isError result and returns the text.
func caller(t *testing.T, f *testforge.Forge) func(name string, args map[string]any) string {
	return func(name string, args map[string]any) string {
		t.Helper()
		res := f.Call(t, admin.Tools(), name, args)
		require.False(t, res.IsError, "%s: %s", name, fakeforge.Text(t, res))
		return fakeforge.Text(t, res)
	}
}

// deleteUserAtEnd deletes the logins (and all they own) when the test
// ends, whichever of them exists then.
func deleteUserAtEnd(t *testing.T, f *testforge.Forge, logins ...string) {
	t.Cleanup(func() {
		for _, l := range logins {
			f.Do(t, http.MethodDelete, "/admin/users/"+url.PathEscape(l)+"?purge=true", nil, nil)
		}
	})
}

// publicKey is a fresh ed25519 public key line.
func publicKey(t *testing.T) string {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	var b []byte
	for _, part := range [][]byte{[]byte("ssh-ed25519"), pub} {
		b = binary.BigEndian.AppendUint32(b, uint32(len(part)))
		b = append(b, part...)
	}
	return "ssh-ed25519 " + base64.StdEncoding.EncodeToString(b) + " live@test"
}

// TestLiveUsers: a site administrator creates a user (the password never
// comes back), finds it in the list, edits it (Gitea requires the login
// name and source of every edit: the tool sends the user's own), makes an
// organisation, a repository and a key in its name, renames it and
// deletes it with everything it owns.
func TestLiveUsers(t *testing.T) {
	f := testforge.Get(t)
	call := caller(t, f)
	login := fmt.Sprintf("adm%d", time.Now().UnixNano()%1e9)
	renamed := login + "r"
	deleteUserAtEnd(t, f, login, renamed)
	const pw = "Live-pw-never-returned-8842"

	var u admin.User
	text := call("create_site_user", map[string]any{"username": login, "email": login + "@example.invalid", "password": pw,
		"must_change_password": false, "full_name": "Live Admin Test"})
	assert.NotContains(t, text, pw)
	require.NoError(t, json.Unmarshal([]byte(text), &u))
	assert.Equal(t, login, u.Login)
	assert.Equal(t, login+"@example.invalid", u.Email)
	assert.Equal(t, "Live Admin Test", u.FullName)
	assert.False(t, u.IsAdmin)
	assert.NotNil(t, u.Created)

	// The same login again: the forge's refusal, without the password.
	res := f.Call(t, admin.Tools(), "create_site_user", map[string]any{"username": login, "email": login + "2@example.invalid", "password": pw})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "create user "+login)
	assert.NotContains(t, fakeforge.Text(t, res), pw)

	found := false
	for page := 1; page <= 20 && !found; page++ {
		var list struct {
			Items   []admin.User `json:"items"`
			HasMore bool         `json:"has_more"`
		}
		require.NoError(t, json.Unmarshal([]byte(call("list_site_users", map[string]any{"page": page, "limit": 50})), &list))
		for _, it := range list.Items {
			found = found || it.Login == login
		}
		if !list.HasMore {
			break
		}
	}
	assert.True(t, found, "list_site_users lists %s", login)

	require.NoError(t, json.Unmarshal([]byte(call("edit_site_user", map[string]any{"user": login, "prohibit_login": true,
		"restricted": true, "full_name": "Edited", "password": pw + "2"})), &u))
	assert.True(t, u.ProhibitLogin)
	assert.True(t, u.Restricted)
	assert.Equal(t, "Edited", u.FullName)
	// Fields left out of the result when false: decode into a fresh value.
	u = admin.User{}
	require.NoError(t, json.Unmarshal([]byte(call("edit_site_user", map[string]any{"user": login, "admin": true, "prohibit_login": false})), &u))
	assert.True(t, u.IsAdmin)
	assert.False(t, u.ProhibitLogin)
	u = admin.User{}
	require.NoError(t, json.Unmarshal([]byte(call("edit_site_user", map[string]any{"user": login, "admin": false})), &u))
	assert.False(t, u.IsAdmin)

	var org admin.Org
	require.NoError(t, json.Unmarshal([]byte(call("create_site_user_org", map[string]any{"user": login, "org": login + "-org",
		"visibility": "limited"})), &org))
	assert.Equal(t, login+"-org", org.Name)
	assert.Equal(t, "limited", org.Visibility)
	t.Cleanup(func() { f.Do(t, http.MethodDelete, "/orgs/"+login+"-org", nil, nil) })

	var repo admin.Repo
	require.NoError(t, json.Unmarshal([]byte(call("create_site_user_repo", map[string]any{"user": login, "repo": "made",
		"private": true, "auto_init": true})), &repo))
	assert.Equal(t, login+"/made", repo.FullName)
	assert.True(t, repo.Private)
	assert.False(t, repo.Empty)

	var key admin.Key
	require.NoError(t, json.Unmarshal([]byte(call("add_site_user_key", map[string]any{"user": login, "title": "laptop",
		"key": publicKey(t)})), &key))
	assert.NotZero(t, key.ID)
	assert.NotEmpty(t, key.Fingerprint)
	assert.JSONEq(t, fmt.Sprintf(`{"deleted":true,"key_id":%d}`, key.ID),
		call("delete_site_user_key", map[string]any{"user": login, "key_id": key.ID}))

	assert.JSONEq(t, fmt.Sprintf(`{"renamed":true,"user":%q,"new_username":%q}`, login, renamed),
		call("rename_site_user", map[string]any{"user": login, "new_username": renamed}))
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/users/"+renamed, nil, nil))

	assert.JSONEq(t, fmt.Sprintf(`{"deleted":true,"user":%q}`, renamed),
		call("delete_site_user", map[string]any{"user": renamed, "purge": true}))
	require.Equal(t, http.StatusNotFound, f.Do(t, http.MethodGet, "/users/"+renamed, nil, nil))
	res = f.Call(t, admin.Tools(), "delete_site_user", map[string]any{"user": renamed})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}

// TestLiveNotSiteAdmin: an ordinary user's token, and a site
// administrator's without the admin scope, are told what they lack.
func TestLiveNotSiteAdmin(t *testing.T) {
	f := testforge.Get(t)
	user := f.WithToken(f.Token2)
	for name, args := range map[string]map[string]any{
		"list_site_users":                    {},
		"create_site_user":                   {"username": "never", "email": "never@example.invalid", "password": "x-Never-1234"},
		"list_site_cron_tasks":               {},
		"run_site_cron_task":                 {"task": "update_mirrors"},
		"list_site_hooks":                    {},
		"list_site_emails":                   {},
		"list_site_unadopted_repos":          {},
		"get_site_runner_registration_token": {},
		"list_site_runners":                  {},
	} {
		res := user.Call(t, admin.Tools(), name, args)
		require.True(t, res.IsError, name)
		assert.Contains(t, fakeforge.Text(t, res), "only a site administrator may do this", name)
		assert.NotContains(t, fakeforge.Text(t, res), "x-Never-1234")
	}
	noScope := f.WithToken(f.TokenWithScopes(t, "read:user"))
	res := noScope.Call(t, admin.Tools(), "list_site_users", map[string]any{})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "read:admin (reads) or write:admin (changes) scope")
}
