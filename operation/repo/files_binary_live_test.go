package repo_test

import (
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLiveGetFileContentPDF: a PDF committed to a repository reads as text
// by page through get_file_content; a PNG as an image.
func TestLiveGetFileContentPDF(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	doc := pdfgen.Doc(pdfgen.Options{Compress: true},
		pdfgen.Page{Lines: []string{"Architecture"}}, pdfgen.Page{Font: "Times-Roman", Lines: []string{"Decisions"}})
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for path, data := range map[string][]byte{"docs/arch.pdf": doc, "logo.png": png} {
		var raw []byte
		status := f.Do(t, http.MethodPost, "/repos/"+owner+"/"+name+"/contents/"+path,
			map[string]any{"content": base64.StdEncoding.EncodeToString(data), "message": "add " + path}, &raw)
		require.Equal(t, http.StatusCreated, status, string(raw))
	}
	call := func(args map[string]any) *mcp.CallToolResult {
		args["owner"], args["repo"] = owner, name
		res := f.Call(t, repo.Tools(), "get_file_content", args)
		require.False(t, res.IsError, res.Content[0].(mcp.TextContent).Text)
		require.Len(t, res.Content, 2)
		return res
	}
	res := call(map[string]any{"path": "docs/arch.pdf", "pages": "2"})
	assert.Contains(t, res.Content[0].(mcp.TextContent).Text, `"pdf":{"page_count":2,"pages":"2"}`)
	assert.Equal(t, "--- page 2 of 2 ---\nDecisions\n", res.Content[1].(mcp.TextContent).Text)
	res = call(map[string]any{"path": "logo.png"})
	assert.Equal(t, base64.StdEncoding.EncodeToString(png), res.Content[1].(mcp.ImageContent).Data)
}
