package tool_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestBlobType: bytes that are not text are never labelled as text
// (issue 18, item 11: a .md attachment full of control bytes came back
// as a blob labelled text/markdown).
func TestBlobType(t *testing.T) {
	text := []byte(strings.Repeat("Plain text, é and ✓.\n", 50))
	controls := bytes.Repeat([]byte("a\x1b[2J\x07\x08"), 200) // terminal escapes, bells, backspaces
	cut := []byte("ééé")
	for _, tc := range []struct {
		name, mt string
		data     []byte
		want     string
	}{
		{"text as markdown", "text/markdown", text, "text/markdown"},
		{"control bytes as markdown", "text/markdown", controls, tool.OctetStream},
		{"control bytes as JSON", "application/json", controls, tool.OctetStream},
		{"control bytes as text with a charset", "text/plain; charset=utf-8", controls, tool.OctetStream},
		{"a NUL as text", "text/plain", []byte("a\x00b"), tool.OctetStream},
		{"invalid UTF-8 as text", "text/plain", []byte("a\xff\xfeb"), tool.OctetStream},
		{"one escape in much text", "text/plain", append(bytes.Clone(text), 0x1b), "text/plain"},
		{"a window cutting a character at both ends", "text/plain", cut[1 : len(cut)-1], "text/plain"},
		{"control bytes as a zip", "application/zip", controls, "application/zip"},
		{"text as a PDF", "application/pdf", text, "application/pdf"},
		{"nothing", "text/plain", nil, "text/plain"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tool.BlobType(tc.mt, tc.data))
			blob, ok := tool.Blob("forgejo://x", tc.mt, tc.data).Resource.(mcp.BlobResourceContents)
			require.True(t, ok)
			assert.Equal(t, tc.want, blob.MIMEType, "Blob labels the same way")
		})
	}
}

func TestIsTextType(t *testing.T) {
	for mt, want := range map[string]bool{
		"text/markdown": true, "text/plain; charset=utf-8": true, "application/json": true, "application/ld+json": true,
		"image/svg+xml": true, "application/yaml": true, "application/octet-stream": false, "image/png": false, "application/pdf": false,
	} {
		assert.Equal(t, want, tool.IsTextType(mt), mt)
	}
}
