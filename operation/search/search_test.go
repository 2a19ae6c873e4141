package search_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/search"
)

func TestSearchRepos(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/search", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-Total-Count", "3")
		fakeforge.WriteJSON(w, 200, map[string]any{"ok": true, "data": []any{map[string]any{
			"id": 1, "name": "r", "full_name": "o/r", "description": "A repo", "private": true, "stars_count": 4,
			"updated_at": "2026-01-02T03:04:05Z", "html_url": "http://x/o/r", "clone_url": "http://x/o/r.git",
			"owner": map[string]any{"login": "o"}, "permissions": map[string]any{"admin": true},
		}}})
	})
	res := f.Call(t, search.Tools(), "search_repos", map[string]any{"query": "re po", "in_description": true, "limit": 1.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"full_name":"o/r","description":"A repo","private":true,"stars":4,
		"updated_at":"2026-01-02T03:04:05Z","html_url":"http://x/o/r"}],"page":1,"has_more":true}`, fakeforge.Text(t, res))
	assert.Equal(t, "includeDesc=true&limit=1&page=1&q=re+po", f.Requests()[0].RawQuery)

	f2 := fakeforge.New(t)
	f2.JSON("GET /api/v1/repos/search", 422, map[string]any{"message": "bad query"})
	res = f2.Call(t, search.Tools(), "search_repos", nil)
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "search repositories")
	assert.Contains(t, fakeforge.Text(t, res), "bad query")
}

func TestSearchUsers(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/users/search", 200, map[string]any{"ok": true, "data": []any{map[string]any{
		"id": 2, "login": "bob", "full_name": "Bob B", "email": "b@x", "html_url": "http://x/bob", "avatar_url": "http://x/a",
	}}})
	res := f.Call(t, search.Tools(), "search_users", map[string]any{"query": "bo"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":2,"login":"bob","full_name":"Bob B","html_url":"http://x/bob"}],"page":1,"has_more":false}`,
		fakeforge.Text(t, res))
	assert.Equal(t, "limit=20&page=1&q=bo", f.Requests()[0].RawQuery)
}

func TestSearchOrgTeams(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/orgs/acme/teams/search", 200, map[string]any{"ok": true, "data": []any{map[string]any{
		"id": 3, "name": "Owners", "description": "", "permission": "owner", "units_map": map[string]any{"repo.code": "owner"},
	}}})
	res := f.Call(t, search.Tools(), "search_org_teams", map[string]any{"org": "acme", "query": "own"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"id":3,"name":"Owners","permission":"owner"}],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, search.Tools(), "search_org_teams", map[string]any{"org": "nobody"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation nobody not found (404)")

	res = f.Call(t, search.Tools(), "search_org_teams", map[string]any{"org": "a/b"})
	assert.True(t, res.IsError)
	assert.Len(t, f.Requests(), 2, "a name with a slash never reaches the forge")
}

func TestSearchReposOfAnOwner(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/users/acme", 200, map[string]any{"id": 42, "login": "acme"})
	f.JSON("GET /api/v1/users/nobody", 404, map[string]any{"message": "user redirect does not exist"})
	f.JSON("GET /api/v1/repos/search", 200, map[string]any{"ok": true, "data": []any{}})
	res := f.Call(t, search.Tools(), "search_repos", map[string]any{"owner": "acme", "query": "api"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Equal(t, "exclusive=true&limit=20&page=1&q=api&uid=42", f.LastQuery(t).Encode(), "the owner's own repositories only")

	res = f.Call(t, search.Tools(), "search_repos", map[string]any{"owner": "nobody"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "user or organisation nobody not found (404)")

	res = f.Call(t, search.Tools(), "search_repos", map[string]any{"owner": "../admin"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `argument "owner" must contain letters, digits`)
	assert.Len(t, f.Requests(), 3, "a bad owner is refused before the forge")
}
