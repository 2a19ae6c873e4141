package attachment_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
)

// TestLiveReadable: on a live forge, a generated multi-page PDF comes back
// with its text by page (ranges too), a hostile PDF with its bytes and a
// note, a text file as text, an image once.
func TestLiveReadable(t *testing.T) {
	l := newLive(t)
	doc := pdfgen.Doc(pdfgen.Options{Compress: true},
		pdfgen.Page{Font: "Helvetica", Lines: []string{"Release checklist", "1. Tag the release"}},
		pdfgen.Page{Font: "Times-Roman", Lines: []string{"2. Write the notes"}},
		pdfgen.Page{Font: "Courier", Lines: []string{"3. Announce it"}},
		pdfgen.Page{Image: true},
	)
	pdfA := l.upload(t, "issue", l.issue, "checklist.pdf", doc)
	hostile := append([]byte("%PDF-1.4\n1 0 obj\n"), bytes.Repeat([]byte("<<"), 100_000)...)
	hostileA := l.upload(t, "issue", l.issue, "hostile.pdf", hostile)
	yaml := "name: ci\non: [push]\njobs:\n  test:\n    runs-on: docker\n"
	yamlA := l.upload(t, "comment", l.comment, "ci.yaml", []byte(yaml))
	shot := makePNG(t, 40, 30)
	pngA := l.upload(t, "comment", l.comment, "shot.png", shot)

	pdfText := func(pages string) (downloadText, string) {
		kv := []any{"index", l.issue, "attachment_id", pdfA.ID}
		if pages != "" {
			kv = append(kv, "pages", pages)
		}
		res := l.call(t, "download_issue_attachment", kv...)
		d := decodeDownload(t, ok(t, res))
		require.Len(t, res.Content, 3, "metadata, text, blob")
		blob, _ := blobOf(t, res)
		assert.Equal(t, doc, blob)
		return d, res.Content[1].(mcp.TextContent).Text
	}
	d, text := pdfText("")
	assert.Equal(t, "1-4", d.PDF.Pages)
	assert.Equal(t, 4, d.PDF.PageCount)
	assert.Equal(t, "--- page 1 of 4 ---\nRelease checklist\n1. Tag the release\n--- page 2 of 4 ---\n2. Write the notes\n"+
		"--- page 3 of 4 ---\n3. Announce it\n"+
		"--- page 4 of 4 (no extractable text: the page is an image (a scan?); the text cannot be read without OCR) ---\n", text)
	assert.Contains(t, d.PDF.Note, "1 of 4 pages have no extractable text")
	for _, tc := range []struct{ pages, span, want string }{
		{"2", "2", "--- page 2 of 4 ---\n2. Write the notes\n"},
		{"2-3", "2-3", "--- page 2 of 4 ---\n2. Write the notes\n--- page 3 of 4 ---\n3. Announce it\n"},
		{"3-", "3-4", "--- page 3 of 4 ---\n3. Announce it\n--- page 4 of 4 (no extractable text: the page is an image (a scan?); the text cannot be read without OCR) ---\n"},
	} {
		d, text := pdfText(tc.pages)
		assert.Equal(t, tc.want, text, tc.pages)
		assert.Equal(t, tc.span, d.PDF.Pages, tc.pages)
	}
	res := l.call(t, "download_issue_attachment", "index", l.issue, "attachment_id", pdfA.ID, "pages", "7")
	require.True(t, res.IsError)
	assert.Contains(t, textOf(t, res), "page 7 is past the end (4 pages)")

	// Read as one window, its bytes come too.
	res = l.call(t, "download_issue_attachment", "index", l.issue, "attachment_id", hostileA.ID, "offset", 0, "max_bytes", attachment.MaxInlineDownloadBytes)
	d = decodeDownload(t, ok(t, res))
	require.NotNil(t, d.PDF)
	assert.Contains(t, d.PDF.Note, "no text: malformed PDF: no startxref at its end")
	assert.NotContains(t, d.PDF.Note, "malformed PDF: malformed PDF", "one prefix, not two")
	blob, _ := blobOf(t, res)
	assert.Equal(t, hostile, blob, "the bytes still arrive")

	res = l.call(t, "download_comment_attachment", "comment_id", l.comment, "attachment_id", yamlA.ID)
	d = decodeDownload(t, ok(t, res))
	assert.Equal(t, "text", d.Content)
	require.Len(t, res.Content, 2)
	assert.Equal(t, yaml, res.Content[1].(mcp.TextContent).Text)

	res = l.call(t, "download_comment_attachment", "comment_id", l.comment, "attachment_id", pngA.ID)
	p := payloadOf(t, res)
	assert.Equal(t, "image", p.kind)
	assert.Equal(t, 1, p.count, "the image once")
	assert.Equal(t, shot, p.data)
}

// TestLiveCLIOut: the built binary's --out saves a 3 MB attachment whole,
// byte-identical, paging through the 1 MiB windows itself.
func TestLiveCLIOut(t *testing.T) {
	l := newLive(t)
	big := randomBytes(11, 3_000_000)
	a := l.upload(t, "issue", l.issue, "big.bin", big)
	bin := builtBinary(t)
	dir := t.TempDir()
	for _, out := range []string{filepath.Join(dir, "big.bin"), "-"} {
		cmd := exec.Command(bin, "--cli", "download_issue_attachment", "--owner", l.owner, "--repo", l.repo,
			"--index", strconv.FormatInt(l.issue, 10), "--attachment-id", strconv.FormatInt(a.ID, 10), "--out", out)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "FORGEJO_URL=" + l.f.URL, "FORGEJO_ACCESS_TOKEN=" + l.f.Token}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run(), stderr.String())
		s := sha256.Sum256(big)
		assert.Equal(t, "wrote 3000000 bytes (sha256 "+hex.EncodeToString(s[:])+") to "+out+" in 3 windows\n", stderr.String())
		got := stdout.Bytes()
		if out != "-" {
			var err error
			got, err = os.ReadFile(out)
			require.NoError(t, err)
			assert.Empty(t, stdout.String())
		}
		assert.True(t, bytes.Equal(big, got), "byte-identical")
	}
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "no temporary file is left")
}
