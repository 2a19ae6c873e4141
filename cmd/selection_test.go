package cmd

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestServerSelection: without --toolsets or --tools the server offers the
// default toolsets, and --cli every tool; over HTTP the default applies per
// request (DefaultToolsets) unless the flags choose.
func TestServerSelection(t *testing.T) {
	tests := []struct {
		args        []string
		server      []string // Selection.Toolsets the server offers
		httpDefault []string
	}{
		{args: nil, server: []string{"default"}, httpDefault: []string{"default"}},
		{args: []string{"--toolsets", "all"}, server: []string{"all"}},
		{args: []string{"--toolsets", "+wiki"}, server: []string{"+wiki"}},
		{args: []string{"--tools", "get_wiki_page"}, server: nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var cfg Config
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			cfg.registerFlags(fs, func(string) string { return "" })
			require.NoError(t, fs.Parse(tt.args))
			assert.Equal(t, tt.server, cfg.serverSelection().Toolsets)
			cli, err := tool.Select(operation.All(), cfg.selection())
			require.NoError(t, err)
			if len(tt.args) == 0 {
				assert.Len(t, cli, len(operation.All()), "--cli reaches every tool")
			}
			cfg.RawURL = "http://127.0.0.1:1"
			require.NoError(t, cfg.resolve(func(string) string { return "" }, true))
			assert.Equal(t, tt.httpDefault, httpOptions(&cfg, nil, newLogger(&bytes.Buffer{}, &cfg)).DefaultToolsets)
		})
	}
}

func TestDynamicToolsetsIsForStdio(t *testing.T) {
	var out, errs bytes.Buffer
	code := Main(context.Background(), []string{"--url", "http://127.0.0.1:1", "--transport", "http", "--dynamic-toolsets"},
		IO{In: strings.NewReader(""), Out: &out, Err: &errs}, func(string) string { return "" })
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, errs.String(), "--dynamic-toolsets is for stdio; over HTTP each request selects toolsets with the X-MCP-Toolsets header")
}
