package repoadmin_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repoadmin"
)

// TestLivePushMirror: a repository is pushed to another repository of the
// same forge (scripts/test-forge allows local addresses), synced now and
// the mirror removed; the password never comes back.
func TestLivePushMirror(t *testing.T) {
	f := testforge.Get(t)
	require.NotEmpty(t, f.Password, "the push needs the user's password")
	owner, src := f.NewRepo(t)
	_, dst := f.NewRepo(t)
	call := f.RepoCaller(t, repoadmin.Tools(), owner, src)

	var m repoadmin.PushMirror
	text := call("add_push_mirror", map[string]any{"remote_address": f.URL + "/" + owner + "/" + dst + ".git",
		"remote_username": f.User, "remote_password": f.Password, "interval": "8h0m0s"})
	assert.NotContains(t, text, f.Password)
	require.NoError(t, json.Unmarshal([]byte(text), &m))
	assert.Equal(t, f.URL+"/"+owner+"/"+dst+".git", m.RemoteAddress)
	assert.Empty(t, m.LastUpdate, "never pushed yet")

	assert.JSONEq(t, `{"queued":true,"full_name":"`+owner+"/"+src+`"}`, call("sync_push_mirrors", map[string]any{}))
	var list struct{ Items []repoadmin.PushMirror }
	require.NoError(t, json.Unmarshal([]byte(call("list_push_mirrors", map[string]any{})), &list))
	require.Len(t, list.Items, 1)
	assert.Equal(t, m.RemoteName, list.Items[0].RemoteName)
	assert.Empty(t, list.Items[0].LastError)
	assert.NotEmpty(t, list.Items[0].LastUpdate, "pushed")

	assert.JSONEq(t, `{"deleted":true,"remote_name":"`+m.RemoteName+`"}`, call("delete_push_mirror", map[string]any{"remote_name": m.RemoteName}))
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, call("list_push_mirrors", map[string]any{}))
}

// TestLiveMigrateAndSyncMirror: a repository of the same forge is
// migrated in as a private pull mirror with the token (never echoed), the
// mirror synced; a non-mirror cannot be synced, and a local path cannot
// be migrated, each with the forge's reason.
func TestLiveMigrateAndSyncMirror(t *testing.T) {
	f := testforge.Get(t)
	owner, src := f.NewRepo(t)
	name := src + "-copy"
	t.Cleanup(func() { f.Do(t, http.MethodDelete, "/repos/"+owner+"/"+name, nil, nil) })

	res := f.Call(t, repoadmin.Tools(), "migrate_repo", map[string]any{"clone_addr": f.URL + "/" + owner + "/" + src + ".git",
		"repo_name": name, "auth_token": f.Token, "mirror": true, "private": true, "service": "gitea"})
	text := fakeforge.Text(t, res)
	require.False(t, res.IsError, text)
	assert.NotContains(t, text, f.Token)
	assert.Contains(t, text, `"full_name":"`+owner+"/"+name+`"`)
	assert.Contains(t, text, `"private":true`)

	call := f.RepoCaller(t, repoadmin.Tools(), owner, name)
	assert.JSONEq(t, `{"queued":true,"full_name":"`+owner+"/"+name+`"}`, call("sync_mirror", map[string]any{}))
	assert.Contains(t, call("get_repo_settings", map[string]any{}), `"mirror":true`)

	res = f.Call(t, repoadmin.Tools(), "sync_mirror", map[string]any{"owner": owner, "repo": src})
	require.True(t, res.IsError, "not a mirror")
	assert.Contains(t, fakeforge.Text(t, res), "sync the mirror repository "+owner+"/"+src)

	res = f.Call(t, repoadmin.Tools(), "migrate_repo", map[string]any{"clone_addr": "/tmp/no-such-repo", "repo_name": name + "-2"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "migrate /tmp/no-such-repo into repository "+name+"-2")
}
