package attachment_test

// End to end: the built binary on a live forge, driven over stdio by the
// official Go MCP SDK client. It proves what unit tests cannot: that blob
// and image content cross the wire intact and that uploads fit the frame.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gomcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// builtBinary builds forgejo-mcp into the test's temp dir.
func builtBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "forgejo-mcp")
	out, err := exec.Command("go", "build", "-o", bin, "codeberg.org/forgejo-mcp/forgejo-mcp").CombinedOutput()
	require.NoError(t, err, "building the binary: %s", out)
	return bin
}

type e2e struct {
	t  *testing.T
	cs *gomcp.ClientSession
}

func startE2E(t *testing.T, f *testforge.Forge) *e2e {
	cmd := exec.Command(builtBinary(t), "--toolsets", "all")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
		"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token}
	client := gomcp.NewClient(&gomcp.Implementation{Name: "attachment-e2e", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &gomcp.CommandTransport{Command: cmd}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return &e2e{t: t, cs: cs}
}

func (e *e2e) call(name string, args map[string]any) *gomcp.CallToolResult {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := e.cs.CallTool(ctx, &gomcp.CallToolParams{Name: name, Arguments: args})
	require.NoError(e.t, err, "a tool failure is a result, never a protocol error")
	require.NotEmpty(e.t, res.Content)
	return res
}

func wireText(t *testing.T, res *gomcp.CallToolResult) string {
	t.Helper()
	tc, ok := res.Content[0].(*gomcp.TextContent)
	require.True(t, ok, "first content is text, got %T", res.Content[0])
	return tc.Text
}

func TestLiveE2EAttachments(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	issue := f.NewIssue(t, owner, repo, "e2e", "")
	comment := f.NewComment(t, owner, repo, issue, "e2e comment")
	e := startE2E(t, f)
	at := func(kv ...any) map[string]any {
		m := map[string]any{"owner": owner, "repo": repo}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	upload := func(toolName, idName string, id int64, name string, data []byte) int64 {
		res := e.call(toolName, at(idName, id, "filename", name, "content", base64.StdEncoding.EncodeToString(data)))
		require.False(t, res.IsError, wireText(t, res))
		var a struct{ ID, Size int64 }
		require.NoError(t, json.Unmarshal([]byte(wireText(t, res)), &a))
		require.Equal(t, int64(len(data)), a.Size)
		return a.ID
	}
	pdf := makePDF(t, "e2e", 30_000) // whole up to 40 KiB
	shot := makePNG(t, 200, 120)
	big := randomBytes(9, 3<<20) // a 3 MiB upload crosses the stdio frame as 4 MiB of base64
	pdfID := upload("create_issue_attachment", "index", issue, "spec.pdf", pdf)
	pngID := upload("create_comment_attachment", "comment_id", comment, "shot.png", shot)
	bigID := upload("create_issue_attachment", "index", issue, "big.bin", big)

	tests := []struct {
		name      string
		tool      string
		args      map[string]any
		want      []byte
		mime      string
		wantImage bool
	}{
		{"pdf as a blob", "download_issue_attachment", at("index", issue, "attachment_id", pdfID), pdf, "application/pdf", false},
		{"screenshot as an image only", "download_comment_attachment", at("comment_id", comment, "attachment_id", pngID), shot, "image/png", true},
		{"a window of a large file", "download_issue_attachment", at("index", issue, "attachment_id", bigID, "offset", 1<<20, "max_bytes", 1<<20), big[1<<20 : 2<<20], "application/octet-stream", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.call(tt.tool, tt.args)
			require.False(t, res.IsError, wireText(t, res))
			var meta struct {
				Attachment struct {
					DownloadURL string `json:"browser_download_url"`
				} `json:"attachment"`
				SHA256 string `json:"sha256"`
			}
			require.NoError(t, json.Unmarshal([]byte(wireText(t, res)), &meta))
			assert.NotEmpty(t, meta.Attachment.DownloadURL)
			assert.Equal(t, sum(tt.want), meta.SHA256)
			var blob *gomcp.ResourceContents
			var img *gomcp.ImageContent
			for _, c := range res.Content[1:] {
				switch c := c.(type) {
				case *gomcp.EmbeddedResource:
					blob = c.Resource
				case *gomcp.ImageContent:
					img = c
				case *gomcp.TextContent: // a PDF's text
				default:
					t.Errorf("unexpected content %T", c)
				}
			}
			if tt.wantImage {
				assert.Nil(t, blob, "an image is carried once")
				require.NotNil(t, img, "image content")
				assert.Equal(t, "image/png", img.MIMEType)
				assert.Equal(t, sum(tt.want), sum(img.Data), "image bytes intact on the wire")
				return
			}
			assert.Nil(t, img)
			require.NotNil(t, blob, "an embedded blob resource")
			assert.Equal(t, sum(tt.want), sum(blob.Blob), "blob bytes intact on the wire")
			assert.Equal(t, tt.mime, blob.MIMEType)
			assert.True(t, strings.HasPrefix(blob.URI, "forgejo://"+owner+"/"+repo+"/issues/"), blob.URI)
		})
	}

	t.Run("a PDF's text and a text file, as text on the wire", func(t *testing.T) {
		doc := pdfgen.Doc(pdfgen.Options{Compress: true}, pdfgen.Page{Lines: []string{"On the wire"}}, pdfgen.Page{Font: "Courier", Lines: []string{"page two"}})
		id := upload("create_issue_attachment", "index", issue, "wire.pdf", doc)
		res := e.call("download_issue_attachment", at("index", issue, "attachment_id", id, "pages", "2"))
		require.False(t, res.IsError, wireText(t, res))
		require.Len(t, res.Content, 3)
		text, ok := res.Content[1].(*gomcp.TextContent)
		require.True(t, ok, "%T", res.Content[1])
		assert.Equal(t, "--- page 2 of 2 ---\npage two\n", text.Text)
		blob, ok := res.Content[2].(*gomcp.EmbeddedResource)
		require.True(t, ok)
		assert.Equal(t, sum(doc), sum(blob.Resource.Blob))
		assert.Equal(t, fmt.Sprintf("forgejo://%s/%s/issues/%d/attachments/%d", owner, repo, issue, id), blob.Resource.URI)

		notes := "# Notes\n\n- ünïcode survives\n"
		id = upload("create_issue_attachment", "index", issue, "notes.md", []byte(notes))
		res = e.call("download_issue_attachment", at("index", issue, "attachment_id", id))
		require.Len(t, res.Content, 2)
		text, ok = res.Content[1].(*gomcp.TextContent)
		require.True(t, ok, "%T", res.Content[1])
		assert.Equal(t, notes, text.Text)
	})
	t.Run("over the cap: no blob", func(t *testing.T) {
		res := e.call("download_issue_attachment", at("index", issue, "attachment_id", bigID))
		require.False(t, res.IsError, wireText(t, res))
		assert.Len(t, res.Content, 1)
		assert.Contains(t, wireText(t, res), `"browser_download_url"`)
	})
	t.Run("missing issue is an isError result", func(t *testing.T) {
		res := e.call("list_issue_attachments", at("index", 9999))
		assert.True(t, res.IsError)
		assert.Contains(t, wireText(t, res), "#9999 not found (404)")
	})
}
