package packages_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/packages"
)

// TestPackageVersions: Gitea lists one package's versions and reads its
// latest; a name that is not one is the forge's 404, naming the package.
func TestPackageVersions(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "1.26.0"})
	f.JSON("GET /api/v1/packages/acme/generic/tool", 200, []any{pkgJSON})
	f.JSON("GET /api/v1/packages/acme/generic/tool/-/latest", 200, pkgJSON)
	f.JSON("GET /api/v1/packages/acme/generic/none/-/latest", 404, map[string]any{"message": "package does not exist"})
	run := func(name string, args map[string]any) (bool, string) {
		res := f.Call(t, packages.Tools(), name, args)
		return res.IsError, fakeforge.Text(t, res)
	}
	isErr, text := run("list_package_versions", map[string]any{"owner": "acme", "type": "generic", "name": "tool", "limit": 5.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[`+compactPkg+`],"page":1,"has_more":false}`, text)
	assert.Equal(t, "limit=5&page=1", f.Requests()[len(f.Requests())-1].RawQuery)

	isErr, text = run("get_latest_package_version", map[string]any{"owner": "acme", "type": "generic", "name": "tool"})
	require.False(t, isErr, text)
	assert.JSONEq(t, compactPkg, text)
	isErr, text = run("get_latest_package_version", map[string]any{"owner": "acme", "type": "generic", "name": "none"})
	require.True(t, isErr)
	assert.Equal(t, "generic package none of acme not found (404): it does not exist or this token cannot see it: package does not exist", text)
}

// TestPackageVersionsRefusedOnForgejo: no Forgejo has the routes; the
// refusal says so before sending and names list_packages instead.
func TestPackageVersionsRefusedOnForgejo(t *testing.T) {
	for _, name := range []string{"list_package_versions", "get_latest_package_version"} {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
		res := f.Call(t, packages.Tools(), name, map[string]any{"owner": "acme", "type": "generic", "name": "tool"})
		require.True(t, res.IsError, name)
		text := fakeforge.Text(t, res)
		assert.Contains(t, text, "this forge (Forgejo 15.0.3+gitea-1.22.0) has no such API route, so nothing was sent", name)
		assert.Contains(t, text, "list_packages with type and query", name)
		assert.Len(t, f.Requests(), 1, "%s: only the version probe", name)
	}
}
