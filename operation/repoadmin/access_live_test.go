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

// TestLiveCollaborators: the second user is added with write access,
// checked, given read, and removed on a real forge; another user's
// effective permission reads as none without their being a collaborator.
func TestLiveCollaborators(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := f.RepoCaller(t, repoadmin.Tools(), owner, repo)
	u := f.User2

	assert.JSONEq(t, `{"user":"`+u+`","collaborator":false}`, call("check_collaborator", map[string]any{"user": u}))
	assert.JSONEq(t, `{"user":"`+u+`","permission":"none","role":"none","collaborator":false}`,
		call("get_collaborator_permission", map[string]any{"user": u}))
	assert.JSONEq(t, `{"user":"`+u+`","permission":"write","role":"write","collaborator":true}`,
		call("add_collaborator", map[string]any{"user": u}))
	assert.JSONEq(t, `{"user":"`+u+`","collaborator":true}`, call("check_collaborator", map[string]any{"user": u}))
	assert.JSONEq(t, `{"user":"`+u+`","permission":"read","role":"read","collaborator":true}`,
		call("add_collaborator", map[string]any{"user": u, "permission": "read"}), "adding again changes the permission")
	assert.JSONEq(t, `{"deleted":true,"user":"`+u+`"}`, call("remove_collaborator", map[string]any{"user": u}))
	assert.JSONEq(t, `{"user":"`+u+`","collaborator":false}`, call("check_collaborator", map[string]any{"user": u}))

	res := f.Call(t, repoadmin.Tools(), "add_collaborator", map[string]any{"owner": owner, "repo": repo, "user": "no-such-user-b1"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "add collaborator no-such-user-b1 of repository "+owner+"/"+repo)
	res = f.Call(t, repoadmin.Tools(), "check_collaborator", map[string]any{"owner": owner, "repo": "no-such-repo-b1", "user": u})
	require.True(t, res.IsError, "a missing repository is not a no")
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}

// TestLiveRepoTeams: an organisation's team is given access to its
// repository, checked, listed and removed on a real forge.
func TestLiveRepoTeams(t *testing.T) {
	f := testforge.Get(t)
	name := f.NewOrg(t)
	const repo = "app"
	f.NewOrgRepo(t, name, repo)
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, "/orgs/"+name+"/teams", map[string]any{
		"name": "devs", "permission": "write", "units": []string{"repo.code", "repo.issues", "repo.pulls"}}, nil))
	call := f.RepoCaller(t, repoadmin.Tools(), name, repo)

	assert.JSONEq(t, `{"team":"devs","access":false}`, call("check_repo_team", map[string]any{"team": "devs"}))
	text := call("add_repo_team", map[string]any{"team": "devs"})
	assert.Contains(t, text, `"access":true`)
	assert.Contains(t, text, `"name":"devs"`)
	assert.Contains(t, call("add_repo_team", map[string]any{"team": "devs"}), `"access":true`, "adding again changes nothing")
	text = call("list_repo_teams", map[string]any{})
	assert.Contains(t, text, `"name":"devs"`)
	assert.Contains(t, text, `"name":"Owners"`)
	assert.JSONEq(t, `{"deleted":true,"team":"devs"}`, call("remove_repo_team", map[string]any{"team": "devs"}))
	assert.JSONEq(t, `{"team":"devs","access":false}`, call("check_repo_team", map[string]any{"team": "devs"}))
}
