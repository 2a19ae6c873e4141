package repoadmin_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repoadmin"
)

// TestLiveDeleteRepo: the wrong confirmation deletes nothing; the right
// one deletes the repository on a real forge.
func TestLiveDeleteRepo(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	res := f.Call(t, repoadmin.Tools(), "delete_repo", map[string]any{"owner": owner, "repo": repo, "confirm": repo})
	require.True(t, res.IsError)
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/repos/"+owner+"/"+repo, nil, nil), "still there")
	call := f.RepoCaller(t, repoadmin.Tools(), owner, repo)
	assert.JSONEq(t, `{"deleted":true,"full_name":"`+owner+"/"+repo+`"}`, call("delete_repo", map[string]any{"confirm": owner + "/" + repo}))
	assert.Equal(t, http.StatusNotFound, f.Do(t, http.MethodGet, "/repos/"+owner+"/"+repo, nil, nil))
}

// TestLiveTransfer: a repository an ordinary user offers to another user
// stays pending until they reject it (it stays) or accept it (it moves),
// on a real forge. (A site admin's transfer moves it at once.)
func TestLiveTransfer(t *testing.T) {
	admin := testforge.Get(t)
	f := admin.NewUser(t)
	f.User2, f.Token2 = admin.User2, admin.Token2
	owner, repo := f.NewRepo(t)
	u2 := f.WithToken(f.Token2)
	t.Cleanup(func() { admin.Do(t, http.MethodDelete, "/repos/"+f.User2+"/"+repo, nil, nil) })
	call := f.RepoCaller(t, repoadmin.Tools(), owner, repo)
	as2 := u2.RepoCaller(t, repoadmin.Tools(), owner, repo)

	text := call("transfer_repo", map[string]any{"new_owner": f.User2})
	assert.Contains(t, text, `"full_name":"`+owner+"/"+repo+`"`)
	assert.Contains(t, text, `"pending":true`)
	assert.Contains(t, as2("reject_repo_transfer", map[string]any{}), `"full_name":"`+owner+"/"+repo+`"`)
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/repos/"+owner+"/"+repo, nil, nil), "rejected: it stays")

	assert.Contains(t, call("transfer_repo", map[string]any{"new_owner": f.User2}), `"pending":true`)
	assert.Contains(t, as2("accept_repo_transfer", map[string]any{}), `"full_name":"`+f.User2+"/"+repo+`"`)
	require.Equal(t, http.StatusOK, admin.Do(t, http.MethodGet, "/repos/"+f.User2+"/"+repo, nil, nil), "accepted: it moved")

	res := f.Call(t, repoadmin.Tools(), "transfer_repo", map[string]any{"owner": owner, "repo": repo, "new_owner": "no-such-user-b1"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "transfer repository "+owner+"/"+repo+" to no-such-user-b1")
}

// TestLiveCreateRepoFromTemplate: a repository marked as a template
// (edit_repo) gives a new one its files and topics on a real forge.
func TestLiveCreateRepoFromTemplate(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := f.RepoCaller(t, repoadmin.Tools(), owner, repo)
	call("edit_repo", map[string]any{"template": true})
	call("set_repo_topics", map[string]any{"topics": []any{"starter"}})
	name := repo + "-gen"
	t.Cleanup(func() { f.Do(t, http.MethodDelete, "/repos/"+owner+"/"+name, nil, nil) })

	text := call("create_repo_from_template", map[string]any{"name": name, "include": []any{"git_content", "topics"}, "private": true})
	assert.Contains(t, text, `"full_name":"`+owner+"/"+name+`"`)
	assert.Contains(t, text, `"private":true`)
	gen := f.RepoCaller(t, repoadmin.Tools(), owner, name)
	assert.JSONEq(t, `{"topics":["starter"]}`, gen("list_repo_topics", map[string]any{}))

	res := f.Call(t, repoadmin.Tools(), "create_repo_from_template", map[string]any{"owner": owner, "repo": repo, "name": name})
	require.True(t, res.IsError, "the name is taken")
	assert.Contains(t, fakeforge.Text(t, res), "create "+owner+"/"+name+" from template repository "+owner+"/"+repo)
}

// TestLiveConvertMirror: Gitea has no route to convert a mirror; the tool
// says so naming the forge (Forgejo 13 and later have it).
func TestLiveConvertMirror(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	res := f.Call(t, repoadmin.Tools(), "convert_mirror_repo", map[string]any{"owner": owner, "repo": repo})
	if id := f.Identify(t); id.Flavour() == "Gitea" || id.ForgejoUpTo(10) {
		require.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), "Converting a pull mirror to an ordinary repository: this forge ("+id.String()+") has no such API route")
		return
	}
	require.True(t, res.IsError, "not a mirror")
	assert.Contains(t, fakeforge.Text(t, res), "convert the mirror repository "+owner+"/"+repo)
}
