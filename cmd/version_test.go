package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version"
)

// TestVersionOutput: --version prints the build's version as text or, with
// --output json, version, commit and Go version; another --output is a
// usage error. (internal/release checks the stamps of real builds.)
func TestVersionOutput(t *testing.T) {
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Main(context.Background(), args, IO{Out: &out, Err: &errb}, func(string) string { return "" })
		return code, out.String(), errb.String()
	}
	code, out, _ := run("--version")
	assert.Equal(t, ExitOK, code)
	assert.Equal(t, "forgejo-mcp "+version.Get().Version+"\n", out)

	code, out, _ = run("--version", "--output", "json")
	require.Equal(t, ExitOK, code)
	var got version.Info
	require.NoError(t, json.Unmarshal([]byte(out), &got), out)
	assert.Equal(t, version.Get(), got)
	assert.NotEmpty(t, got.Version)
	assert.NotEmpty(t, got.GoVersion)

	code, _, errText := run("--version", "--output", "yaml")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, errText, `unknown --output "yaml": use text or json`)
}

// TestConcurrencyEnv: both bounds read their environment variables, and a
// value that is not a positive number is refused with the flags' names.
func TestConcurrencyEnv(t *testing.T) {
	tests := []struct {
		env            map[string]string
		server, perUse int
		err            string
	}{
		{env: map[string]string{}, server: 32, perUse: 4},
		{env: map[string]string{"FORGEJO_MCP_MAX_CONCURRENT": "64", "FORGEJO_MCP_MAX_CONCURRENT_PER_USER": "8"}, server: 64, perUse: 8},
		{env: map[string]string{"FORGEJO_MCP_MAX_CONCURRENT_PER_USER": "many"}, err: "--max-concurrent and --max-concurrent-per-user must be positive"},
		{env: map[string]string{"FORGEJO_MCP_MAX_CONCURRENT": "0"}, err: "--max-concurrent and --max-concurrent-per-user must be positive"},
	}
	for _, tt := range tests {
		env := func(k string) string { return tt.env[k] }
		var c Config
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		c.registerFlags(fs, env)
		require.NoError(t, fs.Parse(nil))
		err := c.resolve(env, false)
		if tt.err != "" {
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.server, c.MaxConcurrent)
		assert.Equal(t, tt.perUse, c.MaxConcurrentPerUser)
	}
}
