package block_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/block"
)

func run(t *testing.T, f *fakeforge.Server, name string, args map[string]any) string {
	t.Helper()
	res := f.Call(t, block.Tools(), name, args)
	text := fakeforge.Text(t, res)
	require.False(t, res.IsError, "%s: %s", name, text)
	return text
}

func last(f *fakeforge.Server) string {
	r := f.Requests()
	return r[len(r)-1].Method + " " + r[len(r)-1].Path
}

// TestForgejoRoutes: on Forgejo the tools take list_blocked, block and
// unblock, for the user and for an organisation; Forgejo's list gives IDs.
func TestForgejoRoutes(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
	f.JSON("GET /api/v1/user/list_blocked", 200, []any{map[string]any{"block_id": 12, "created_at": "2026-01-02T03:04:05Z"}})
	f.JSON("GET /api/v1/orgs/acme/list_blocked", 200, []any{})
	for _, p := range []string{"/api/v1/user/block/troll", "/api/v1/user/unblock/troll", "/api/v1/orgs/acme/block/troll", "/api/v1/orgs/acme/unblock/troll"} {
		f.JSON("PUT "+p, 204, nil)
	}
	assert.JSONEq(t, `{"items":[{"user_id":12,"blocked_at":"2026-01-02T03:04:05Z"}],"page":1,"has_more":false}`,
		run(t, f, "list_blocked_users", map[string]any{}))
	assert.Equal(t, "limit=20&page=1", f.Requests()[len(f.Requests())-1].RawQuery)
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, run(t, f, "list_blocked_users", map[string]any{"org": "acme"}))
	assert.JSONEq(t, `{"username":"troll","blocked":true,"by":"your account"}`, run(t, f, "block_user", map[string]any{"username": "troll"}))
	assert.Equal(t, "PUT /api/v1/user/block/troll", last(f))
	assert.JSONEq(t, `{"username":"troll","blocked":false,"by":"your account"}`, run(t, f, "unblock_user", map[string]any{"username": "troll"}))
	assert.Equal(t, "PUT /api/v1/user/unblock/troll", last(f))
	assert.JSONEq(t, `{"username":"troll","blocked":true,"by":"organisation acme"}`, run(t, f, "block_user", map[string]any{"username": "troll", "org": "acme"}))
	assert.Equal(t, "PUT /api/v1/orgs/acme/block/troll", last(f))
	run(t, f, "unblock_user", map[string]any{"username": "troll", "org": "acme"})
	assert.Equal(t, "PUT /api/v1/orgs/acme/unblock/troll", last(f))
}

// TestGiteaRoutes: on Gitea the tools take the blocks routes; an unknown
// Forgejo version whose router lacks Forgejo's route does too.
func TestGiteaRoutes(t *testing.T) {
	for _, version := range []string{"1.26.0", "99.0.0+gitea-1.22.0"} {
		t.Run(version, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/version", 200, map[string]any{"version": version})
			f.Handle("PUT /api/v1/user/block/{u}", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
			f.JSON("GET /api/v1/orgs/acme/blocks", 200, []any{map[string]any{"id": 7, "login": "troll", "email": "t@example.com"}})
			f.JSON("PUT /api/v1/user/blocks/troll", 204, nil)
			f.JSON("DELETE /api/v1/orgs/acme/blocks/troll", 204, nil)
			f.JSON("PUT /api/v1/user/blocks/friend", 400, map[string]any{"message": "user is not blockable"})
			f.Handle("GET /api/v1/orgs/acme/list_blocked", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
			f.Handle("PUT /api/v1/orgs/acme/unblock/{u}", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })

			assert.JSONEq(t, `{"items":[{"user_id":7,"login":"troll"}],"page":1,"has_more":false}`,
				run(t, f, "list_blocked_users", map[string]any{"org": "acme"}))
			run(t, f, "block_user", map[string]any{"username": "troll"})
			assert.Equal(t, "PUT /api/v1/user/blocks/troll", last(f))
			run(t, f, "unblock_user", map[string]any{"username": "troll", "org": "acme"})
			assert.Equal(t, "DELETE /api/v1/orgs/acme/blocks/troll", last(f))

			res := f.Call(t, block.Tools(), "block_user", map[string]any{"username": "friend"})
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), "block user friend from your account: the forge refused the request (400 Bad Request): user is not blockable")
		})
	}
}

func TestBadNames(t *testing.T) {
	f := fakeforge.New(t)
	for _, args := range []map[string]any{{"username": "a/b"}, {"username": "ok", "org": "../x"}, {"username": "ok", "org": ""}} {
		res := f.Call(t, block.Tools(), "block_user", args)
		assert.True(t, res.IsError, "%v", args)
	}
	for _, r := range f.Requests() {
		assert.Equal(t, "/api/v1/version", r.Path, "nothing sent")
	}
}
