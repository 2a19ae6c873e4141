package block_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/block/

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/block"
)

// TestLiveBlocks: the second user is blocked from a user's own account,
// which the forge then enforces (they cannot open an issue in the user's
// public repository), and from an organisation; both show in the lists and
// are undone by unblock_user. A user cannot block themself.
func TestLiveBlocks(t *testing.T) {
	f := testforge.Get(t)
	org := f.NewOrg(t)
	owner, repo := f.NewPublicRepo(t)
	defs := block.Tools()
	call := f.Caller(t, defs)
	for _, c := range []struct {
		args map[string]any
		by   string
	}{{map[string]any{}, "your account"}, {map[string]any{"org": org}, "organisation " + org}} {
		with := func(kv ...any) map[string]any {
			out := map[string]any{}
			for k, v := range c.args {
				out[k] = v
			}
			for i := 0; i < len(kv); i += 2 {
				out[kv[i].(string)] = kv[i+1]
			}
			return out
		}
		t.Cleanup(func() { f.Call(t, defs, "unblock_user", with("username", f.User2)) })
		assert.NotContains(t, call("list_blocked_users", with()), `"login":"`+f.User2+`"`)
		assert.JSONEq(t, `{"username":"`+f.User2+`","blocked":true,"by":"`+c.by+`"}`, call("block_user", with("username", f.User2)))
		listed := call("list_blocked_users", with("limit", 50.0))
		if f.Identify(t).Flavour() == "Gitea" {
			assert.Contains(t, listed, `"login":"`+f.User2+`"`)
		} else {
			assert.Contains(t, listed, `"user_id":`)
		}
		if len(c.args) == 0 {
			var raw []byte
			status := f.WithToken(f.Token2).Do(t, http.MethodPost, "/repos/"+owner+"/"+repo+"/issues", map[string]any{"title": "from a blocked user"}, &raw)
			assert.NotEqual(t, http.StatusCreated, status, "the forge enforces the block: %s", raw)
		}
		assert.JSONEq(t, `{"username":"`+f.User2+`","blocked":false,"by":"`+c.by+`"}`, call("unblock_user", with("username", f.User2)))
		assert.NotContains(t, call("list_blocked_users", with()), `"login":"`+f.User2+`"`)
	}
	res := f.Call(t, defs, "block_user", map[string]any{"username": f.User})
	require.True(t, res.IsError, "a user cannot block themself")
	assert.Contains(t, fakeforge.Text(t, res), "block user "+f.User+" from your account")
}
