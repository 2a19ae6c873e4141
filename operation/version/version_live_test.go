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
	// The live forge is Gitea 1.26 unless FORGEJO_TEST_FORGEJO_BIN brought a Forgejo; testforge
	// tells them apart by Forgejo's own route, not by the version string the tool reads.
	id := f.Identify(t)
	want := forgejo.Gitea
	if id.Forgejo {
		want = forgejo.Forgejo
		assert.Regexp(t, `^\d+\.\d+\.\d+.*\+gitea-1\.\d+\.\d+$`, got.Forge.Version)
	} else {
		assert.Regexp(t, `^1\.\d+\.\d+`, got.Forge.Version)
	}
	assert.Equal(t, want, got.Forge.Flavour, "the live forge is %s", id)
	assert.Equal(t, id.Version, got.Forge.Version)
}
