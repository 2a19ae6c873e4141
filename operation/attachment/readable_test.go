package attachment_test

import (
	"bytes"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
)

func report() []byte {
	return pdfgen.Doc(pdfgen.Options{Compress: true},
		pdfgen.Page{Font: "Helvetica", Lines: []string{"Incident report", "The build broke at 14:02."}},
		pdfgen.Page{Font: "Times-Roman", Lines: []string{"Cause: a flaky test."}},
		pdfgen.Page{Image: true},
	)
}

func TestDownloadPDFText(t *testing.T) {
	f := newForge(t)
	doc := report()
	a := f.add("issue/3", "report.pdf", doc)
	bigDoc := pdfgen.Doc(pdfgen.Options{Compress: true, PadTo: 3 << 20}, pdfgen.Page{Lines: []string{"big but readable"}})
	big := f.add("issue/3", "big.pdf", bigDoc)
	fake := f.add("issue/3", "fake.pdf", randomBytes(5, 2<<20))
	broken := f.add("issue/3", "broken.pdf", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("[[[["), 10_000)...))

	tests := []struct {
		name      string
		id        int64
		pages     string
		wantText  string
		wantPages string
		blob      bool
		note      string
	}{
		{"all pages", a.ID, "", "--- page 1 of 3 ---\nIncident report\nThe build broke at 14:02.\n--- page 2 of 3 ---\nCause: a flaky test.\n" +
			"--- page 3 of 3 (no extractable text: the page is an image (a scan?); the text cannot be read without OCR) ---\n", "1-3", true,
			"1 of 3 pages have no extractable text"},
		{"one page", a.ID, "2", "--- page 2 of 3 ---\nCause: a flaky test.\n", "2", true, ""},
		{"a range", a.ID, "1-2", "--- page 1 of 3 ---\nIncident report\nThe build broke at 14:02.\n--- page 2 of 3 ---\nCause: a flaky test.\n", "1-2", true, ""},
		{"over the inline cap: text only", big.ID, "", "--- page 1 of 1 ---\nbig but readable\n", "1", false, ""},
		{"hostile: bytes, no text, a note", broken.ID, "", "", "", true, "no text: malformed PDF"},
		{"named .pdf, over the cap, not a PDF", fake.ID, "", "", "", false, "no text: the name says PDF, the bytes do not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := args("index", 3, "attachment_id", tt.id)
			if tt.pages != "" {
				args["pages"] = tt.pages
			}
			res := f.call(t, "download_issue_attachment", args)
			require.False(t, res.IsError, textOf(t, res))
			d := decodeDownload(t, textOf(t, res))
			require.NotNil(t, d.PDF)
			assert.Equal(t, tt.wantPages, d.PDF.Pages)
			assert.Contains(t, d.PDF.Note, tt.note)
			p := payloadOf(t, res)
			if tt.blob {
				assert.Equal(t, "blob", p.kind)
				assert.Equal(t, "application/pdf", d.MIMEType)
			} else {
				assert.Empty(t, p.kind)
				assert.Contains(t, d.Note, map[bool]string{true: "so only the text is included", false: "so no bytes are included"}[tt.wantText != ""])
			}
			if tt.wantText == "" {
				assert.Len(t, res.Content, map[bool]int{true: 2, false: 1}[tt.blob], "metadata and the bytes if any, no text")
				return
			}
			require.Len(t, res.Content, map[bool]int{true: 3, false: 2}[tt.blob])
			text, ok := res.Content[1].(mcp.TextContent)
			require.True(t, ok)
			assert.Equal(t, tt.wantText, text.Text)
		})
	}
	res := f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", a.ID, "pages", "9"))
	require.True(t, res.IsError)
	assert.Contains(t, textOf(t, res), "page 9 is past the end (3 pages)")
}

// TestDownloadTextOnly: text_only leaves out the bytes of a PDF whose
// text was extracted, keeps them when there is no text, and refuses a
// window; without it the bytes come as before.
func TestDownloadTextOnly(t *testing.T) {
	f := newForge(t)
	a := f.add("issue/3", "report.pdf", report())
	broken := f.add("issue/3", "broken.pdf", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("[[[["), 10_000)...))

	res := f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", a.ID, "text_only", true, "pages", "1"))
	require.False(t, res.IsError, textOf(t, res))
	d := decodeDownload(t, textOf(t, res))
	require.Len(t, res.Content, 2, "metadata and text, no blob")
	assert.False(t, d.Inline)
	assert.Empty(t, d.SHA256)
	assert.Contains(t, d.Note, "text_only: the PDF's bytes are left out")
	text, ok := res.Content[1].(mcp.TextContent)
	require.True(t, ok)
	assert.Equal(t, "--- page 1 of 3 ---\nIncident report\nThe build broke at 14:02.\n", text.Text)

	res = f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", broken.ID, "text_only", true))
	require.False(t, res.IsError, textOf(t, res))
	d = decodeDownload(t, textOf(t, res))
	assert.Equal(t, "blob", payloadOf(t, res).kind)
	assert.Contains(t, d.Note, "no text could be extracted, so the bytes are included")

	res = f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", a.ID, "text_only", true, "offset", 0))
	require.True(t, res.IsError)
	assert.Contains(t, textOf(t, res), "leave out offset and max_bytes, or text_only")
}

func TestResourceURI(t *testing.T) {
	assert.Equal(t, "forgejo://o/r/issues/3/attachments/7", attachment.ResourceURI("o", "r", "issues/3", 7, 0, 0, false))
	assert.Equal(t, "forgejo://my%20org/r.x/comments/5/attachments/7?offset=10&max_bytes=20",
		attachment.ResourceURI("my org", "r.x", "comments/5", 7, 10, 20, true))
}
