package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/mcpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

const token = "0123456789abcdef0123456789abcdef01234567"

func call(t *testing.T, name string) map[string]any {
	t.Helper()
	defs := []tool.Def{
		{Name: "get_issue_by_index", Offline: true, Annotations: tool.Read(), Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
			return tool.JSON("issue")
		}},
		{Name: "list_repo_issues", Offline: true, Annotations: tool.Read(), Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
			return tool.JSON("issues")
		}},
	}
	base, _ := url.Parse("http://127.0.0.1:1")
	c := forgejo.NewClient(http.DefaultClient, base, token, "test")
	s := mcpserver.New(defs, &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }})
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": map[string]any{}}})
	require.NoError(t, err)
	b, err := json.Marshal(s.HandleMessage(context.Background(), req))
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

// TestUnknownToolSuggests: an unknown tool stays a JSON-RPC error, as the
// specification has it, and its message names the tool probably meant.
func TestUnknownToolSuggests(t *testing.T) {
	tests := []struct {
		name, msg string
	}{
		{"get_isue_by_index", `tool 'get_isue_by_index (did you mean "get_issue_by_index"?)' not found`},
		{"list_issues", `(did you mean "list_repo_issues"?)`},
		{"delete_everything", `tool 'delete_everything' not found`},
		{"x_" + token, `tool 'x_[REDACTED]' not found`},
		{strings.Repeat("y", 500), `tool '` + strings.Repeat("y", 64) + `…' not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name[:min(len(tt.name), 20)], func(t *testing.T) {
			m := call(t, tt.name)
			require.Contains(t, m, "error", "a protocol error, not a result: %v", m)
			e := m["error"].(map[string]any)
			assert.Equal(t, float64(mcp.INVALID_PARAMS), e["code"])
			assert.Contains(t, e["message"], tt.msg)
			assert.NotContains(t, e["message"], token)
		})
	}
	m := call(t, "get_issue_by_index")
	require.Contains(t, m, "result", "an offered tool is unaffected: %v", m)
}
