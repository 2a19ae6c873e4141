package version_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/version"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	v "codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version"
)

func TestVersionNeedsNoForge(t *testing.T) {
	res := (&tool.Runner{}).Call(context.Background(), version.Tools()[0], nil)
	require.False(t, res.IsError)
	var got version.Version
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
	assert.Equal(t, v.Version, got.Version)
	assert.NotEmpty(t, got.Go)
	assert.Nil(t, got.Forge)
	assert.Equal(t, "no forge configured", got.ForgeError)
}

func TestVersionReportsTheFlavour(t *testing.T) {
	for _, tc := range []struct{ flavour, want string }{
		{"forgejo", `{"flavour":"Forgejo","version":"17.0.0-dev+gitea-1.22.0"}`},
		{"gitea", `{"flavour":"Gitea","version":"1.26.0"}`},
	} {
		t.Run(tc.flavour, func(t *testing.T) {
			spec, err := fakeforge.LoadSpec(tc.flavour)
			require.NoError(t, err)
			f := fakeforge.New(t)
			f.Mimic(spec)
			res := f.Call(t, version.Tools(), "get_forgejo_mcp_server_version", nil)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			var got map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
			assert.JSONEq(t, tc.want, string(got["forge"]))
			assert.NotContains(t, got, "forge_error")
		})
	}
}

func TestVersionSaysWhyTheForgeIsUnknown(t *testing.T) {
	f := fakeforge.New(t) // answers 404 everywhere
	res := f.Call(t, version.Tools(), "get_forgejo_mcp_server_version", nil)
	require.False(t, res.IsError, "the server's own version is still reported")
	var got version.Version
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
	assert.Nil(t, got.Forge)
	assert.Contains(t, got.ForgeError, "the forge not found (404)")
}
