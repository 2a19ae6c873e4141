package attachment

import (
	"fmt"
	"net/url"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TextOnly is the download parameter that leaves a PDF's bytes out when
// its text was extracted, so an agent that wants the text pays only for
// it (the default keeps the bytes).
func TextOnly() tool.Param {
	return tool.Bool("text_only", "PDF: its text without the bytes")
}

// MaxPDFBytes is the largest PDF whose text a download extracts: larger
// than the inline cap, since a PDF's text is far smaller than its bytes.
const MaxPDFBytes = 16 << 20

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
