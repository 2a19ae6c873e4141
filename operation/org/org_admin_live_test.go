package org_test

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
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/org"
)

func TestLiveOrgAdministration(t *testing.T) {
	f := testforge.Get(t)
	defs := org.Tools()
	call := func(name string, args map[string]any) string {
		t.Helper()
		res := f.Call(t, defs, name, args)
		require.False(t, res.IsError, "%s: %s", name, fakeforge.Text(t, res))
		return fakeforge.Text(t, res)
	}
	name := fmt.Sprintf("t-orgadm-%x", time.Now().UnixNano())
	call("create_org", map[string]any{"name": name, "full_name": "Admin Org", "description": "before"})
	const repo = "app"
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, "/orgs/"+name+"/repos", map[string]any{"name": repo, "private": true}, nil))
	t.Cleanup(func() {
		f.Do(t, http.MethodDelete, "/repos/"+name+"/"+repo, nil, nil)
		f.Do(t, http.MethodDelete, "/orgs/"+name, nil, nil)
	})

	text := call("edit_org", map[string]any{"org": name, "description": "after", "visibility": "limited"})
	assert.Contains(t, text, `"description":"after"`)
	assert.Contains(t, text, `"full_name":"Admin Org"`, "fields not given stay")
	assert.Contains(t, text, `"visibility":"limited"`)

	text = call("create_org_team", map[string]any{"org": name, "name": "devs", "permission": "write"})
	var team struct {
		ID         int64             `json:"id"`
		Permission string            `json:"permission"`
		Units      map[string]string `json:"units"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &team))
	assert.Equal(t, "write", team.Permission, "the same on Gitea (none + units) and Forgejo: %s", text)
	assert.Empty(t, team.Units, "every unit has the team's permission: %s", text)
	teamID := float64(team.ID)

	call("add_team_member", map[string]any{"team_id": teamID, "user": f.User2})
	call("add_team_member", map[string]any{"team_id": teamID, "user": f.User2}) // idempotent
	assert.Contains(t, call("check_org_membership", map[string]any{"org": name, "user": f.User2}), `"is_member":true`)

	u2 := f.WithToken(f.Token2)
	seen := func() int { return u2.Do(t, http.MethodGet, "/repos/"+name+"/"+repo, nil, nil) }
	assert.Equal(t, http.StatusNotFound, seen(), "the team has no repositories yet")
	call("add_team_repo", map[string]any{"team_id": teamID, "org": name, "repo": repo})
	assert.Equal(t, http.StatusOK, seen(), "the team's member sees the repository")
	assert.Contains(t, call("list_team_members", map[string]any{"team_id": teamID}), `"login":"`+f.User2+`"`)
	assert.Contains(t, call("list_team_repos", map[string]any{"team_id": teamID}), `"full_name":"`+name+"/"+repo+`"`)
	call("remove_team_repo", map[string]any{"team_id": teamID, "org": name, "repo": repo})
	assert.Equal(t, http.StatusNotFound, seen())
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, call("list_team_repos", map[string]any{"team_id": teamID}))

	call("remove_team_member", map[string]any{"team_id": teamID, "user": f.User2})
	assert.Contains(t, call("check_org_membership", map[string]any{"org": name, "user": f.User2}), `"is_member":false`)
	call("add_team_member", map[string]any{"team_id": teamID, "user": f.User2})
	call("remove_org_member", map[string]any{"org": name, "user": f.User2})
	assert.Contains(t, call("check_org_membership", map[string]any{"org": name, "user": f.User2}), `"is_member":false`)

	res := f.Call(t, defs, "delete_org", map[string]any{"org": name})
	assert.True(t, res.IsError, "an organisation that owns a repository cannot be deleted")
	t.Logf("delete_org with a repository: %s", fakeforge.Text(t, res))
	require.Equal(t, http.StatusNoContent, f.Do(t, http.MethodDelete, "/repos/"+name+"/"+repo, nil, nil))
	call("delete_org", map[string]any{"org": name})
	res = f.Call(t, defs, "get_org", map[string]any{"org": name})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}

// TestLiveMissingUserAndOrg: team and membership tools given an unknown
// user name the user; an unknown organisation carries no function name.
func TestLiveMissingUserAndOrg(t *testing.T) {
	f := testforge.Get(t)
	defs := org.Tools()
	name := f.NewOrg(t)
	var teams []struct {
		ID int64 `json:"id"`
	}
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/orgs/"+name+"/teams", nil, &teams))
	require.NotEmpty(t, teams)
	team := float64(teams[0].ID)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"add_team_member", map[string]any{"team_id": team, "user": "nosuchuser"}},
		{"remove_team_member", map[string]any{"team_id": team, "user": "nosuchuser"}},
		{"remove_org_member", map[string]any{"org": name, "user": "nosuchuser"}},
	} {
		res := f.Call(t, defs, c.tool, c.args)
		require.True(t, res.IsError, c.tool)
		assert.Equal(t, "user nosuchuser not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res), c.tool)
	}
	res := f.Call(t, defs, "get_org", map[string]any{"org": "nosuchorg"})
	require.True(t, res.IsError)
	assert.Equal(t, "organisation nosuchorg not found (404): it does not exist or this token cannot see it: no such org", fakeforge.Text(t, res))
}
