package testforge

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// WithToken returns a copy of f that acts with token.
func (f *Forge) WithToken(token string) *Forge {
	cp := *f
	cp.Token = token
	return &cp
}

// Client returns a forge client for f.Token, configured as the server
// configures its own.
func (f *Forge) Client(t testing.TB) *forgejo.Client {
	t.Helper()
	u, err := url.Parse(f.URL)
	require.NoError(t, err)
	hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: u})
	return forgejo.NewClient(hc, u, f.Token, "forgejo-mcp/live-test")
}

// Call runs the tool named name from defs against the live forge through
// the same pipeline an MCP call takes.
func (f *Forge) Call(t testing.TB, defs []tool.Def, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	d, ok := tool.Find(defs, name)
	require.True(t, ok, "tool %s exists", name)
	c := f.Client(t)
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 60 * time.Second}
	var raw any
	if args != nil {
		raw = args
	}
	return r.Call(context.Background(), d, raw)
}
