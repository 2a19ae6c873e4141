package repo_test

import (
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// get_file_content of a PDF returns its text by page; of an image, the
// image (once); a page range of a file that is no PDF is refused.
func TestGetFileContentPDFAndImage(t *testing.T) {
	f := fakeforge.New(t)
	doc := pdfgen.Doc(pdfgen.Options{Compress: true},
		pdfgen.Page{Lines: []string{"Design"}}, pdfgen.Page{Font: "Courier", Lines: []string{"Appendix"}})
	f.JSON("GET /api/v1/repos/o/r/contents/docs/design.pdf", 200, contents("docs/design.pdf", string(doc)))
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	f.JSON("GET /api/v1/repos/o/r/contents/logo.png", 200, contents("logo.png", png))
	f.JSON("GET /api/v1/repos/o/r/contents/a.txt", 200, contents("a.txt", "text\n"))
	call := func(args map[string]any) *mcp.CallToolResult {
		args["owner"], args["repo"] = "o", "r"
		return f.Call(t, repo.Tools(), "get_file_content", args)
	}

	res := call(map[string]any{"path": "docs/design.pdf", "pages": "2"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"path":"docs/design.pdf","sha":"abc123","size":`+itoa(len(doc))+`,"mime_type":"application/pdf",
		"pdf":{"page_count":2,"pages":"2"}}`, fakeforge.Text(t, res))
	require.Len(t, res.Content, 2)
	assert.Equal(t, "--- page 2 of 2 ---\nAppendix\n", res.Content[1].(mcp.TextContent).Text)

	res = call(map[string]any{"path": "logo.png"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	require.Len(t, res.Content, 2)
	img, ok := res.Content[1].(mcp.ImageContent)
	require.True(t, ok)
	assert.Equal(t, "image/png", img.MIMEType)
	assert.Contains(t, fakeforge.Text(t, res), `"mime_type":"image/png"`)

	res = call(map[string]any{"path": "a.txt", "pages": "1"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "is not a PDF, so it has no pages to read")
	res = call(map[string]any{"path": "docs/design.pdf", "pages": "5"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "page 5 is past the end (2 pages)")
}

func itoa(i int) string { return fmt.Sprint(i) }
