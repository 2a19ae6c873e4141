package attachment_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// downloadText is the text part of a download result.
type downloadText struct {
	Attachment struct {
		ID          int64  `json:"id"`
		Name        string `json:"name"`
		Size        int64  `json:"size"`
		DownloadURL string `json:"browser_download_url"`
	} `json:"attachment"`
	Inline     bool   `json:"inline"`
	MIMEType   string `json:"mime_type"`
	Bytes      int    `json:"bytes"`
	SHA256     string `json:"sha256"`
	Offset     *int64 `json:"offset"`
	Total      int64  `json:"total"`
	NextOffset *int64 `json:"next_offset"`
	Note       string `json:"note"`
	Content    string `json:"content"`
	PDF        *struct {
		PageCount int    `json:"page_count"`
		Pages     string `json:"pages"`
		Truncated bool   `json:"truncated"`
		Note      string `json:"note"`
	} `json:"pdf"`
}

func decodeDownload(t *testing.T, s string) downloadText {
	t.Helper()
	var d downloadText
	require.NoError(t, json.Unmarshal([]byte(s), &d), s)
	return d
}

func ptr(i int64) *int64 { return &i }

func TestDownload(t *testing.T) {
	f := newForge(t)
	pdf := makePDF(t, "small", 30_000)
	midPDF := makePDF(t, "mid", 200_000)
	hugePDF := makePDF(t, "huge", attachment.MaxInlineDownloadBytes+1)
	big := randomBytes(1, 3_000_000)
	mid := randomBytes(3, 300_000)
	shot := makePNG(t, 64, 32)
	capPDF := makePDF(t, "cap", attachment.MaxInlineDownloadBytes)
	longText := []byte(strings.Repeat("a line of a long log file\n", 4000)) // 104 KB
	pdfA := f.add("issue/3", "small.pdf", pdf)
	midA := f.add("issue/3", "mid.pdf", midPDF)
	hugeA := f.add("issue/3", "huge.pdf", hugePDF)
	midBin := f.add("issue/3", "mid.bin", mid)
	bigA := f.add("issue/3", "big.bin", big)
	pngA := f.add("comment/7", "screenshot.png", shot)
	fakePNG := f.add("issue/3", "fake.png", []byte("not an image at all"))
	capA := f.add("issue/3", "cap.pdf", capPDF)
	logA := f.add("issue/3", "build.log", longText)
	require.Len(t, capPDF, attachment.MaxInlineDownloadBytes)
	issueURI := func(id int64) string { return "forgejo://o/r/issues/3/attachments/" + itoa(id) }

	tests := []struct {
		name       string
		tool       string
		args       map[string]any
		want       []byte // the file's bytes in the result; nil: none
		kind       string // "blob", "image" or "text"; "pdf text" for the text alone
		uri        string // a blob's URI
		wantMIME   string
		offset     *int64
		next       *int64
		errText    string
		noteSubstr string
		pdfText    string // the PDF's text, which comes besides its bytes
	}{
		{"small pdf: its bytes and its text", "download_issue_attachment", args("index", 3, "attachment_id", pdfA.ID), pdf, "blob", issueURI(pdfA.ID), "application/pdf", nil, nil, "", "", "small"},
		{"a 200 KB PDF: its bytes and its text", "download_issue_attachment", args("index", 3, "attachment_id", midA.ID), midPDF, "blob", issueURI(midA.ID), "application/pdf", nil, nil, "", "", "mid"},
		{"exactly 1 MiB inline", "download_issue_attachment", args("index", 3, "attachment_id", capA.ID), capPDF, "blob", issueURI(capA.ID), "application/pdf", nil, nil, "", "", "cap"},
		{"a PDF over 1 MiB: its text, not its bytes", "download_issue_attachment", args("index", 3, "attachment_id", hugeA.ID), []byte("huge"), "pdf text", "", "", nil, nil, "",
			"1048577 bytes is over the 1 MiB one result carries inline, so only the text is included", ""},
		{"text_only: the PDF's text without its bytes", "download_issue_attachment", args("index", 3, "attachment_id", midA.ID, "text_only", true), []byte("mid"), "pdf text", "", "", nil, nil, "",
			"text_only: the PDF's bytes are left out", ""},
		{"a 300 KB binary whole", "download_issue_attachment", args("index", 3, "attachment_id", midBin.ID), mid, "blob", issueURI(midBin.ID), "application/octet-stream", nil, nil, "", "", ""},
		{"a text file over 48 KiB is a blob", "download_issue_attachment", args("index", 3, "attachment_id", logA.ID), longText, "blob", issueURI(logA.ID), "text/plain", nil, nil, "",
			"a text file over the 48 KiB one result carries as text: its exact bytes are the blob", ""},
		{"screenshot is an image, once", "download_comment_attachment", args("comment_id", 7, "attachment_id", pngA.ID), shot, "image", "", "image/png", nil, nil, "", "", ""},
		{"a .png that is not one is text", "download_issue_attachment", args("index", 3, "attachment_id", fakePNG.ID), []byte("not an image at all"), "text", "", "text/plain", nil, nil, "", "", ""},
		{"over the cap: metadata and URL only", "download_issue_attachment", args("index", 3, "attachment_id", bigA.ID), nil, "", "", "", nil, nil, "",
			"3000000 bytes is over the 1 MiB one result carries inline, so no bytes are included: call download_issue_attachment again with offset 0 to read it in windows of up to 1 MiB", ""},
		{"first window", "download_issue_attachment", args("index", 3, "attachment_id", bigA.ID, "offset", 0), big[:1<<20], "blob", issueURI(bigA.ID) + "?offset=0&max_bytes=1048576", "application/octet-stream", ptr(0), ptr(1 << 20), "", "", ""},
		{"a whole file as one window when asked", "download_issue_attachment", args("index", 3, "attachment_id", midBin.ID, "offset", 0, "max_bytes", 1<<20), mid, "blob", issueURI(midBin.ID), "application/octet-stream", ptr(0), nil, "", "", ""},
		{"middle window", "download_issue_attachment", args("index", 3, "attachment_id", bigA.ID, "offset", 1000, "max_bytes", 5000), big[1000:6000], "blob", issueURI(bigA.ID) + "?offset=1000&max_bytes=5000", "application/octet-stream", ptr(1000), ptr(6000), "", "", ""},
		{"last window", "download_issue_attachment", args("index", 3, "attachment_id", bigA.ID, "offset", 2_999_000), big[2_999_000:], "blob", issueURI(bigA.ID) + "?offset=2999000&max_bytes=1000", "application/octet-stream", ptr(2_999_000), nil, "", "", ""},
		{"whole image as a window is still an image", "download_comment_attachment", args("comment_id", 7, "attachment_id", pngA.ID, "max_bytes", 1<<20), shot, "image", "", "image/png", ptr(0), nil, "", "", ""},
		{"part of an image is a blob", "download_comment_attachment", args("comment_id", 7, "attachment_id", pngA.ID, "max_bytes", 100), shot[:100], "blob", "forgejo://o/r/comments/7/attachments/" + itoa(pngA.ID) + "?offset=0&max_bytes=100", "image/png", ptr(0), ptr(100), "", "", ""},
		{"offset past the end", "download_issue_attachment", args("index", 3, "attachment_id", bigA.ID, "offset", 3_000_000), nil, "", "", "", nil, nil, "offset 3000000 is at or past the end", "", ""},
		{"window over 1 MiB refused", "download_issue_attachment", args("index", 3, "attachment_id", bigA.ID, "max_bytes", 2<<20), nil, "", "", "", nil, nil, `argument "max_bytes" must be at most 1048576`, "", ""},
		{"negative offset refused", "download_issue_attachment", args("index", 3, "attachment_id", bigA.ID, "offset", -1), nil, "", "", "", nil, nil, `argument "offset" must be at least 0`, "", ""},
		{"missing attachment", "download_issue_attachment", args("index", 3, "attachment_id", 999), nil, "", "", "", nil, nil, "attachment 999 not found on issue o/r#3", "", ""},
		{"pages of a file that is no PDF", "download_issue_attachment", args("index", 3, "attachment_id", fakePNG.ID, "pages", "1"), nil, "", "", "", nil, nil, "fake.png is not a PDF (text/plain), so it has no pages to read; leave out pages", "", ""},
		{"pages with a window", "download_issue_attachment", args("index", 3, "attachment_id", pdfA.ID, "pages", "1", "offset", 0), nil, "", "", "", nil, nil, "leave out offset and max_bytes, or pages", "", ""},
		{"bad page range", "download_issue_attachment", args("index", 3, "attachment_id", pdfA.ID, "pages", "2-1"), nil, "", "", "", nil, nil, `argument "pages": bad page range "2-1"`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.call(t, tt.tool, tt.args)
			if tt.errText != "" {
				require.True(t, res.IsError)
				assert.Contains(t, textOf(t, res), tt.errText)
				return
			}
			require.False(t, res.IsError, textOf(t, res))
			d := decodeDownload(t, textOf(t, res))
			assert.NotEmpty(t, d.Attachment.DownloadURL, "browser_download_url is always there")
			p := payloadOf(t, res)
			if tt.want == nil {
				assert.Empty(t, p.kind, "no bytes")
				assert.False(t, d.Inline)
				assert.Contains(t, d.Note, tt.noteSubstr)
				assert.Len(t, res.Content, 1)
				return
			}
			if tt.kind == "pdf text" {
				assert.Empty(t, p.kind, "no bytes")
				assert.False(t, d.Inline)
				assert.Contains(t, d.Note, tt.noteSubstr)
				require.Len(t, res.Content, 2)
				assert.Contains(t, res.Content[1].(mcp.TextContent).Text, string(tt.want))
				return
			}
			assert.Equal(t, tt.kind, p.kind)
			assert.Equal(t, tt.kind, d.Content)
			assert.Equal(t, 1, p.count, "the bytes are carried once")
			assert.Equal(t, tt.want, p.data)
			assert.Equal(t, tt.wantMIME, d.MIMEType)
			assert.Equal(t, tt.uri, p.uri)
			assert.True(t, d.Inline)
			assert.Equal(t, len(tt.want), d.Bytes)
			assert.Equal(t, sum(tt.want), d.SHA256)
			assert.Equal(t, tt.offset, d.Offset)
			assert.Equal(t, tt.next, d.NextOffset)
			if tt.pdfText != "" {
				require.Len(t, res.Content, 3, "the metadata, the PDF's text, its bytes")
				assert.Contains(t, res.Content[1].(mcp.TextContent).Text, tt.pdfText)
			}
		})
	}
}

// TestDownloadInlineCap: a server (--max-inline-bytes) or a request (its
// header) lowers the cap for clients whose result cap a 1 MiB blob
// exceeds; the lower of the two wins, a request can never raise it, and a
// window asked larger than the cap is refused, never cut.
func TestDownloadInlineCap(t *testing.T) {
	f := newForge(t)
	small := randomBytes(4, 60<<10)
	pdf := makePDF(t, "capped", 200_000)
	smallA := f.add("issue/3", "small.bin", small)
	pdfA := f.add("issue/3", "capped.pdf", pdf)
	lowered := tool.WithInlineCap(context.Background(), 16<<10)
	raised := tool.WithInlineCap(context.Background(), 512<<10)
	tests := []struct {
		name      string
		ctx       context.Context
		serverCap int64
		args      map[string]any
		want      []byte
		errText   string
		note      string
	}{
		{"under the server's cap: whole", context.Background(), 64 << 10, args("index", 3, "attachment_id", smallA.ID), small, "", ""},
		{"a PDF over the server's cap: its text alone", context.Background(), 64 << 10, args("index", 3, "attachment_id", pdfA.ID), nil, "",
			"200000 bytes is over the 64 KiB one result carries inline, so only the text is included"},
		{"the default window is the cap", context.Background(), 64 << 10, args("index", 3, "attachment_id", pdfA.ID, "offset", 0), pdf[:64<<10], "", ""},
		{"a window over the cap is refused", context.Background(), 64 << 10, args("index", 3, "attachment_id", pdfA.ID, "offset", 0, "max_bytes", 1<<20), nil,
			"invalid arguments: max_bytes 1048576 is over the 64 KiB this server returns in one result (its inline cap, --max-inline-bytes or the X-MCP-Max-Inline-Bytes request header); ask for at most 65536", ""},
		{"a request lowers the server's cap", lowered, 64 << 10, args("index", 3, "attachment_id", smallA.ID), nil, "",
			"61440 bytes is over the 16 KiB one result carries inline, so no bytes are included"},
		{"a request cannot raise it", raised, 64 << 10, args("index", 3, "attachment_id", pdfA.ID), nil, "",
			"over the 64 KiB one result carries inline"},
		{"a request lowers the default", lowered, 0, args("index", 3, "attachment_id", pdfA.ID, "offset", 0), pdf[:16<<10], "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.callCapped(t, tt.ctx, f.Client(), tt.serverCap, "download_issue_attachment", tt.args)
			if tt.errText != "" {
				require.True(t, res.IsError)
				assert.Equal(t, tt.errText, textOf(t, res))
				return
			}
			require.False(t, res.IsError, textOf(t, res))
			d := decodeDownload(t, textOf(t, res))
			blob, _ := blobOf(t, res)
			assert.Equal(t, sum(tt.want), sum(blob))
			assert.Contains(t, d.Note, tt.note)
		})
	}
}

// TestDownloadReassembles reads a 3 MB file window by window, following
// next_offset, and gets the same bytes.
func TestDownloadReassembles(t *testing.T) {
	f := newForge(t)
	big := randomBytes(2, 3_000_000)
	a := f.add("issue/3", "big.bin", big)
	var got []byte
	offset := int64(0)
	for calls := 0; calls < 10; calls++ {
		res := f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", a.ID, "offset", offset, "max_bytes", 1<<20))
		require.False(t, res.IsError, textOf(t, res))
		blob, _ := blobOf(t, res)
		got = append(got, blob...)
		d := decodeDownload(t, textOf(t, res))
		assert.Equal(t, int64(len(big)), d.Total)
		if d.NextOffset == nil {
			break
		}
		offset = *d.NextOffset
	}
	assert.Equal(t, sum(big), sum(got))
}

// TestDownloadNeverLeavesTheForge: a browser_download_url on another origin
// (a misconfigured ROOT_URL, or a hostile answer) is not contacted; the
// bytes come from the same route on the configured forge.
func TestDownloadNeverLeavesTheForge(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1) }))
	defer other.Close()
	f := newForge(t)
	a := f.add("issue/3", "a.txt", []byte("hello"))
	a.DownloadURL = other.URL + "/attachments/" + a.UUID
	res := f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", a.ID))
	require.False(t, res.IsError, textOf(t, res))
	assert.Equal(t, "hello", string(payloadOf(t, res).data))
	assert.Equal(t, "/attachments/"+a.UUID, f.Requests()[len(f.Requests())-1].Path)
	assert.Zero(t, hits.Load())

	a.UUID = "../../admin"
	res = f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", a.ID))
	require.True(t, res.IsError)
	assert.Contains(t, textOf(t, res), "no download URL on one of its own attachment routes")
	assert.Zero(t, hits.Load())
}

// TestDownloadStaysOnAttachmentRoutes: a browser_download_url on the
// forge's own origin but not on an attachment download route (Forgejo lets
// a repository writer give a release attachment an external URL) is never
// fetched with the token: the bytes come from attachments/{uuid}, with a
// note, or the call fails when there is no UUID either.
func TestDownloadStaysOnAttachmentRoutes(t *testing.T) {
	for _, hostile := range []string{
		"{base}/api/v1/admin/users",
		"/api/v1/admin/users",
		"{base}/api/v1/user",
		"{base}/attachments/../api/v1/admin/users",
		"{base}/attachments/%2e%2e/api/v1/admin/users",
		"{base}/attachments/{uuid}?redirect=/api/v1/admin/users",
		"{base}/o/r/settings",
		"{base}/o/r/releases/download/../../../api/v1/admin/users",
		"api/v1/admin/users",
	} {
		t.Run(hostile, func(t *testing.T) {
			f := newForge(t)
			var admin atomic.Int32
			f.Handle("/api/v1/admin/", func(w http.ResponseWriter, _ *http.Request) { admin.Add(1) })
			f.Handle("/api/v1/user", func(w http.ResponseWriter, _ *http.Request) { admin.Add(1) })
			f.Handle("/o/r/", func(w http.ResponseWriter, _ *http.Request) { admin.Add(1) })
			a := f.add("issue/3", "a.txt", []byte("hello"))
			a.DownloadURL = strings.NewReplacer("{base}", f.URL, "{uuid}", a.UUID).Replace(hostile)

			res := f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", a.ID))
			require.False(t, res.IsError, textOf(t, res))
			assert.Equal(t, "hello", string(payloadOf(t, res).data))
			assert.Contains(t, decodeDownload(t, textOf(t, res)).Note, "browser_download_url is not one of the forge's attachment download routes")

			a.UUID = "not a uuid"
			res = f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", a.ID))
			require.True(t, res.IsError)
			assert.Contains(t, textOf(t, res), "nothing was fetched")

			assert.Zero(t, admin.Load(), "no other route of the forge was requested")
			for _, r := range f.Requests() {
				assert.True(t, strings.HasPrefix(r.Path, "/api/v1/repos/o/r/issues/3/assets/") || strings.HasPrefix(r.Path, "/attachments/"), r.Path)
			}
		})
	}
}

// TestDownloadSizeLie: metadata says small, the file is over the cap.
func TestDownloadSizeLie(t *testing.T) {
	f := newForge(t)
	a := f.add("issue/3", "lie.bin", randomBytes(3, 2<<20))
	a.Size = 10
	res := f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", a.ID))
	require.True(t, res.IsError)
	assert.Contains(t, textOf(t, res), "larger than its metadata says")
}
