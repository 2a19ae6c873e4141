package resource

import (
	"bytes"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// mcp-go v1.2.1 words every resources/read that matches no template as
// "handler not found for resource URI '<uri>': resource not found", and
// offers no way to change it. A URI that names nothing reaches that path
// with its URI rewritten by the hook into "<uri>: <reason>" (register.go),
// so a client would read the reason inside mcp-go's wording about
// handlers. The transports take the wording off the replies to
// resources/read, with CleanReply (stdio) or CleanEncoded (HTTP, which
// only sees the encoded reply): what is left is the hook's text.
const (
	notFoundPrefix = "handler not found for resource URI '"
	notFoundSuffix = "': resource not found"
)

// CleanReply returns m, a reply to resources/read, with mcp-go's
// not-found wording taken off its error message.
func CleanReply(m mcp.JSONRPCMessage) mcp.JSONRPCMessage {
	return tool.RewriteErrorMessage(m, cleanMessage)
}

func cleanMessage(msg string) string {
	if inner, ok := strings.CutPrefix(msg, notFoundPrefix); ok {
		if inner, ok := strings.CutSuffix(inner, notFoundSuffix); ok {
			return inner
		}
	}
	return msg
}

// The wording as it appears in an encoded reply, where the message is a
// JSON string: it has no character JSON escapes, and the suffix ends at
// the string's closing quote, which no quote inside the string can be
// mistaken for (those are escaped).
const (
	encodedPrefix = `"message":"` + notFoundPrefix
	encodedSuffix = notFoundSuffix + `"`
)

// CleanEncoded returns b, an encoded reply to resources/read (a JSON
// object, or a server-sent event carrying one), with mcp-go's not-found
// wording taken off its error message; b is returned as is when the
// wording is not there.
func CleanEncoded(b []byte) []byte {
	i := bytes.Index(b, []byte(encodedPrefix))
	if i < 0 {
		return b
	}
	start := i + len(encodedPrefix)
	j := bytes.Index(b[start:], []byte(encodedSuffix))
	if j < 0 {
		return b
	}
	out := make([]byte, 0, len(b))
	out = append(out, b[:i]...)
	out = append(out, `"message":"`...)
	out = append(out, b[start:start+j]...)
	out = append(out, '"')
	return append(out, b[start+j+len(encodedSuffix):]...)
}
