package org_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/org"
)

var rawOrg = map[string]any{
	"id": 4, "username": "acme", "name": "acme", "full_name": "Acme Inc", "avatar_url": "http://x/avatars/4",
	"description": "Tools", "website": "", "location": "", "visibility": "public", "email": "",
	"repo_admin_change_team_access": true,
}

func TestListMyOrgs(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/user/orgs", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Total-Count", "5")
		fakeforge.WriteJSON(w, 200, []any{rawOrg, nil})
	})
	res := f.Call(t, org.Tools(), "list_my_orgs", map[string]any{"limit": 1.0, "page": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":4,"name":"acme","full_name":"Acme Inc","description":"Tools","visibility":"public"}],"page":2,"has_more":true}`,
		fakeforge.Text(t, res))
	assert.Contains(t, f.Requests()[0].RawQuery, "page=2")
	assert.Contains(t, f.Requests()[0].RawQuery, "limit=1")
}

func TestListUserOrgsAndGetOrg(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/users/bob/orgs", 200, []any{rawOrg})
	f.JSON("GET /api/v1/orgs/acme", 200, rawOrg)
	res := f.Call(t, org.Tools(), "list_user_orgs", map[string]any{"user": "bob"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"name":"acme"`)
	res = f.Call(t, org.Tools(), "get_org", map[string]any{"org": "acme"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"id":4,"name":"acme","full_name":"Acme Inc","description":"Tools","visibility":"public"}`, fakeforge.Text(t, res))
}

func TestGetOrgNotFound(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, org.Tools(), "get_org", map[string]any{"org": "nobody"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation nobody not found (404)")
}

func TestListOrgMembersAndTeams(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/orgs/acme/members", 200, []any{map[string]any{"id": 1, "login": "alice", "full_name": "Alice", "email": "a@x"}})
	f.JSON("GET /api/v1/orgs/acme/teams", 200, []any{map[string]any{"id": 9, "name": "Owners", "permission": "owner",
		"includes_all_repositories": true, "can_create_org_repo": true, "organization": rawOrg,
		"units_map": map[string]string{"repo.code": "owner"}}})
	res := f.Call(t, org.Tools(), "list_org_members", map[string]any{"org": "acme"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"login":"alice","full_name":"Alice"}],"page":1,"has_more":false}`, fakeforge.Text(t, res))
	res = f.Call(t, org.Tools(), "list_org_teams", map[string]any{"org": "acme"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":9,"name":"Owners","permission":"owner","includes_all_repositories":true,"can_create_org_repo":true}],"page":1,"has_more":false}`,
		fakeforge.Text(t, res))
}

func TestCreateOrg(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/orgs", 201, rawOrg)
	res := f.Call(t, org.Tools(), "create_org", map[string]any{"name": "acme", "full_name": "Acme Inc", "visibility": "private"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, "acme", sent["username"])
	assert.Equal(t, "Acme Inc", sent["full_name"])
	assert.Equal(t, "private", sent["visibility"])
}

func TestCreateOrgConflict(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/orgs", 422, map[string]string{"message": "user already exists [name: acme]"})
	res := f.Call(t, org.Tools(), "create_org", map[string]any{"name": "acme"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "create organisation acme: the forge rejected the input (422): user already exists")
}

func TestCheckOrgMembership(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/orgs/acme/members/alice", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	f.JSON("GET /api/v1/orgs/acme", 200, rawOrg)
	res := f.Call(t, org.Tools(), "check_org_membership", map[string]any{"org": "acme", "user": "alice"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"org":"acme","user":"alice","is_member":true}`, fakeforge.Text(t, res))
	assert.Len(t, f.Requests(), 1)

	res = f.Call(t, org.Tools(), "check_org_membership", map[string]any{"org": "acme", "user": "bob"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"org":"acme","user":"bob","is_member":false}`, fakeforge.Text(t, res))

	res = f.Call(t, org.Tools(), "check_org_membership", map[string]any{"org": "nobody", "user": "bob"})
	assert.True(t, res.IsError, "an unknown organisation is not a plain false")
	assert.Contains(t, fakeforge.Text(t, res), "organisation nobody not found (404)")
}
