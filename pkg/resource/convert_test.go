package resource

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestConvert: each kind of tool content becomes resource contents named
// by the URI read; an image is carried once, as a blob.
func TestConvert(t *testing.T) {
	const uri = "forgejo://o/r/issues/3/attachments/7"
	png := []byte("\x89PNG\r\n\x1a\n")
	tests := []struct {
		name    string
		content []mcp.Content
		want    []mcp.ResourceContents
	}{
		{"metadata and text file", []mcp.Content{mcp.NewTextContent(`{"content":"text","mime_type":"text/csv"}`), mcp.NewTextContent("a,b\n")},
			[]mcp.ResourceContents{
				mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: `{"content":"text","mime_type":"text/csv"}`},
				mcp.TextResourceContents{URI: uri, MIMEType: "text/csv", Text: "a,b\n"}}},
		{"image only", []mcp.Content{mcp.NewTextContent(`{}`), tool.Image("image/png", png)},
			[]mcp.ResourceContents{
				mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: `{}`},
				mcp.BlobResourceContents{URI: uri, MIMEType: "image/png", Blob: "iVBORw0KGgo="}}},
		{"blob and the same image", []mcp.Content{mcp.NewTextContent(`{}`), tool.Blob("https://forge/x", "image/png", png), tool.Image("image/png", png)},
			[]mcp.ResourceContents{
				mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: `{}`},
				mcp.BlobResourceContents{URI: uri, MIMEType: "image/png", Blob: "iVBORw0KGgo="}}},
		{"next window", []mcp.Content{mcp.NewTextContent(`{"next_offset":1048576}`), tool.Blob("", "application/pdf", []byte("%PDF"))},
			[]mcp.ResourceContents{
				mcp.TextResourceContents{URI: uri, MIMEType: "application/json", Text: `{"next_offset":1048576,"next_uri":"forgejo://o/r/issues/3/attachments/7?max_bytes=10&offset=1048576"}`},
				mcp.BlobResourceContents{URI: uri, MIMEType: "application/pdf", Blob: "JVBERg=="}}},
	}
	target := Target{Kind: KindIssueAttachment, Args: map[string]any{"owner": "o", "repo": "r", "index": int64(3), "attachment_id": int64(7), "offset": int64(0), "max_bytes": int64(10)}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := withNextWindow(convert(uri, &mcp.CallToolResult{Content: tt.content}), target)
			require.Len(t, got, len(tt.want))
			assert.Equal(t, tt.want, got)
		})
	}
}
