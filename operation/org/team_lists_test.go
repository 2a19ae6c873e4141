package org_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/org"
)

func TestListTeamMembersAndRepos(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/teams/5/members", 200, []any{map[string]any{"id": 1, "login": "alice", "full_name": "Alice A.", "email": "a@x"}})
	f.JSON("GET /api/v1/teams/5/repos", 200, []any{map[string]any{"id": 9, "full_name": "acme/api", "private": true,
		"default_branch": "main", "updated_at": "2026-01-02T03:04:05Z", "html_url": "http://x/acme/api", "owner": map[string]any{"login": "acme"}}})
	f.JSON("GET /api/v1/teams/6/members", 404, map[string]any{"message": "not found"})

	res := f.Call(t, org.Tools(), "list_team_members", map[string]any{"team_id": 5.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"login":"alice","full_name":"Alice A."}],"page":1,"has_more":false}`, fakeforge.Text(t, res))
	assert.Equal(t, "limit=20&page=1", f.LastQuery(t).Encode())

	res = f.Call(t, org.Tools(), "list_team_repos", map[string]any{"team_id": 5.0, "limit": 1.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"full_name":"acme/api","private":true,"default_branch":"main","open_issues":0,"open_pulls":0,
		"stars":0,"updated_at":"2026-01-02T03:04:05Z","html_url":"http://x/acme/api"}],"page":1,"has_more":true}`, fakeforge.Text(t, res))

	res = f.Call(t, org.Tools(), "list_team_members", map[string]any{"team_id": 6.0})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "team 6 not found (404)")
}

func TestListOrgRepos(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/orgs/acme/repos", 200, []any{map[string]any{"id": 9, "full_name": "acme/api", "default_branch": "main",
		"updated_at": "2026-01-02T03:04:05Z", "html_url": "http://x/acme/api"}})
	res := f.Call(t, org.Tools(), "list_org_repos", map[string]any{"org": "acme", "page": 2.0, "limit": 5.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"full_name":"acme/api","private":false,"default_branch":"main","open_issues":0,"open_pulls":0,
		"stars":0,"updated_at":"2026-01-02T03:04:05Z","html_url":"http://x/acme/api"}],"page":2,"has_more":false}`, fakeforge.Text(t, res))
	assert.Equal(t, "limit=5&page=2", f.LastQuery(t).Encode())

	res = f.Call(t, org.Tools(), "list_org_repos", map[string]any{"org": "nobody"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation nobody not found (404)")
}
