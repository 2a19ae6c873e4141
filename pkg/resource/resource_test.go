package resource_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/mcpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func fakeRepo(t *testing.T) *fakeforge.Server {
	f := fakeforge.New(t)
	file := func(p, content string) map[string]any {
		return map[string]any{"type": "file", "path": p, "name": p, "size": len(content), "encoding": "base64", "content": b64(content)}
	}
	f.JSON("GET /api/v1/repos/o/r/contents/README.md", 200, file("README.md", "# Hello\u202e\n"))
	f.JSON("GET /api/v1/repos/o/r/contents/docs/logo.png", 200, file("docs/logo.png", "\x89PNG\r\n\x1a\n\x00\x01"))
	f.JSON("GET /api/v1/repos/o/r/contents/", 200, []map[string]any{
		{"type": "file", "name": "README.md", "path": "README.md", "size": 9},
		{"type": "dir", "name": "docs", "path": "docs"}})
	f.JSON("GET /api/v1/repos/o/r/issues/3", 200, map[string]any{"number": 3, "title": "Broken", "body": "It fails", "state": "open"})
	f.JSON("GET /api/v1/repos/o/r/issues/3/comments", 200, []map[string]any{{"id": 9, "body": "me too", "user": map[string]any{"login": "bob"}}})
	f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, map[string]any{"number": 4, "title": "Fix", "state": "open"})
	f.Handle("GET /api/v1/repos/o/r/pulls/4.diff", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("diff --git a/x b/x\n+fixed\n"))
	})
	f.JSON("GET /api/v1/repos/o/r/wiki/page/{name}", 200, map[string]any{"title": "Home", "content_base64": b64("Welcome")})
	uuid := "0a1b2c3d-0000-4000-8000-000000000002"
	data := bytes.Repeat([]byte("0123456789"), 150_000) // 1.5 MB: over the 1 MiB window
	f.JSON("GET /api/v1/repos/o/r/issues/3/assets/7", 200, map[string]any{
		"id": 7, "name": "big.bin", "size": len(data), "uuid": uuid, "browser_download_url": f.URL + "/attachments/" + uuid})
	f.Handle("GET /attachments/"+uuid, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		http.ServeContent(w, r, "big.bin", time.Time{}, bytes.NewReader(data))
	})
	f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"name": "r", "full_name": "o/r", "default_branch": "main"})
	f.JSON("GET /api/v1/repos/o/r/git/commits/abc123", 200, map[string]any{"sha": "abc123", "commit": map[string]any{"message": "Fix it"}})
	f.JSON("GET /api/v1/repos/o/r/issues/5", 403, map[string]any{"message": "no"})
	return f
}

func TestReadEachKind(t *testing.T) {
	f := fakeRepo(t)
	s := newServer(t, f)
	for _, modern := range []bool{false, true} {
		t.Run(map[bool]string{false: "2025-11-25", true: "2026-07-28"}[modern], func(t *testing.T) {
			c := read(t, s, modern, "forgejo://o/r/files/README.md")
			require.Len(t, c, 1)
			assert.Equal(t, "forgejo://o/r/files/README.md", c[0]["uri"])
			assert.Equal(t, "text/markdown", c[0]["mimeType"])
			assert.Equal(t, `# Hello\u202e`+"\n", c[0]["text"], "invisible characters escaped as in tool results")

			c = read(t, s, modern, "forgejo://o/r/files/docs/logo.png?ref=main")
			require.Len(t, c, 1)
			assert.Equal(t, "image/png", c[0]["mimeType"])
			assert.Equal(t, b64("\x89PNG\r\n\x1a\n\x00\x01"), c[0]["blob"])
			assert.Equal(t, "forgejo://o/r/files/docs/logo.png?ref=main", c[0]["uri"])

			c = read(t, s, modern, "forgejo://o/r/files/")
			require.Len(t, c, 1)
			var dir resource.Listing
			require.NoError(t, json.Unmarshal([]byte(c[0]["text"].(string)), &dir))
			require.Len(t, dir.Entries, 2)
			assert.Equal(t, "forgejo://o/r/files/docs/", dir.Entries[1].URI)

			c = read(t, s, modern, "forgejo://o/r/issues/3")
			require.Len(t, c, 1)
			var issue struct {
				Issue    map[string]any
				Comments struct{ Items []map[string]any }
			}
			require.NoError(t, json.Unmarshal([]byte(c[0]["text"].(string)), &issue))
			assert.Equal(t, "Broken", issue.Issue["title"])
			require.Len(t, issue.Comments.Items, 1)
			assert.Equal(t, "me too", issue.Comments.Items[0]["body"])

			c = read(t, s, modern, "forgejo://o/r/pulls/4")
			assert.Contains(t, c[0]["text"], `"title":"Fix"`)
			c = read(t, s, modern, "forgejo://o/r/pulls/4/diff")
			assert.Contains(t, c[0]["text"], `+fixed`)
			c = read(t, s, modern, "forgejo://o/r/wiki/Home")
			assert.Contains(t, c[0]["text"], `Welcome`)
			c = read(t, s, modern, "forgejo://o/r/wiki/C++%20notes")
			assert.Contains(t, c[0]["text"], `Welcome`, "a name with characters a template variable must escape")
			assert.Equal(t, "forgejo://o/r/wiki/C++%20notes", c[0]["uri"], "contents carry the URI as asked")
			c = read(t, s, modern, "forgejo://o/r")
			assert.Contains(t, c[0]["text"], `"default_branch":"main"`)
			c = read(t, s, modern, "forgejo://o/r/commits/abc123")
			assert.Contains(t, c[0]["text"], `"message":"Fix it"`)
		})
	}
}

func TestReadAttachmentWindows(t *testing.T) {
	f := fakeRepo(t)
	s := newServer(t, f)
	const uri = "forgejo://o/r/issues/3/attachments/7"
	c := read(t, s, false, uri)
	require.Len(t, c, 2, "the metadata and the first window")
	var meta struct {
		Bytes      int
		NextOffset int64  `json:"next_offset"`
		NextURI    string `json:"next_uri"`
		Total      int64
	}
	var blob []byte
	for _, x := range c {
		assert.Equal(t, uri, x["uri"])
		if b, ok := x["blob"].(string); ok {
			var err error
			blob, err = base64.StdEncoding.DecodeString(b)
			require.NoError(t, err)
		} else {
			require.NoError(t, json.Unmarshal([]byte(x["text"].(string)), &meta))
		}
	}
	assert.Len(t, blob, 1<<20)
	assert.Equal(t, int64(1<<20), meta.NextOffset)
	assert.Equal(t, int64(1_500_000), meta.Total)
	assert.Equal(t, uri+"?offset=1048576", meta.NextURI)

	c = read(t, s, true, meta.NextURI)
	var rest []byte
	for _, x := range c {
		if b, ok := x["blob"].(string); ok {
			rest, _ = base64.StdEncoding.DecodeString(b)
		}
	}
	assert.Len(t, rest, 1_500_000-1<<20)
	assert.Equal(t, "0123456789"[(1<<20)%10:][:4], string(rest[:4]), "the window starts where the first ended")

	c = read(t, s, false, uri+"?offset=10&max_bytes=5")
	for _, x := range c {
		if b, ok := x["blob"].(string); ok {
			assert.Equal(t, b64("01234"), b)
		}
	}
}

func TestReadErrors(t *testing.T) {
	f := fakeRepo(t)
	s := newServer(t, f)
	tests := []struct {
		uri      string
		notFound bool
		msg      string
	}{
		{"forgejo://o/r/issues/999", true, "forgejo://o/r/issues/999: issue o/r#999 not found (404)"},
		{"forgejo://o/r/issues/abc", true, `index must be a number from 1, got "abc"`},
		{"forgejo://o/r/files/../../admin", true, "'.' or '..' segments"},
		{"forgejo://o/r/files/a%2F..%2Fb", true, "escaped slashes are not accepted"},
		{"forgejo://o/r~x", true, `repo "r~x" is not a valid name: letters, digits`},
		{"forgejo://o%2Fx/r", true, "not a valid URI"},
		{"forgejo://o/r/files/README.md?ref=main&x=1", true, `unknown query parameter "x"`},
		{"forgejo://o/r/labels", true, "no resource has this shape"},
		{"forgejo://o/r/lab\u202eels", true, `forgejo://o/r/lab\u202eels: invalid resource URI`},
		{"forgejo://o/r/issues/3?token=" + fakeforge.Token, true, "[REDACTED]"},
		{"forgejo://o/r/issues/5", false, "permission denied (403)"},
	}
	for _, tt := range tests {
		for _, modern := range []bool{false, true} {
			code, msg := readErr(t, s, modern, tt.uri)
			want := mcp.INTERNAL_ERROR
			if tt.notFound {
				want = map[bool]int{false: mcp.RESOURCE_NOT_FOUND, true: mcp.INVALID_PARAMS}[modern]
			}
			assert.Equal(t, want, code, "%s: %s", tt.uri, msg)
			assert.Contains(t, msg, tt.msg, tt.uri)
			assert.NotContains(t, msg, "handler not found", "mcp-go's wording is taken off")
			assert.NotContains(t, msg, fakeforge.Token)
		}
	}
	code, msg := readErr(t, s, false, "test://static-text")
	assert.Equal(t, mcp.RESOURCE_NOT_FOUND, code, "another scheme is simply not found")
	assert.Equal(t, "test://static-text: not a forgejo:// URI; this server reads only those of resources/templates/list", msg)
}

func TestTemplatesFollowTheTools(t *testing.T) {
	f := fakeRepo(t)
	m := rpc(t, newServer(t, f), false, "resources/templates/list", map[string]any{})
	var uris []string
	for _, x := range m["result"].(map[string]any)["resourceTemplates"].([]any) {
		tpl := x.(map[string]any)
		uris = append(uris, tpl["uriTemplate"].(string))
		assert.NotEmpty(t, tpl["title"])
		assert.NotEmpty(t, tpl["description"])
	}
	var want []string
	for _, tpl := range resource.Templates() {
		want = append(want, tpl.URI)
	}
	assert.ElementsMatch(t, want, uris)

	assert.Empty(t, resource.Offered(map[string]bool{"list_repo_issues": true}))
	only := resource.Offered(map[string]bool{"get_issue_by_index": true, "get_file_content": true})
	require.Len(t, only, 2)
	assert.True(t, strings.HasPrefix(only[1].URI, "forgejo://{owner}/{repo}/issues/"))
}

// TestReadNeedsTheTool: a server offering fewer tools offers fewer
// templates, and a read of another kind says which tool it needs.
func TestReadNeedsTheTool(t *testing.T) {
	f := fakeRepo(t)
	defs, err := tool.Select(operation.All(), tool.Selection{Toolsets: []string{"issue"}})
	require.NoError(t, err)
	c := f.Client()
	s := mcpserver.New(defs, &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }})
	m := rpc(t, s, false, "resources/templates/list", map[string]any{})
	require.Len(t, m["result"].(map[string]any)["resourceTemplates"], 1, "only the issue template")
	assert.NotEmpty(t, read(t, s, false, "forgejo://o/r/issues/3"))
	code, msg := readErr(t, s, false, "forgejo://o/r/wiki/Home")
	assert.Equal(t, mcp.RESOURCE_NOT_FOUND, code)
	assert.Contains(t, msg, "this server does not offer get_wiki_page")
	assert.Len(t, f.Requests(), 2, "the issue and its comments; nothing for the wiki page")
}
