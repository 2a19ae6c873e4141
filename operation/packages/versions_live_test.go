package packages_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/packages"
)

// TestLivePackageVersions: two versions of a generic package, published
// through the registry, are listed newest first and the newer read as the
// latest; a package that is not there is named. No Forgejo has these
// routes: there the clear refusal.
func TestLivePackageVersions(t *testing.T) {
	f := testforge.Get(t)
	u := f.NewUser(t)
	upload(t, u, "cli", "1.0.0", "cli.txt", "one")
	upload(t, u, "cli", "1.1.0", "cli.txt", "two")
	defs := packages.Tools()
	pkg := func(name string) map[string]any {
		return map[string]any{"owner": u.User, "type": "generic", "name": name}
	}
	if f.Identify(t).Forgejo {
		f.RequireMissingRoute(t, u.Call(t, defs, "list_package_versions", pkg("cli")))
		f.RequireMissingRoute(t, u.Call(t, defs, "get_latest_package_version", pkg("cli")))
		return
	}

	var list struct {
		Items []packages.Package `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(u.CallOK(t, defs, "list_package_versions", pkg("cli"))), &list))
	var versions []string
	for _, p := range list.Items {
		assert.Equal(t, "cli", p.Name)
		versions = append(versions, p.Version)
	}
	assert.Equal(t, []string{"1.1.0", "1.0.0"}, versions, "newest first")

	var latest packages.Package
	require.NoError(t, json.Unmarshal([]byte(u.CallOK(t, defs, "get_latest_package_version", pkg("cli"))), &latest))
	assert.Equal(t, "1.1.0", latest.Version)
	assert.Equal(t, u.User, latest.Creator)

	for _, name := range []string{"list_package_versions", "get_latest_package_version"} {
		res := u.Call(t, defs, name, pkg("none"))
		require.True(t, res.IsError, name)
		assert.Contains(t, fakeforge.Text(t, res), "generic package none of "+u.User+" not found (404)", name)
	}
}
