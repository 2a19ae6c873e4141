package attachment

import (
	"fmt"
	"net/url"
)

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
