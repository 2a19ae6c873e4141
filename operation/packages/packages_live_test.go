package packages_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/packages"
)

// upload puts a generic package file as f's user through the registry's
// own route (not the API).
func upload(t *testing.T, f *testforge.Forge, name, version, file, content string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, f.URL+"/api/packages/"+f.User+"/generic/"+name+"/"+version+"/"+file, strings.NewReader(content))
	require.NoError(t, err)
	req.Header.Set("Authorization", "token "+f.Token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
}

// TestLivePackages: a user's package is listed, read with its files,
// linked to a repository and unlinked, and its version deleted.
func TestLivePackages(t *testing.T) {
	f := testforge.Get(t)
	u := f.NewUser(t)
	var repo struct {
		Name string `json:"name"`
	}
	require.Equal(t, http.StatusCreated, u.Do(t, http.MethodPost, "/user/repos", map[string]any{"name": "tool", "auto_init": true}, &repo))
	upload(t, u, "tool", "1.0.0", "tool.txt", "hello package")
	defs := packages.Tools()
	call := func(name string, args map[string]any) (bool, string) {
		args["owner"] = u.User
		res := u.Call(t, defs, name, args)
		return res.IsError, fakeforge.Text(t, res)
	}
	one := map[string]any{"type": "generic", "name": "tool", "package_version": "1.0.0"}

	isErr, text := call("list_packages", map[string]any{"type": "generic"})
	require.False(t, isErr, text)
	var list struct {
		Items []packages.Package `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &list))
	require.Len(t, list.Items, 1)
	assert.Equal(t, "tool", list.Items[0].Name)
	assert.Equal(t, "1.0.0", list.Items[0].Version)
	assert.Equal(t, u.User, list.Items[0].Creator)

	isErr, text = call("get_package", copyOf(one))
	require.False(t, isErr, text)
	assert.Contains(t, text, `"version":"1.0.0"`)
	isErr, text = call("list_package_files", copyOf(one))
	require.False(t, isErr, text)
	assert.Contains(t, text, `"name":"tool.txt","size":13`)

	isErr, text = call("link_package", map[string]any{"type": "generic", "name": "tool", "repo": "tool"})
	require.False(t, isErr, text)
	isErr, text = call("get_package", copyOf(one))
	require.False(t, isErr, text)
	assert.Contains(t, text, `"repository":"`+u.User+`/tool"`)
	isErr, text = call("unlink_package", map[string]any{"type": "generic", "name": "tool"})
	require.False(t, isErr, text)
	isErr, text = call("get_package", copyOf(one))
	require.False(t, isErr, text)
	assert.NotContains(t, text, `"repository"`)

	isErr, text = call("delete_package", copyOf(one))
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"package_version":"1.0.0"}`, text)
	isErr, text = call("get_package", copyOf(one))
	require.True(t, isErr)
	assert.Contains(t, text, "not found (404)")
}

func copyOf(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}
