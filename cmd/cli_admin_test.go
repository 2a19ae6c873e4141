package cmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

// TestAdminOnlyByName: --toolsets all (and --cli list's default) never
// offers site administration; --toolsets admin or +admin does, and a
// site administration tool named on the command line runs.
func TestAdminOnlyByName(t *testing.T) {
	names := func(args ...string) []string {
		t.Helper()
		r := runMain(t, nil, "", append([]string{"--cli", "list", "--output", "json"}, args...)...)
		require.Equal(t, 0, r.code, r.err)
		var list []struct{ Name, Toolset string }
		require.NoError(t, json.Unmarshal([]byte(r.out), &list))
		var admin []string
		for _, d := range list {
			if d.Toolset == "admin" {
				admin = append(admin, d.Name)
			}
		}
		return admin
	}
	assert.Empty(t, names(), "--cli list")
	assert.Empty(t, names("--toolsets", "all"))
	assert.Empty(t, names("--toolsets", "all,-wiki"))
	want := 0 // the admin toolset's tools in the inventory (site, quota)
	for _, d := range operation.All() {
		if d.Toolset.ID == "admin" {
			want++
		}
	}
	require.Greater(t, want, 40)
	assert.Len(t, names("--toolsets", "admin"), want)
	assert.Len(t, names("--toolsets", "+admin"), want)
	assert.Len(t, names("--toolsets", "all,admin"), want)

	f := fakeforge.New(t)
	f.JSON("GET /api/v1/admin/users", 200, []any{map[string]any{"id": 1, "login": "forgeadmin", "is_admin": true, "active": true}})
	r := runMain(t, fakeEnv(f), "", "--cli", "list_site_users", "--output", "json")
	require.Equal(t, 0, r.code, r.err)
	assert.True(t, strings.Contains(r.out, `"login": "forgeadmin"`) || strings.Contains(r.out, `"login":"forgeadmin"`), r.out)
	r = runMain(t, fakeEnv(f), "", "--cli", "list_site_users", "--toolsets", "all")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.err, "list_site_users is not offered")
}
