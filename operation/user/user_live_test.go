package user_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/user"
)

func TestLiveGetMyUserInfo(t *testing.T) {
	f := testforge.Get(t)
	res := f.Call(t, user.Tools(), "get_my_user_info", nil)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"login":"`+f.User+`"`)
	assert.Contains(t, fakeforge.Text(t, res), `"is_admin":true`)

	res = f.WithToken(f.Token2).Call(t, user.Tools(), "get_my_user_info", nil)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"login":"`+f.User2+`"`)
	assert.Contains(t, fakeforge.Text(t, res), `"is_admin":false`)
}
