package tool_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestCleanUnknownTool(t *testing.T) {
	name := tool.UnknownToolName("get_issue", "get_issue_by_index")
	for _, tt := range []struct{ in, want string }{
		{"tool '" + name + "' not found: tool not found", `tool 'get_issue' not found; did you mean "get_issue_by_index"?`},
		{"tool 'delete_everything' not found: tool not found", "tool 'delete_everything' not found"},
		{"tool 'x' requires task augmentation", "tool 'x' requires task augmentation"},
		{"invalid params", "invalid params"},
	} {
		assert.Equal(t, tt.want, tool.CleanUnknownTool(tt.in))
		// The same, encoded, as HTTP writes it: a JSON body or an event.
		enc := []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":` + quote(tt.in) + `}}`)
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":`+quote(tt.want)+`}}`, string(tool.CleanUnknownToolEncoded(enc)))
		event := []byte("event: message\ndata: " + string(enc) + "\n\n")
		assert.Equal(t, "event: message\ndata: "+`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":`+quote(tt.want)+"}}\n\n",
			string(tool.CleanUnknownToolEncoded(event)))
	}
	res := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"tool 'x (did you mean \"y\"?)' not found: tool not found"}]}}`)
	assert.Equal(t, string(res), string(tool.CleanUnknownToolEncoded(res)), "a tool's own result text is left alone")
}

// quote is s as a JSON string, as mcp-go encodes it.
func quote(s string) string {
	out := []byte{'"'}
	for _, r := range s {
		if r == '"' || r == '\\' {
			out = append(out, '\\')
		}
		out = append(out, string(r)...)
	}
	return string(append(out, '"'))
}
