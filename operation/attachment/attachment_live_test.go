package attachment_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea
// 1.26): each acceptance criterion of the attachments plan, through the
// real call pipeline. Run: scripts/test-forge run -- go test -race ./operation/attachment/

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// live is one private repository on the live forge with an issue and a
// comment, and a way to call the attachment tools as a given token.
type live struct {
	f            *testforge.Forge
	owner, repo  string
	issue        int64
	comment      int64
	emptyIssue   int64
	emptyComment int64
}

func newLive(t *testing.T) *live {
	f := testforge.Get(t)
	l := &live{f: f}
	l.owner, l.repo = f.NewRepo(t)
	l.issue = f.NewIssue(t, l.owner, l.repo, "spec attached", "see the PDF")
	l.comment = f.NewComment(t, l.owner, l.repo, l.issue, "and the screenshot")
	l.emptyIssue = f.NewIssue(t, l.owner, l.repo, "nothing attached", "")
	l.emptyComment = f.NewComment(t, l.owner, l.repo, l.emptyIssue, "no files here")
	return l
}

func (l *live) client(t *testing.T, token string) *forgejo.Client {
	return l.f.WithToken(token).Client(t)
}

func (l *live) callAs(t *testing.T, c *forgejo.Client, name string, kv ...any) *mcp.CallToolResult {
	t.Helper()
	args := map[string]any{"owner": l.owner, "repo": l.repo}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	d, ok := tool.Find(attachment.Tools(), name)
	require.True(t, ok, name)
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 60 * time.Second}
	return r.Call(context.Background(), d, args)
}

func (l *live) call(t *testing.T, name string, kv ...any) *mcp.CallToolResult {
	t.Helper()
	return l.callAs(t, l.client(t, l.f.Token), name, kv...)
}

// ok fails the test on an isError result and returns its text.
func ok(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.False(t, res.IsError, textOf(t, res))
	return textOf(t, res)
}

func (l *live) upload(t *testing.T, scope string, parent int64, name string, data []byte) sdk.Attachment {
	t.Helper()
	res := l.call(t, "create_"+scope+"_attachment", idParam(scope), parent, "filename", name,
		"content", base64.StdEncoding.EncodeToString(data))
	var a sdk.Attachment
	require.NoError(t, json.Unmarshal([]byte(ok(t, res)), &a))
	require.Equal(t, name, a.Name)
	require.Equal(t, int64(len(data)), a.Size)
	return a
}

func (l *live) list(t *testing.T, scope string, parent int64) []sdk.Attachment {
	t.Helper()
	var out tool.ListPage[sdk.Attachment]
	require.NoError(t, json.Unmarshal([]byte(ok(t, l.call(t, "list_"+scope+"_attachments", idParam(scope), parent))), &out))
	assert.False(t, out.HasMore, "the forge answers every attachment at once")
	return out.Items
}

func idParam(scope string) string {
	if scope == "comment" {
		return "comment_id"
	}
	return "index"
}

func names(as []sdk.Attachment) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

// fetchWithToken fetches url as an agent would after an over-cap download:
// a plain GET with the token.
func fetchWithToken(t *testing.T, rawURL, token string) []byte {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "token "+token)
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b
}

// TestLiveIssuePDF: criteria 1, 2 and 2a of the plan.
func TestLiveIssuePDF(t *testing.T) {
	l := newLive(t)
	small := makePDF(t, "requirements", 900_000) // under the 1 MiB inline cap
	big := makePDF(t, "appendix", 2_900_000)
	smallA := l.upload(t, "issue", l.issue, "requirements.pdf", small)
	bigA := l.upload(t, "issue", l.issue, "appendix.pdf", big)

	// (1) the list shows the uploaded PDFs' metadata.
	got := l.list(t, "issue", l.issue)
	require.Len(t, got, 2)
	assert.Equal(t, []string{"requirements.pdf", "appendix.pdf"}, names(got))
	assert.Equal(t, smallA.ID, got[0].ID)
	assert.Equal(t, int64(len(small)), got[0].Size)
	assert.Equal(t, l.f.URL+"/attachments/"+smallA.UUID, got[0].DownloadURL)

	// (2) a PDF under 1 MiB arrives as a blob with the upload's sha256, and
	// its text.
	res := l.call(t, "download_issue_attachment", "index", l.issue, "attachment_id", smallA.ID)
	d := decodeDownload(t, ok(t, res))
	blob, meta := blobOf(t, res)
	require.NotNil(t, meta)
	assert.Equal(t, sum(small), sum(blob))
	assert.Equal(t, sum(small), d.SHA256)
	assert.Equal(t, "application/pdf", meta.MIMEType)
	assert.Equal(t, smallA.DownloadURL, d.Attachment.DownloadURL)
	assert.Equal(t, fmt.Sprintf("forgejo://%s/%s/issues/%d/attachments/%d", l.owner, l.repo, l.issue, smallA.ID), meta.URI)
	require.Len(t, res.Content, 3, "the metadata, the PDF's text, its bytes")
	assert.Contains(t, res.Content[1].(mcp.TextContent).Text, "requirements")

	// (2a) over 1 MiB: metadata, URL and the PDF's text, no blob; the URL
	// works with the token; and the windows reassemble the same bytes.
	res = l.call(t, "download_issue_attachment", "index", l.issue, "attachment_id", bigA.ID)
	d = decodeDownload(t, ok(t, res))
	blob, meta = blobOf(t, res)
	assert.Nil(t, meta)
	assert.Nil(t, blob)
	assert.False(t, d.Inline)
	assert.Contains(t, d.Note, "offset")
	assert.Equal(t, sum(big), sum(fetchWithToken(t, d.Attachment.DownloadURL, l.f.Token)))

	var joined []byte
	offset, calls := int64(0), 0
	for {
		res := l.call(t, "download_issue_attachment", "index", l.issue, "attachment_id", bigA.ID, "offset", offset, "max_bytes", attachment.MaxInlineDownloadBytes)
		d := decodeDownload(t, ok(t, res))
		blob, _ := blobOf(t, res)
		require.LessOrEqual(t, len(blob), attachment.MaxInlineDownloadBytes)
		assert.Equal(t, int64(len(big)), d.Total)
		joined = append(joined, blob...)
		calls++
		if d.NextOffset == nil {
			break
		}
		offset = *d.NextOffset
		require.Less(t, calls, 10)
	}
	assert.Equal(t, 3, calls, "2.9 MB in 1 MiB windows")
	assert.Equal(t, sum(big), sum(joined))
}

// TestLiveLifecycle: criteria 3, 4 and 5 of the plan, on an issue and on a
// comment: zero attachments list as an empty page, then create → rename → list shows
// the new name → delete → list no longer shows it.
func TestLiveLifecycle(t *testing.T) {
	l := newLive(t)
	for _, tt := range []struct {
		scope         string
		parent, empty int64
	}{{"issue", l.issue, l.emptyIssue}, {"comment", l.comment, l.emptyComment}} {
		t.Run(tt.scope, func(t *testing.T) {
			id := idParam(tt.scope)
			assert.Equal(t, `{"items":[],"page":1,"has_more":false}`, ok(t, l.call(t, "list_"+tt.scope+"_attachments", id, tt.empty)), "(5) zero attachments")

			data := randomBytes(42, 5000)
			a := l.upload(t, tt.scope, tt.parent, "draft.bin", data)
			res := l.call(t, "edit_"+tt.scope+"_attachment", id, tt.parent, "attachment_id", a.ID, "name", "final.bin")
			assert.Contains(t, ok(t, res), `"name":"final.bin"`)
			assert.Contains(t, names(l.list(t, tt.scope, tt.parent)), "final.bin")
			assert.NotContains(t, names(l.list(t, tt.scope, tt.parent)), "draft.bin")

			res = l.call(t, "get_"+tt.scope+"_attachment", id, tt.parent, "attachment_id", a.ID)
			assert.Contains(t, ok(t, res), `"name":"final.bin"`)

			res = l.call(t, "delete_"+tt.scope+"_attachment", id, tt.parent, "attachment_id", a.ID)
			assert.JSONEq(t, fmt.Sprintf(`{"deleted":true,"id":%d}`, a.ID), ok(t, res))
			assert.NotContains(t, names(l.list(t, tt.scope, tt.parent)), "final.bin")

			res = l.call(t, "delete_"+tt.scope+"_attachment", id, tt.parent, "attachment_id", a.ID)
			require.True(t, res.IsError)
			assert.Contains(t, textOf(t, res), fmt.Sprintf("attachment %d not found on", a.ID))
		})
	}
}

// TestLiveScreenshot: an image comes back as image content a vision model
// sees, byte for byte, and only so; a non-ASCII name survives the round trip.
func TestLiveScreenshot(t *testing.T) {
	l := newLive(t)
	shot := makePNG(t, 320, 200)
	a := l.upload(t, "comment", l.comment, "Bildschirmfoto März.png", shot)
	res := l.call(t, "download_comment_attachment", "comment_id", l.comment, "attachment_id", a.ID)
	d := decodeDownload(t, ok(t, res))
	assert.Equal(t, "Bildschirmfoto März.png", d.Attachment.Name)
	img, mimeType := imageOf(t, res)
	assert.Equal(t, "image/png", mimeType)
	assert.Equal(t, sum(shot), sum(img))
	_, meta := blobOf(t, res)
	assert.Nil(t, meta, "the image is carried once, as image content")
	assert.Len(t, res.Content, 2)
}

// TestLiveErrors: what is missing is named, auth failures are told apart,
// and bad input is refused before the forge sees it.
func TestLiveErrors(t *testing.T) {
	l := newLive(t)
	a := l.upload(t, "issue", l.issue, "a.txt", []byte("hello\n"))
	readOnly := l.client(t, l.f.TokenWithScopes(t, "read:issue", "read:repository"))
	badToken := l.client(t, strings.Repeat("0", 40))
	b64 := base64.StdEncoding.EncodeToString([]byte("data"))
	tests := []struct {
		name string
		c    *forgejo.Client
		tool string
		kv   []any
		want string
	}{
		{"missing issue", nil, "list_issue_attachments", []any{"index", 999}, fmt.Sprintf("issue %s/%s#999 not found (404)", l.owner, l.repo)},
		{"missing comment", nil, "list_comment_attachments", []any{"comment_id", 999999}, fmt.Sprintf("comment 999999 in %s/%s not found (404)", l.owner, l.repo)},
		{"missing repository", nil, "list_issue_attachments", []any{"repo", "no-such-repo", "index", 1}, fmt.Sprintf("repository %s/no-such-repo not found (404)", l.owner)},
		{"missing attachment", nil, "download_issue_attachment", []any{"index", l.issue, "attachment_id", 999999}, fmt.Sprintf("attachment 999999 not found on issue %s/%s#%d", l.owner, l.repo, l.issue)},
		{"attachment of another issue", nil, "get_issue_attachment", []any{"index", l.emptyIssue, "attachment_id", a.ID}, fmt.Sprintf("attachment %d not found on issue", a.ID)},
		{"read-only token cannot upload (403)", readOnly, "create_issue_attachment", []any{"index", l.issue, "filename", "x.txt", "content", b64}, "permission denied (403)"},
		{"bad token (401)", badToken, "list_issue_attachments", []any{"index", l.issue}, "the forge rejected the token (401 Unauthorized)"},
		{"over the upload limit", l.client(t, l.f.Token).WithMaxUpload(3), "create_issue_attachment", []any{"index", l.issue, "filename", "x.txt", "content", b64}, "the upload limit is 3 bytes"},
		{"bad base64", nil, "create_issue_attachment", []any{"index", l.issue, "filename", "x.txt", "content", "%%%"}, "content is not valid base64"},
		{"path as a name", nil, "edit_issue_attachment", []any{"index", l.issue, "attachment_id", a.ID, "name", "../x"}, "must be a plain file name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			if c == nil {
				c = l.client(t, l.f.Token)
			}
			res := l.callAs(t, c, tt.tool, tt.kv...)
			require.True(t, res.IsError, textOf(t, res))
			assert.Contains(t, textOf(t, res), tt.want)
		})
	}
	assert.Equal(t, []string{"a.txt"}, names(l.list(t, "issue", l.issue)), "nothing refused was stored")
}

// TestLiveDownloadURLIsPlain checks the fact the over-cap path rests on:
// browser_download_url is on the forge's origin and serves the file to the
// token without a redirect.
func TestLiveDownloadURLIsPlain(t *testing.T) {
	l := newLive(t)
	a := l.upload(t, "issue", l.issue, "x.bin", randomBytes(7, 1000))
	u, err := url.Parse(a.DownloadURL)
	require.NoError(t, err)
	base, _ := url.Parse(l.f.URL)
	assert.True(t, forgejo.SameOrigin(u, base))
	req, _ := http.NewRequest(http.MethodGet, a.DownloadURL, nil)
	req.Header.Set("Authorization", "token "+l.f.Token)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}
