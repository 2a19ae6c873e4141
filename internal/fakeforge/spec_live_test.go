package fakeforge_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// The checked-in Gitea description is the live forge's: the drift tests
// that read it check the tools against the live /swagger.v1.json.
func TestLiveGiteaSpecIsCurrent(t *testing.T) {
	f := testforge.Get(t)
	hc := &http.Client{Timeout: 30 * time.Second}
	resp, err := hc.Get(f.URL + "/swagger.v1.json")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	live, err := fakeforge.TrimSwagger(raw, "")
	require.NoError(t, err)
	stored, err := fakeforge.LoadSpec("gitea")
	require.NoError(t, err)
	a, err := json.Marshal(live)
	require.NoError(t, err)
	b, err := json.Marshal(stored)
	require.NoError(t, err)
	assert.JSONEq(t, string(a), string(b), "internal/fakeforge/specs/gitea.json is stale: run make fixtures")

	var v struct {
		Version string `json:"version"`
	}
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/version", nil, &v))
	assert.Equal(t, v.Version, stored.Version, "Gitea mode answers /version as the live forge does")
}
