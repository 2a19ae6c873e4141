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
				// A toolset offered only by name (admin) is not in
				// the list; its tools still run when named.
				all, err := tool.Select(operation.All(), tool.Selection{Toolsets: []string{"all"}})
				require.NoError(t, err)
				assert.Len(t, cli, len(all), "--cli reaches every tool")
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

// TestEmptySelectionWarns is issue 18's item 14: --read-only --tools
// create_issue started a server with no tools and said nothing;
// --dynamic-toolsets --exclude-tools X refused to start.
func TestEmptySelectionWarns(t *testing.T) {
	tests := []struct {
		args []string
		want string // in stderr; "" for no warning
	}{
		{[]string{"--read-only", "--tools", "create_issue"}, "the selection offers no tools: --read-only leaves out every tool --tools selects: they all write to the forge (create_issue)"},
		{[]string{"--tools", "create_issue", "--exclude-tools", "create_issue"}, "the selection offers no tools: --exclude-tools leaves out every tool --tools selects"},
		{[]string{"--read-only", "--tools", "get_issue_by_index"}, ""},
		{[]string{"--dynamic-toolsets", "--read-only", "--tools", "create_issue"}, "the selection offers no tools"},
		{[]string{"--transport", "http", "--http-addr", "127.0.0.1:0", "--read-only", "--tools", "create_issue"}, "the selection offers no tools"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // HTTP: stop at once; stdio: stops at the end of input
			var out, errs bytes.Buffer
			code := Main(ctx, append([]string{"--url", "http://127.0.0.1:1"}, tt.args...),
				IO{In: strings.NewReader(""), Out: &out, Err: &errs}, func(string) string { return "" })
			assert.Equal(t, ExitOK, code, errs.String())
			if tt.want == "" {
				assert.NotContains(t, errs.String(), "offers no tools")
			} else {
				assert.Contains(t, errs.String(), tt.want)
			}
		})
	}
}

// TestDynamicToolsetsReachEveryToolset: enable_toolset reaches every
// toolset, whatever --toolsets starts with; --exclude-tools and
// --read-only still bound it.
func TestDynamicToolsetsReachEveryToolset(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"enable_toolset","arguments":{"toolset":"wiki"}}}`,
	}, "\n") + "\n"
	var out, errs bytes.Buffer
	code := Main(context.Background(), []string{"--url", "http://127.0.0.1:1", "--dynamic-toolsets", "--toolsets", "issue", "--exclude-tools", "create_wiki_page"},
		IO{In: strings.NewReader(in), Out: &out, Err: &errs}, func(string) string { return "" })
	require.Equal(t, ExitOK, code, errs.String())
	assert.Contains(t, out.String(), `get_wiki_page`, "the wiki is reachable though --toolsets named only issue")
	assert.NotContains(t, out.String(), `create_wiki_page`, "--exclude-tools still holds")
}
