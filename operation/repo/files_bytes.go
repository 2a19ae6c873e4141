package repo

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// How get_file_content turns a file's bytes into its answer: decoded from
// the contents API, then text in line windows, a PDF's text, an image.

// show answers get_file_content with data, the file's bytes.
func show(ctx context.Context, out File, data []byte, a tool.Args) (*mcp.CallToolResult, error) {
	if a.Has("pages") && !pdftext.IsPDF(data) {
		return nil, fmt.Errorf("file %s is not a PDF, so it has no pages to read; leave out pages", fileRef(a, a.String("ref")))
	}
	if tool.IsBinary(data) {
		return binaryFile(ctx, out, data, a)
	}
	return window(out, string(data), a)
}

// binaryFile shows what an agent can read of a binary file: a PDF's text
// page by page, an image as image content; else only its size.
func binaryFile(ctx context.Context, out File, data []byte, a tool.Args) (*mcp.CallToolResult, error) {
	if it, ok := tool.ImageType(data); ok {
		out.MIMEType = it
		res, err := tool.JSON(out)
		if err != nil {
			return nil, err
		}
		res.Content = append(res.Content, tool.Image(it, data))
		return res, nil
	}
	if pdftext.IsPDF(data) {
		info, text, ok, err := pdftext.Read(ctx, data, a.String("pages"))
		if err != nil {
			return nil, err
		}
		out.MIMEType, out.PDF = "application/pdf", &info
		res, err := tool.JSON(out)
		if err != nil || !ok {
			return res, err
		}
		res.Content = append(res.Content, mcp.NewTextContent(text))
		return res, nil
	}
	out.Note = joinNote(out.Note, fmt.Sprintf("binary file (%d bytes): not shown", len(data)))
	return tool.JSON(out)
}

func decodeContent(cr sdk.ContentsResponse) ([]byte, error) {
	if cr.Encoding != nil && *cr.Encoding != "base64" {
		if *cr.Encoding == "" {
			return []byte(*cr.Content), nil
		}
		return nil, fmt.Errorf("unknown content encoding %q", forgejo.Clip(*cr.Encoding))
	}
	content := *cr.Content
	if strings.ContainsAny(content, "\n\r ") { // wrapped: unwrapped first (a copy)
		content = strings.Map(dropSpace, content)
	}
	data, err := base64.StdEncoding.DecodeString(content)
	if err != nil {
		return nil, fmt.Errorf("decoding the file's base64 content: %w", err)
	}
	return data, nil
}

func dropSpace(r rune) rune {
	if r == '\n' || r == '\r' || r == ' ' {
		return -1
	}
	return r
}

// joinNote is note a, then b, either of which may be "".
func joinNote(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}
