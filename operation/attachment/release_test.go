package attachment_test

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The release scope: the same model as the issue and comment files, on
// /repos/{owner}/{repo}/releases/{release_id}/assets.

var rawAsset = map[string]any{
	"id": 11, "name": "app.tar.gz", "size": 1234, "download_count": 2, "created_at": "2026-01-02T03:04:05Z",
	"uuid": "0b7e-aaaa", "browser_download_url": "http://x/o/r/releases/download/v1.0/app.tar.gz",
}

func releaseTools() []tool.Def { return attachment.ReleaseTools(tool.Toolset{ID: "release"}) }

func callRelease(t *testing.T, f *fakeforge.Server, name string, args map[string]any) (bool, string) {
	t.Helper()
	res := f.Call(t, releaseTools(), name, args)
	return res.IsError, fakeforge.Text(t, res)
}

// withRelease makes repository o/r and its release 5 exist, so a 404 below
// them names the attachment.
func withRelease(f *fakeforge.Server) {
	f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"id": 1})
	f.JSON("GET /api/v1/repos/o/r/releases/5", 200, map[string]any{"id": 5})
}

func TestListAndGetReleaseAttachments(t *testing.T) {
	f := fakeforge.New(t)
	withRelease(f)
	f.JSON("GET /api/v1/repos/o/r/releases/5/assets", 200, []any{rawAsset})
	f.JSON("GET /api/v1/repos/o/r/releases/5/assets/11", 200, rawAsset)
	want := `{"id":11,"name":"app.tar.gz","size":1234,"download_count":2,"created_at":"2026-01-02T03:04:05Z",
		"uuid":"0b7e-aaaa","browser_download_url":"http://x/o/r/releases/download/v1.0/app.tar.gz"}`
	isErr, text := callRelease(t, f, "list_release_attachments", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[`+want+`],"page":1,"has_more":false}`, text)
	isErr, text = callRelease(t, f, "get_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0, "attachment_id": 11.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, want, text)
	isErr, text = callRelease(t, f, "get_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0, "attachment_id": 12.0})
	assert.True(t, isErr)
	assert.Equal(t, "attachment 12 not found on release 5 in o/r (404); list_release_attachments lists the attachments it has", text)
}

func TestDownloadReleaseAttachment(t *testing.T) {
	f := fakeforge.New(t)
	data := []byte("hello release\n")
	f.JSON("GET /api/v1/repos/o/r/releases/5/assets/11", 200, map[string]any{
		"id": 11, "name": "notes.txt", "size": len(data), "uuid": "0b7e-aaaa",
		"browser_download_url": f.URL + "/o/r/releases/download/v1.0/notes.txt"})
	f.Handle("GET /o/r/releases/download/v1.0/notes.txt", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write(data)
	})
	res := f.Call(t, releaseTools(), "download_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0, "attachment_id": 11.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var meta struct {
		Inline   bool   `json:"inline"`
		MIMEType string `json:"mime_type"`
		Bytes    int    `json:"bytes"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &meta))
	assert.True(t, meta.Inline)
	assert.Equal(t, "text/plain", meta.MIMEType)
	assert.Equal(t, len(data), meta.Bytes)
	require.Len(t, res.Content, 2, "metadata and the text")
	text, ok := res.Content[1].(mcp.TextContent)
	require.True(t, ok, "a text file comes back as text")
	assert.Equal(t, string(data), text.Text)
	reqs := f.Requests()
	assert.Equal(t, "/o/r/releases/download/v1.0/notes.txt", reqs[len(reqs)-1].Path)
	assert.Contains(t, reqs[len(reqs)-1].Auth, fakeforge.Token, "the forge's own origin gets the token")
}

func TestDownloadReleaseAttachmentBlobURI(t *testing.T) {
	f := fakeforge.New(t)
	data := []byte{0, 1, 2, 3, 0xff}
	f.JSON("GET /api/v1/repos/o/r/releases/5/assets/11", 200, map[string]any{
		"id": 11, "name": "tool.bin", "size": len(data), "uuid": "0b7e-aaaa",
		"browser_download_url": f.URL + "/o/r/releases/download/v1.0/tool.bin"})
	f.Handle("GET /o/r/releases/download/v1.0/tool.bin", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(data) })
	res := f.Call(t, releaseTools(), "download_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0, "attachment_id": 11.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	require.Len(t, res.Content, 2)
	blob, ok := res.Content[1].(mcp.EmbeddedResource).Resource.(mcp.BlobResourceContents)
	require.True(t, ok)
	assert.Equal(t, "forgejo://o/r/releases/5/attachments/11", blob.URI)
	assert.Contains(t, fakeforge.Text(t, res), `"browser_download_url":"`+f.URL+`/o/r/releases/download/v1.0/tool.bin"`)
}

func TestCreateReleaseAttachment(t *testing.T) {
	f := fakeforge.New(t)
	withRelease(f)
	var got []byte
	var name string
	f.Handle("POST /api/v1/repos/o/r/releases/5/assets", func(w http.ResponseWriter, r *http.Request) {
		name = r.URL.Query().Get("name")
		file, _, err := r.FormFile("attachment")
		require.NoError(t, err)
		got, _ = io.ReadAll(file)
		fakeforge.WriteJSON(w, 201, rawAsset)
	})
	isErr, text := callRelease(t, f, "create_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0,
		"filename": "app.tar.gz", "content": base64.StdEncoding.EncodeToString([]byte("bytes"))})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"id":11`)
	assert.Equal(t, "bytes", string(got))
	assert.Equal(t, "app.tar.gz", name)

	n := len(f.Requests())
	isErr, text = callRelease(t, f, "create_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0,
		"filename": "a.txt", "content": "not base64!"})
	assert.True(t, isErr)
	assert.Contains(t, text, "not valid base64")
	assert.Len(t, f.Requests(), n, "a bad upload is refused before any request")

	isErr, text = callRelease(t, f, "create_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 6.0,
		"filename": "a.txt", "content": "eA=="})
	assert.True(t, isErr)
	assert.Equal(t, "release 6 in o/r not found (404): it does not exist or this token cannot see it", text,
		"the probe names the missing release")
}

func TestEditAndDeleteReleaseAttachment(t *testing.T) {
	f := fakeforge.New(t)
	withRelease(f)
	f.Handle("PATCH /api/v1/repos/o/r/releases/5/assets/11", func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
		assert.Equal(t, map[string]any{"name": "new.tar.gz"}, body)
		fakeforge.WriteJSON(w, 201, rawAsset)
	})
	f.Handle("DELETE /api/v1/repos/o/r/releases/5/assets/11", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })
	isErr, text := callRelease(t, f, "edit_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0,
		"attachment_id": 11.0, "name": "new.tar.gz"})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"id":11`)
	isErr, text = callRelease(t, f, "delete_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0, "attachment_id": 11.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"id":11}`, text)
	isErr, text = callRelease(t, f, "delete_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0, "attachment_id": 12.0})
	assert.True(t, isErr)
	assert.Equal(t, "attachment 12 not found on release 5 in o/r (404); list_release_attachments lists the attachments it has", text)
}

func TestEditReleaseAttachmentRefusesAPath(t *testing.T) {
	f := fakeforge.New(t)
	isErr, text := callRelease(t, f, "edit_release_attachment", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0,
		"attachment_id": 11.0, "name": "../x.txt"})
	assert.True(t, isErr)
	assert.Contains(t, text, "plain file name")
	assert.Empty(t, f.Requests())
}
