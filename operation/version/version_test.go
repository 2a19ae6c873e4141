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
	var got map[string]string
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
	assert.Equal(t, v.Version, got["version"])
	assert.NotEmpty(t, got["go"])
}
