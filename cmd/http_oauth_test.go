package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

const oauthSecret = "gto_cmdtest_secret_0123456789abcdefghijkl"

// oauthFiles writes a secret file and a key file and returns their paths.
func oauthFiles(t *testing.T, key string) (secret, keyFile string) {
	dir := t.TempDir()
	secret, keyFile = filepath.Join(dir, "secret"), filepath.Join(dir, "key")
	require.NoError(t, os.WriteFile(secret, []byte(oauthSecret+"\n"), 0o600))
	require.NoError(t, os.WriteFile(keyFile, []byte(key), 0o600))
	return secret, keyFile
}

func TestOAuthProxyFlags(t *testing.T) {
	f := fakeforge.New(t)
	secret, key := oauthFiles(t, strings.Repeat("k", 64)+"\n")
	_, shortKey := oauthFiles(t, "short\n")
	empty := filepath.Join(t.TempDir(), "empty")
	require.NoError(t, os.WriteFile(empty, nil, 0o600))
	id := "0c6e1f6a-3a42-4b1e-9d61-2f1e8b7a9c10"
	tests := []struct {
		name string
		args []string
		err  string
	}{
		{"configured but off", []string{"--oauth-client-id", id}, "which is off; add --oauth-proxy"},
		{"on without files", []string{"--oauth-proxy", "--oauth-client-id", id}, "--oauth-proxy needs"},
		{"no secret file", []string{"--oauth-proxy", "--oauth-client-id", id, "--oauth-client-secret-file", "/nonexistent", "--oauth-key-file", key}, "cannot read --oauth-client-secret-file"},
		{"empty secret", []string{"--oauth-proxy", "--oauth-client-id", id, "--oauth-client-secret-file", empty, "--oauth-key-file", key}, "is empty"},
		{"short key", []string{"--oauth-proxy", "--oauth-client-id", id, "--oauth-client-secret-file", secret, "--oauth-key-file", shortKey}, "at least 32"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runMain(t, fakeEnv(f), "", append([]string{"--transport", "http"}, tt.args...)...)
			assert.Equal(t, ExitUsage, r.code, r.err)
			assert.Contains(t, r.err, tt.err)
			assert.NotContains(t, r.err, oauthSecret)
			assert.NotContains(t, r.err, "short")
		})
	}

	cfg := parseConfig(t, map[string]string{"FORGEJO_URL": f.URL, "FORGEJO_MCP_OAUTH_SCOPE": " read:user   read:issue "},
		"--transport", "http", "--oauth-proxy", "--oauth-client-id", id, "--oauth-client-secret-file", secret, "--oauth-key-file", key)
	o := httpOptions(cfg, nil, quiet())
	require.NotNil(t, o.OAuthProxy)
	assert.Equal(t, id, o.OAuthProxy.ClientID)
	assert.Equal(t, oauthSecret, o.OAuthProxy.ClientSecret, "trimmed")
	assert.Equal(t, "read:user read:issue", o.OAuthProxy.Scope)
	assert.Len(t, o.OAuthProxy.Keys, 1)
	assert.Nil(t, httpOptions(parseConfig(t, map[string]string{"FORGEJO_URL": f.URL}, "--transport", "http"), nil, quiet()).OAuthProxy, "off by default")
}
