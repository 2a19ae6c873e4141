package actions_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
)

var (
	giteaArtifact = map[string]any{"id": 5, "name": "dist", "size_in_bytes": 12, "url": "http://x/api/v1/…",
		"archive_download_url": "http://x/api/v1/repos/o/r/actions/artifacts/5/zip", "expired": false,
		"workflow_run": map[string]any{"id": 7, "head_sha": "abc"},
		"created_at":   "2026-01-02T03:04:05Z", "expires_at": "2026-04-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z"}
	forgejoArtifact = map[string]any{"id": 5, "name": "dist", "size_in_bytes": 12, "run_id": 7,
		"archive_download_url": "http://x/api/v1/repos/o/r/actions/artifacts/5/zip", "expired": false,
		"created_at": "2026-01-02T03:04:05Z", "expires_at": "2026-04-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z"}
)

const compactArtifact = `{"id":5,"name":"dist","size":12,"run_id":7,"expired":false,
	"created":"2026-01-02T03:04:05Z","expires":"2026-04-02T03:04:05Z"}`

func TestListRunArtifactsBothShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		body any
		more bool
	}{
		{"gitea", map[string]any{"artifacts": []any{giteaArtifact}, "total_count": 3}, true},
		{"forgejo", []any{forgejoArtifact}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/actions/runs/7/artifacts", 200, tc.body)
			f.JSON("GET /api/v1/repos/o/r/actions/artifacts", 200, tc.body)
			res := f.Call(t, actions.Tools(), "list_run_artifacts", map[string]any{"owner": "o", "repo": "r", "run_id": 7.0, "name": "dist"})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			want := `{"items":[` + compactArtifact + `],"page":1,"has_more":` + map[bool]string{true: "true", false: "false"}[tc.more] + `}`
			assert.JSONEq(t, want, fakeforge.Text(t, res))
			assert.Equal(t, "limit=20&name=dist&page=1", f.LastQuery(t).Encode())

			res = f.Call(t, actions.Tools(), "list_run_artifacts", map[string]any{"owner": "o", "repo": "r"})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, want, fakeforge.Text(t, res), "repository-wide without run_id")
			reqs := f.Requests()
			assert.Equal(t, "/api/v1/repos/o/r/actions/artifacts", reqs[len(reqs)-1].Path)
		})
	}
}

func TestListRunArtifactsNotFound(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, actions.Tools(), "list_run_artifacts", map[string]any{"owner": "o", "repo": "r", "run_id": 8.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "workflow run 8 in o/r not found (404)")
	res = f.Call(t, actions.Tools(), "list_run_artifacts", map[string]any{"owner": "o", "repo": "r"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "Actions are disabled")
}

// download is download_artifact's text part.
type download struct {
	Artifact   map[string]any `json:"artifact"`
	Inline     bool           `json:"inline"`
	MIMEType   string         `json:"mime_type"`
	Bytes      int            `json:"bytes"`
	SHA256     string         `json:"sha256"`
	Offset     *int64         `json:"offset"`
	Total      int64          `json:"total"`
	NextOffset *int64         `json:"next_offset"`
	Note       string         `json:"note"`
}

func decodeDownload(t *testing.T, res *mcp.CallToolResult) (download, []byte) {
	t.Helper()
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var d download
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &d))
	if len(res.Content) < 2 {
		return d, nil
	}
	er, ok := res.Content[1].(mcp.EmbeddedResource)
	require.True(t, ok)
	blob, ok := er.Resource.(mcp.BlobResourceContents)
	require.True(t, ok)
	b, err := blobBytes(blob.Blob)
	require.NoError(t, err)
	assert.Equal(t, "application/zip", blob.MIMEType)
	return d, b
}

func artifactForge(t *testing.T, meta map[string]any, zip []byte) *fakeforge.Server {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/actions/artifacts/5", 200, meta)
	f.Handle("GET /api/v1/repos/o/r/actions/artifacts/5/zip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(zip))
	})
	return f
}

func TestDownloadArtifactWhole(t *testing.T) {
	zip := []byte("PK\x03\x04 zip bytes")
	f := artifactForge(t, forgejoArtifact, zip)
	d, body := decodeDownload(t, f.Call(t, actions.Tools(), "download_artifact", map[string]any{"owner": "o", "repo": "r", "artifact_id": 5.0}))
	sum := sha256.Sum256(zip)
	assert.Equal(t, zip, body)
	assert.True(t, d.Inline)
	assert.Equal(t, len(zip), d.Bytes)
	assert.Equal(t, hex.EncodeToString(sum[:]), d.SHA256)
	assert.Equal(t, "dist", d.Artifact["name"])
	assert.EqualValues(t, 7, d.Artifact["run_id"])
	assert.Nil(t, d.Offset)
	assert.Nil(t, d.NextOffset)
}

func TestDownloadArtifactInWindows(t *testing.T) {
	zip := bytes.Repeat([]byte("0123456789"), 5)
	f := artifactForge(t, giteaArtifact, zip)
	var got []byte
	offset := int64(0)
	for i := 0; i < 10; i++ {
		d, body := decodeDownload(t, f.Call(t, actions.Tools(), "download_artifact",
			map[string]any{"owner": "o", "repo": "r", "artifact_id": 5.0, "offset": float64(offset), "max_bytes": 20.0}))
		require.NotNil(t, d.Offset)
		assert.Equal(t, offset, *d.Offset)
		assert.Equal(t, int64(len(zip)), d.Total)
		sum := sha256.Sum256(body)
		assert.Equal(t, hex.EncodeToString(sum[:]), d.SHA256, "sha256 of this window")
		got = append(got, body...)
		if d.NextOffset == nil {
			break
		}
		offset = *d.NextOffset
	}
	assert.Equal(t, zip, got, "the windows put together are the zip")
}

func TestDownloadArtifactOverTheInlineCap(t *testing.T) {
	big := map[string]any{"id": 5, "name": "dist", "size_in_bytes": attachment.MaxInlineDownloadBytes + 1, "run_id": 7}
	f := artifactForge(t, big, nil)
	res := f.Call(t, actions.Tools(), "download_artifact", map[string]any{"owner": "o", "repo": "r", "artifact_id": 5.0})
	d, body := decodeDownload(t, res)
	assert.Nil(t, body)
	assert.False(t, d.Inline)
	assert.Contains(t, d.Note, "call download_artifact again with offset 0")
	for _, r := range f.Requests() {
		assert.NotContains(t, r.Path, "/zip", "the zip is not fetched")
	}
}

func TestDownloadArtifactRefusals(t *testing.T) {
	expired := map[string]any{"id": 5, "name": "dist", "size_in_bytes": 3, "expired": true}
	f := artifactForge(t, expired, []byte("abc"))
	res := f.Call(t, actions.Tools(), "download_artifact", map[string]any{"owner": "o", "repo": "r", "artifact_id": 5.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "artifact 5 in o/r (dist) has expired")

	res = f.Call(t, actions.Tools(), "download_artifact", map[string]any{"owner": "o", "repo": "r", "artifact_id": 6.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "artifact 6 in o/r not found (404)")
}

func blobBytes(b64 string) ([]byte, error) { return base64.StdEncoding.DecodeString(b64) }
