package cmd_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// TestOAuthProxyBinary: the built binary with --oauth-proxy serves the
// authorization server metadata and registration, names itself in the
// protected resource metadata, and never logs the application's secret.
func TestOAuthProxyBinary(t *testing.T) {
	f := fakeforge.New(t)
	const oauthSecret = "gto_cmdtest_secret_0123456789abcdefghijkl"
	dir := t.TempDir()
	secret, key := filepath.Join(dir, "secret"), filepath.Join(dir, "key")
	require.NoError(t, os.WriteFile(secret, []byte(oauthSecret+"\n"), 0o600))
	require.NoError(t, os.WriteFile(key, []byte(strings.Repeat("k", 64)+"\n"), 0o600))
	p := startHTTP(t, f.URL, nil, "--oauth-proxy", "--oauth-client-id", "0c6e1f6a-3a42-4b1e-9d61-2f1e8b7a9c10",
		"--oauth-client-secret-file", secret, "--oauth-key-file", key, "--log-level", "debug")
	get := func(path string) string {
		resp, err := http.Get(p.base + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
		return string(b)
	}
	assert.Contains(t, get("/.well-known/oauth-protected-resource/mcp"), `"authorization_servers":["`+p.base+`"]`)
	assert.Contains(t, get("/.well-known/oauth-authorization-server"), `"registration_endpoint":"`+p.base+`/oauth/register"`)
	resp, err := http.Post(p.base+"/oauth/register", "application/json", strings.NewReader(`{"client_name":"cmd test","redirect_uris":["http://127.0.0.1/cb"]}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Contains(t, p.stderr.String(), "without --public-url", "the operator is told to set it")
	assert.NotContains(t, p.stderr.String(), oauthSecret)
}
