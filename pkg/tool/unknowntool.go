package tool

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// An unknown tool over MCP. mcp-go answers a tools/call for a name it does
// not know with the JSON-RPC error "tool 'NAME' not found: tool not found"
// and offers no way to add to it, so the server's before-call hook puts the
// hint into the name (UnknownToolName) and the transports move it out of
// the quotes on the way back (CleanUnknownTool for stdio, which holds the
// reply; CleanUnknownToolEncoded over HTTP, which only sees it encoded):
// tool 'get_isue' not found; did you mean "get_issue_by_index"?

const (
	hintOpen       = ` (did you mean "`
	hintClose      = `"?)`
	toolPrefix     = "tool '"
	notFoundSuffix = "' not found: tool not found"
)

// UnknownToolName is name carrying hint, for mcp-go's error to carry.
func UnknownToolName(name, hint string) string {
	if hint == "" {
		return name
	}
	return name + hintOpen + hint + hintClose
}

// CleanUnknownTool rewrites mcp-go's unknown-tool message: the name alone
// in quotes, the hint after it, without mcp-go's repeated "tool not found".
// Any other message is returned as is.
func CleanUnknownTool(msg string) string {
	inner, ok := strings.CutPrefix(msg, toolPrefix)
	if !ok {
		return msg
	}
	if inner, ok = strings.CutSuffix(inner, notFoundSuffix); !ok {
		return msg
	}
	name, hint := inner, ""
	if i := strings.LastIndex(inner, hintOpen); i >= 0 && strings.HasSuffix(inner, hintClose) {
		name, hint = inner[:i], inner[i+len(hintOpen):len(inner)-len(hintClose)]
	}
	out := toolPrefix + name + "' not found"
	if hint != "" {
		out += `; did you mean "` + hint + `"?`
	}
	return out
}

// CleanUnknownToolReply is CleanUnknownTool on a reply's error message.
func CleanUnknownToolReply(m mcp.JSONRPCMessage) mcp.JSONRPCMessage {
	return RewriteErrorMessage(m, CleanUnknownTool)
}

// RewriteErrorMessage returns m with its error message passed through f
// when m is a JSON-RPC error (a value or a pointer); a result is m as it is.
func RewriteErrorMessage(m mcp.JSONRPCMessage, f func(string) string) mcp.JSONRPCMessage {
	switch e := m.(type) {
	case mcp.JSONRPCError:
		e.Error.Message = f(e.Error.Message)
		return e
	case *mcp.JSONRPCError:
		if e != nil {
			e.Error.Message = f(e.Error.Message)
		}
	}
	return m
}

// encodedMessage starts the error message of an encoded unknown-tool reply.
var encodedMessage = []byte(`"message":"` + toolPrefix)

// CleanUnknownToolEncoded is CleanUnknownTool on b, an encoded reply to
// tools/call (a JSON object, or a server-sent event carrying one); b is
// returned as is when it holds no such message.
func CleanUnknownToolEncoded(b []byte) []byte {
	i := bytes.Index(b, encodedMessage)
	if i < 0 {
		return b
	}
	start := i + len(`"message":`)
	// The JSON string ends at the first quote not escaped.
	end := start + 1
	for end < len(b) && b[end] != '"' {
		if b[end] == '\\' {
			end++
		}
		end++
	}
	if end >= len(b) {
		return b
	}
	var msg string
	if json.Unmarshal(b[start:end+1], &msg) != nil {
		return b
	}
	clean := CleanUnknownTool(msg)
	if clean == msg {
		return b
	}
	var enc bytes.Buffer
	e := json.NewEncoder(&enc)
	e.SetEscapeHTML(false)
	if e.Encode(clean) != nil {
		return b
	}
	out := make([]byte, 0, len(b))
	out = append(out, b[:start]...)
	out = append(out, bytes.TrimSpace(enc.Bytes())...)
	return append(out, b[end+1:]...)
}
