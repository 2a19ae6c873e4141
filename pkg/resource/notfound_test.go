package resource_test

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
)

// TestCleanReplyAndEncoded: both forms take mcp-go's wording off a
// not-found reply and leave everything else as it was; the encoded form
// works on a JSON body and on a server-sent event, whatever the reason
// holds (quotes, the suffix's own words, escapes).
func TestCleanReplyAndEncoded(t *testing.T) {
	wrap := func(inner string) string {
		return "handler not found for resource URI '" + inner + "': resource not found"
	}
	tests := []struct{ msg, want string }{
		{wrap("forgejo://o/r/issues/9: issue o/r#9 not found (404)"), "forgejo://o/r/issues/9: issue o/r#9 not found (404)"},
		{wrap(`forgejo://o/r/x": a "quoted" reason': resource not found, really`), `forgejo://o/r/x": a "quoted" reason': resource not found, really`},
		{wrap("forgejo://o/r/lab\u202eels <&>: invalid"), "forgejo://o/r/lab\u202eels <&>: invalid"},
		{"permission denied (403)", "permission denied (403)"},
		{"handler not found for resource URI 'x'", "handler not found for resource URI 'x'"},
	}
	for _, tt := range tests {
		reply := mcp.JSONRPCError{JSONRPC: "2.0", ID: mcp.NewRequestId(1), Error: mcp.NewJSONRPCErrorDetails(mcp.RESOURCE_NOT_FOUND, tt.msg, nil)}
		got := resource.CleanReply(reply).(mcp.JSONRPCError)
		assert.Equal(t, tt.want, got.Error.Message)
		assert.Equal(t, mcp.RESOURCE_NOT_FOUND, got.Error.Code)

		enc, err := json.Marshal(reply)
		assert.NoError(t, err)
		want, err := json.Marshal(got)
		assert.NoError(t, err)
		assert.Equal(t, string(want)+"\n", string(resource.CleanEncoded(append(enc, '\n'))), "a JSON body")
		sse := "event: message\ndata: " + string(enc) + "\n\n"
		assert.Equal(t, "event: message\ndata: "+string(want)+"\n\n", string(resource.CleanEncoded([]byte(sse))), "an event")
	}
	ok := mcp.JSONRPCResponse{JSONRPC: "2.0", ID: mcp.NewRequestId(1), Result: map[string]any{"contents": []any{}}}
	assert.Equal(t, ok, resource.CleanReply(ok), "a result is left alone")
}
