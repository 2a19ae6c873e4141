package packages_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/packages"
)

var pkgJSON = map[string]any{"id": 7, "type": "generic", "name": "tool", "version": "1.0.0",
	"owner":      map[string]any{"login": "acme"},
	"repository": map[string]any{"full_name": "acme/tool", "name": "tool"},
	"creator":    map[string]any{"login": "alice"}, "created_at": "2026-01-02T03:04:05Z",
	"html_url": "http://x/acme/-/packages/generic/tool/1.0.0"}

const compactPkg = `{"id":7,"type":"generic","name":"tool","version":"1.0.0","repository":"acme/tool","creator":"alice",
	"created_at":"2026-01-02T03:04:05Z","html_url":"http://x/acme/-/packages/generic/tool/1.0.0"}`

func TestPackages(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
	f.JSON("GET /api/v1/packages/acme", 200, []any{pkgJSON})
	f.JSON("GET /api/v1/packages/acme/generic/tool/1.0.0", 200, pkgJSON)
	f.JSON("GET /api/v1/packages/acme/generic/tool/9.9", 404, map[string]any{"message": "package does not exist"})
	f.JSON("GET /api/v1/packages/acme/generic/tool/1.0.0/files", 200, []any{map[string]any{"id": 1, "Size": 12, "name": "tool.tar.gz",
		"md5": "m", "sha1": "s1", "sha256": "abc", "sha512": "s5"}})
	f.JSON("DELETE /api/v1/packages/acme/generic/tool/1.0.0", 204, nil)
	f.JSON("POST /api/v1/packages/acme/generic/tool/-/link/tool", 201, nil)
	f.JSON("POST /api/v1/packages/acme/generic/tool/-/unlink", 201, nil)
	call := func(name string, args map[string]any) (bool, string) {
		args["owner"] = "acme"
		res := f.Call(t, packages.Tools(), name, args)
		return res.IsError, fakeforge.Text(t, res)
	}
	one := func(more map[string]any) map[string]any {
		out := map[string]any{"type": "generic", "name": "tool", "package_version": "1.0.0"}
		for k, v := range more {
			out[k] = v
		}
		return out
	}

	isErr, text := call("list_packages", map[string]any{"type": "generic", "query": "to", "limit": 5.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[`+compactPkg+`],"page":1,"has_more":false}`, text)
	assert.Equal(t, "limit=5&page=1&q=to&type=generic", f.Requests()[len(f.Requests())-1].RawQuery)

	isErr, text = call("get_package", one(nil))
	require.False(t, isErr, text)
	assert.JSONEq(t, compactPkg, text)
	isErr, text = call("get_package", one(map[string]any{"package_version": "9.9"}))
	require.True(t, isErr)
	assert.Contains(t, text, "generic package tool of acme version 9.9 not found (404)")

	isErr, text = call("list_package_files", one(nil))
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"name":"tool.tar.gz","size":12,"sha256":"abc"}]}`, text)

	isErr, text = call("delete_package", one(nil))
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"package_version":"1.0.0"}`, text)

	isErr, text = call("link_package", map[string]any{"type": "generic", "name": "tool", "repo": "tool"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"linked":"tool","repo":"acme/tool"}`, text)
	isErr, text = call("unlink_package", map[string]any{"type": "generic", "name": "tool"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"unlinked":"tool"}`, text)

	sent := len(f.Requests())
	isErr, text = call("get_package", one(map[string]any{"type": "NPM;x"}))
	require.True(t, isErr)
	assert.Contains(t, text, "a package type such as npm or container")
	isErr, text = call("get_package", one(map[string]any{"name": "../../admin"}))
	require.True(t, isErr, text)
	assert.Len(t, f.Requests(), sent, "refused before sending")
}

// TestLinkRefusedOnForgejo10: Forgejo 10 has no link route.
func TestLinkRefusedOnForgejo10(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "10.0.0-dev-456d05998231+gitea-1.22.0"})
	res := f.Call(t, packages.Tools(), "link_package", map[string]any{"owner": "acme", "type": "generic", "name": "tool", "repo": "tool"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "has no such API route, so nothing was sent")
}
