package cmd

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseHardeningConfig(t *testing.T, env map[string]string, args ...string) (*Config, error) {
	t.Helper()
	var cfg Config
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	getenv := func(k string) string { return env[k] }
	cfg.registerFlags(fs, getenv)
	require.NoError(t, fs.Parse(args))
	return &cfg, cfg.resolve(getenv, false)
}

func TestHardeningFlags(t *testing.T) {
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(caFile, []byte("not a certificate"), 0o600))
	const mib = 1 << 20
	tests := []struct {
		name  string
		args  []string
		err   string
		check func(t *testing.T, c *Config)
	}{
		{name: "defaults", check: func(t *testing.T, c *Config) {
			assert.Equal(t, 16*mib, c.MaxFrameBytes)
			assert.EqualValues(t, 256<<10, c.MaxArgsBytes)
			assert.EqualValues(t, 8*mib, c.MaxResultBytes)
			assert.Equal(t, 64, c.MaxOutstanding)
			assert.Equal(t, 32, c.MaxConcurrent)
			assert.Equal(t, 4, c.MaxConcurrentPerUser)
			assert.Nil(t, c.TLS)
			assert.EqualValues(t, mib, c.MaxInlineBytes, "the user's contract: files up to 1 MiB inline")
		}},
		{name: "a lower inline cap", args: []string{"--max-inline-bytes", "640KiB"}, check: func(t *testing.T, c *Config) {
			assert.EqualValues(t, 640<<10, c.MaxInlineBytes)
			assert.EqualValues(t, 640<<10, c.runner(slog.New(slog.DiscardHandler)).MaxInlineBytes)
		}},
		{name: "an inline cap over 1 MiB", args: []string{"--max-inline-bytes", "2MiB"},
			err: "--max-inline-bytes must be a number of bytes from 1024 (1KiB) to 1048576 (1MiB)"},
		{name: "frame grows with the upload limit", args: []string{"--max-upload-bytes", "30000000"}, check: func(t *testing.T, c *Config) {
			assert.Equal(t, 4*10000000+mib, c.MaxFrameBytes)
		}},
		{name: "explicit frame that fits", args: []string{"--max-upload-bytes", "3", "--max-frame-bytes", "1048580"}, check: func(t *testing.T, c *Config) {
			assert.Equal(t, 1048580, c.MaxFrameBytes)
		}},
		{name: "explicit frame too small for uploads", args: []string{"--max-frame-bytes", "1000000"},
			err: "--max-frame-bytes 1000000 cannot carry an upload of --max-upload-bytes 10485760 in base64: it needs at least 15029592"},
		{name: "zero args limit", args: []string{"--max-args-bytes", "0"}, err: "must be positive"},
		{name: "negative result limit", args: []string{"--max-result-bytes", "-1"}, err: "must be positive"},
		{name: "zero outstanding", args: []string{"--max-outstanding", "0"}, err: "must be positive"},
		{name: "insecure", args: []string{"--insecure-skip-verify"}, check: func(t *testing.T, c *Config) {
			require.NotNil(t, c.TLS)
			assert.True(t, c.TLS.InsecureSkipVerify)
		}},
		{name: "ca-file and insecure", args: []string{"--insecure-skip-verify", "--ca-file", caFile}, err: "exclude each other"},
		{name: "bad ca-file", args: []string{"--ca-file", caFile}, err: "holds no PEM certificate"},
	}
	t.Run("inline cap from the environment", func(t *testing.T) {
		c, err := parseHardeningConfig(t, map[string]string{"FORGEJO_MCP_MAX_INLINE_BYTES": "512KiB"})
		require.NoError(t, err)
		assert.EqualValues(t, 512<<10, c.MaxInlineBytes)
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseHardeningConfig(t, nil, tt.args...)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			tt.check(t, c)
		})
	}
}

func TestInsecureWarnsLoudly(t *testing.T) {
	c, err := parseHardeningConfig(t, map[string]string{"FORGEJO_URL": "https://forge.example", "FORGEJO_ACCESS_TOKEN": "t0ken"}, "--insecure-skip-verify")
	require.NoError(t, err)
	var logs bytes.Buffer
	r := c.runner(slog.New(slog.NewTextHandler(&logs, nil)))
	require.NotNil(t, r.Client)
	assert.Contains(t, logs.String(), "level=WARN")
	assert.Contains(t, logs.String(), "TLS CERTIFICATE VERIFICATION IS OFF")
	assert.Equal(t, 1, strings.Count(logs.String(), "\n"))
}
