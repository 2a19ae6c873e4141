package attachment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// What a download carries, besides the metadata, so an agent can read it:
// an image as image content (once, not also as a blob), a text file as
// text, a PDF as its bytes and its text page by page, anything else as a
// blob. The helpers are exported for get_file_content, which reads
// repository files the same way.

// MaxPDFBytes is the largest PDF whose text a download extracts: larger
// than the inline cap, since a PDF's text is far smaller than its bytes.
const MaxPDFBytes = 16 << 20

// PDFInfo describes the PDF text a result carries after its metadata.
type PDFInfo struct {
	PageCount int    `json:"page_count,omitempty"`
	Pages     string `json:"pages,omitempty"` // the pages in the text: "1-3"
	Truncated bool   `json:"truncated,omitempty"`
	Note      string `json:"note,omitempty"`
}

// PagesParam is the pages parameter of the tools that read PDFs.
func PagesParam() tool.Param {
	return tool.Str("pages", `PDF pages to read as text: "2", "1-3", "4-" (default all, up to 256 KiB)`, tool.MaxLen(32))
}

// PDFText extracts the pages a asks for from data. A bad page range is an
// error for the agent to fix; a PDF that cannot be read is a note in the
// info, with no text, so the bytes still arrive.
func PDFText(ctx context.Context, data []byte, pages string) (PDFInfo, *mcp.TextContent, error) {
	res, err := pdftext.Extract(ctx, data, pdftext.Options{Pages: pages})
	switch {
	case errors.Is(err, pdftext.ErrPages):
		return PDFInfo{}, nil, fmt.Errorf("invalid arguments: argument \"pages\": %w", err)
	case err != nil:
		return PDFInfo{Note: "no text: " + err.Error()}, nil, nil
	}
	info := PDFInfo{PageCount: res.PageCount, Pages: res.Span(), Truncated: res.Truncated, Note: res.Note}
	empty := 0
	for _, p := range res.Pages {
		if p.Text == "" {
			empty++
		}
	}
	if empty > 0 && info.Note == "" {
		info.Note = fmt.Sprintf("%d of %d pages have no extractable text (their headers say why)", empty, len(res.Pages))
	}
	text := mcp.NewTextContent(pdftext.Format(res))
	return info, &text, nil
}

// IsText says whether data reads as text: valid UTF-8, no NUL byte, and
// few control characters besides line breaks, tabs and form feeds. The
// bytes decide, not the name.
func IsText(data []byte) bool {
	if len(data) == 0 || bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return false
	}
	ctl := 0
	for _, c := range data {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' || c == 0x7f {
			ctl++
		}
	}
	return ctl*100 <= len(data)
}

// ResourceURI is the forgejo:// URI of an attachment, the one resources/read
// answers: forgejo://{owner}/{repo}/{parent}/attachments/{id}, with
// ?offset=N&max_bytes=M for a window of it.
func ResourceURI(owner, repo, parent string, id int64, offset, length int64, window bool) string {
	u := fmt.Sprintf("forgejo://%s/%s/%s/attachments/%d", url.PathEscape(owner), url.PathEscape(repo), parent, id)
	if window {
		u += fmt.Sprintf("?offset=%d&max_bytes=%d", offset, length)
	}
	return u
}
