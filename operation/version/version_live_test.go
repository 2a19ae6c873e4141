package version_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/version"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestLiveVersionNamesTheForge(t *testing.T) {
	f := testforge.Get(t)
	res := f.Call(t, version.Tools(), "get_forgejo_mcp_server_version", nil)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var got version.Version
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
	require.NotNil(t, got.Forge, got.ForgeError)
	assert.Equal(t, forgejo.Gitea, got.Forge.Flavour, "the test forge is Gitea")
	assert.Regexp(t, `^1\.\d+\.\d+`, got.Forge.Version)
}
