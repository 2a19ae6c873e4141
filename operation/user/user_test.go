package user_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/user"
)

func TestGetMyUserInfo(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 200, map[string]any{"id": 1, "login": "alice", "full_name": "Alice", "email": "a@x",
		"is_admin": true, "avatar_url": "http://x/a", "created": "2026-01-02T03:04:05Z", "html_url": "http://x/alice",
		"followers_count": 10, "language": "en-US"})
	res := f.Call(t, user.Tools(), "get_my_user_info", nil)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"id":1,"login":"alice","full_name":"Alice","email":"a@x","is_admin":true,
		"created":"2026-01-02T03:04:05Z","html_url":"http://x/alice"}`, fakeforge.Text(t, res))
}

func TestGetMyUserInfoBadToken(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 401, map[string]string{"message": "invalid token"})
	res := f.Call(t, user.Tools(), "get_my_user_info", nil)
	assert.True(t, res.IsError)
	assert.Equal(t, "get the token's user: the forge rejected the token (401 Unauthorized); check that the access token (FORGEJO_ACCESS_TOKEN, --token-file, or the Authorization header over HTTP) is valid and not expired", fakeforge.Text(t, res))
}
