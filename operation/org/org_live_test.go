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

func TestLiveOrgs(t *testing.T) {
	f := testforge.Get(t)
	defs := org.Tools()
	call := func(f *testforge.Forge, name string, args map[string]any) string {
		t.Helper()
		res := f.Call(t, defs, name, args)
		require.False(t, res.IsError, "%s: %s", name, fakeforge.Text(t, res))
		return fakeforge.Text(t, res)
	}
	name := fmt.Sprintf("t-org-%x", time.Now().UnixNano())
	text := call(f, "create_org", map[string]any{"name": name, "full_name": "Live Org", "description": "made by a test"})
	t.Cleanup(func() { f.Do(t, http.MethodDelete, "/orgs/"+name, nil, nil) })
	var created struct {
		ID         int64  `json:"id"`
		Name       string `json:"name"`
		Visibility string `json:"visibility"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &created))
	assert.Equal(t, name, created.Name)
	assert.Equal(t, "public", created.Visibility)

	res := f.Call(t, defs, "create_org", map[string]any{"name": name})
	assert.True(t, res.IsError, "a second org of the same name is refused")

	text = call(f, "get_org", map[string]any{"org": name})
	assert.Contains(t, text, `"full_name":"Live Org"`)

	text = call(f, "list_my_orgs", map[string]any{"limit": 50.0})
	assert.Contains(t, text, `"name":"`+name+`"`)
	text = call(f, "list_user_orgs", map[string]any{"user": f.User, "limit": 50.0})
	assert.Contains(t, text, `"name":"`+name+`"`)

	text = call(f, "list_org_members", map[string]any{"org": name})
	assert.JSONEq(t, `{"items":[{"login":"`+f.User+`"}],"page":1,"has_more":false}`, text)
	text = call(f, "list_org_teams", map[string]any{"org": name})
	assert.Contains(t, text, `"name":"Owners","permission":"owner"`)

	text = call(f, "check_org_membership", map[string]any{"org": name, "user": f.User})
	assert.Contains(t, text, `"is_member":true`)
	text = call(f, "check_org_membership", map[string]any{"org": name, "user": f.User2})
	assert.Contains(t, text, `"is_member":false`)
	res = f.Call(t, defs, "check_org_membership", map[string]any{"org": name + "-none", "user": f.User})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")

	// A non-member sees only public members: the owner's membership is private.
	u2 := f.WithToken(f.Token2)
	text = call(u2, "list_org_members", map[string]any{"org": name})
	assert.Contains(t, text, `"items":[]`)
	text = call(u2, "check_org_membership", map[string]any{"org": name, "user": f.User})
	assert.Contains(t, text, `"is_member":false`, "a non-member only learns about public membership")
	text = call(u2, "list_user_orgs", map[string]any{"user": f.User})
	assert.Contains(t, text, `"items":[]`, "nor does it see the owner's private membership")
}
