package httpserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

// TestInlineCapHeader: X-MCP-Max-Inline-Bytes lowers the inline cap for
// one request (a client whose result cap a 1 MiB blob exceeds), never
// raises the server's, and a malformed value is refused, not ignored.
func TestInlineCapHeader(t *testing.T) {
	fx := newFixture(t, func(o *Options) { o.Defs = operation.All() })
	const uuid = "3f2c1a9e-5b7d-4e21-9c3a-1d2e3f4a5b6c"
	file := []byte(strings.Repeat("\x00\x01binary", 8<<10)) // 64 KiB of bytes that are not text
	fx.forge.JSON("GET /api/v1/repos/alice/rocket/issues/1/assets/5", http.StatusOK, map[string]any{
		"id": 5, "name": "dump.bin", "size": len(file), "uuid": uuid,
		"browser_download_url": fx.forge.URL + "/attachments/" + uuid})
	fx.forge.Handle("GET /attachments/"+uuid, func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(file) })
	download := func(headers map[string]string) (int, map[string]any) {
		t.Helper()
		resp, body := fx.post(t, rpc{Method: "tools/call", Auth: "Bearer " + tokAlice, Headers: headers, Params: map[string]any{
			"name": "download_issue_attachment", "arguments": map[string]any{"owner": "alice", "repo": "rocket", "index": 1, "attachment_id": 5}}})
		if resp.StatusCode != http.StatusOK {
			return resp.StatusCode, map[string]any{"body": body}
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(body), &m), body)
		return resp.StatusCode, m["result"].(map[string]any)
	}
	content := func(res map[string]any) []any { return res["content"].([]any) }

	status, res := download(nil)
	require.Equal(t, http.StatusOK, status)
	require.Len(t, content(res), 2, "without the header: the metadata and the 64 KiB blob")
	assert.Equal(t, "resource", content(res)[1].(map[string]any)["type"])

	status, res = download(map[string]string{HeaderInlineCap: "16KiB"})
	require.Equal(t, http.StatusOK, status)
	require.Len(t, content(res), 1, "lowered: no bytes")
	assert.Contains(t, content(res)[0].(map[string]any)["text"], "65536 bytes is over the 16 KiB one result carries inline")

	for _, bad := range []string{"2MiB", "lots", "512"} {
		status, res = download(map[string]string{HeaderInlineCap: bad})
		assert.Equal(t, http.StatusBadRequest, status, bad)
		assert.Contains(t, res["body"], "X-MCP-Max-Inline-Bytes must be", bad)
	}
}

// TestUnknownToolHintOverHTTP: over HTTP too, an unknown tool's error
// quotes the name as sent and gives the hint after it (issue 28, B.5).
func TestUnknownToolHintOverHTTP(t *testing.T) {
	fx := newFixture(t, func(o *Options) { o.Defs = operation.All() })
	resp, body := fx.post(t, rpc{Method: "tools/call", Auth: "Bearer " + tokAlice,
		Params: map[string]any{"name": "get_issue", "arguments": map[string]any{}}})
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var m struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &m), body)
	assert.Equal(t, -32602, m.Error.Code)
	assert.Equal(t, `tool 'get_issue' not found; did you mean "get_issue_by_index"?`, m.Error.Message)
}
