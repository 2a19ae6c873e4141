package fakeforge

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Call runs the tool named name from defs against the fake through the
// same pipeline an MCP call takes, with a Fresh client: each call probes
// the forge anew, over the connections the calls before it opened.
func (s *Server) Call(t testing.TB, defs []tool.Def, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	d, ok := tool.Find(defs, name)
	require.True(t, ok, "tool %s exists", name)
	c := s.Fresh()
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 10 * time.Second}
	var raw any
	if args != nil {
		raw = args
	}
	res := r.Call(context.Background(), d, raw)
	schemacheck.Result(t, d, res)
	return res
}

// Text returns a result's only text content.
func Text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotEmpty(t, res.Content)
	tc, ok := res.Content[0].(mcp.TextContent)
	require.True(t, ok, "first content is text, got %T", res.Content[0])
	return tc.Text
}
