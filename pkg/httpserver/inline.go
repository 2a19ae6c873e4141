package httpserver

import (
	"net/http"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// HeaderInlineCap lowers the inline cap (tool.InlineCap) for one request:
// the most bytes of a file a download returns in one result. A client
// whose result cap a 1 MiB blob exceeds sends it; it can only lower what
// the server allows (--max-inline-bytes), never raise it.
const HeaderInlineCap = tool.InlineCapHeader

// inlineCap returns the inline cap a request asks for, 0 when it sends
// none. checkSelectionHeaders has refused a repeated header.
func inlineCap(h http.Header) (int64, error) {
	v := h.Values(HeaderInlineCap)
	if len(v) == 0 {
		return 0, nil
	}
	return tool.ParseInlineCap(HeaderInlineCap, v[0])
}
