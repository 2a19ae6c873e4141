package resource_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/mcpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// newServer is the MCP server over the whole inventory (and the stubs),
// acting on the fake forge.
func newServer(t *testing.T, f *fakeforge.Server) *server.MCPServer {
	t.Helper()
	c := f.Client()
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 10 * time.Second, MaxResultBytes: tool.DefaultMaxResultBytes}
	return mcpserver.New(operation.All(), r)
}

// rpc sends one request; modern puts the 2026-07-28 _meta on it.
func rpc(t *testing.T, s *server.MCPServer, modern bool, method string, params map[string]any) map[string]any {
	t.Helper()
	if modern {
		params["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    mcp.ProtocolVersion20260728,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		}
	}
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	require.NoError(t, err)
	reply := s.HandleMessage(context.Background(), req)
	if method == "resources/read" {
		reply = resource.CleanReply(reply) // as the transports send it
	}
	b, err := json.Marshal(reply)
	require.NoError(t, err)
	require.NotContains(t, string(b), fakeforge.Token)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

// read returns the contents of a resources/read, failing on an error.
func read(t *testing.T, s *server.MCPServer, modern bool, uri string) []map[string]any {
	t.Helper()
	m := rpc(t, s, modern, "resources/read", map[string]any{"uri": uri})
	require.Nil(t, m["error"], "%s: %v", uri, m["error"])
	var out []map[string]any
	for _, c := range m["result"].(map[string]any)["contents"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

// readErr returns the error of a resources/read that must fail.
func readErr(t *testing.T, s *server.MCPServer, modern bool, uri string) (int, string) {
	t.Helper()
	m := rpc(t, s, modern, "resources/read", map[string]any{"uri": uri})
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "%s: an error, got %v", uri, m)
	return int(e["code"].(float64)), e["message"].(string)
}
