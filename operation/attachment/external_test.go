package attachment_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// TestRecordedExternalAssets replays a real Forgejo 13.0.5's answers for
// release v2.0 of forgeadmin/sweep-rec: asset 4 a file, 5 and 6 external
// links a repository writer set (https://example.invalid/…, and
// /api/v1/user on the forge itself, whose download the recording sweep
// followed with the token and got the user's record as the file). The
// download tool reports an external asset with its URL and fetches
// nothing; the file still downloads.
func TestRecordedExternalAssets(t *testing.T) {
	f := fakeforge.New(t)
	rec, err := fakeforge.LoadRecording("forgejo-13.0.5")
	require.NoError(t, err)
	// The metadata of assets 4, 5 and 6, the file's download and the two
	// external assets' downloads (303), as the recording numbers them.
	f.ReplayExact(rec, 175, 177, 182, 176, 179, 184)
	args := func(id float64) map[string]any {
		return map[string]any{"owner": "forgeadmin", "repo": "sweep-rec", "release_id": 5.0, "attachment_id": id}
	}
	for id, url := range map[float64]string{5: "https://example.invalid/dist/tool-1.0.tar.gz", 6: f.URL + "/api/v1/user"} {
		before := len(f.Requests())
		isErr, text := callRelease(t, f, "download_release_attachment", args(id))
		require.False(t, isErr, text)
		var got struct {
			ExternalURL string `json:"external_url"`
			Note        string `json:"note"`
			Inline      bool   `json:"inline"`
		}
		require.NoError(t, json.Unmarshal([]byte(text), &got), text)
		assert.Equal(t, url, got.ExternalURL)
		assert.Contains(t, got.Note, "external")
		assert.Contains(t, got.Note, "not fetched")
		assert.False(t, got.Inline)
		reqs := f.Requests()[before:]
		require.Len(t, reqs, 1, "only the metadata was read")
		assert.Equal(t, "/api/v1/repos/forgeadmin/sweep-rec/releases/5/assets/"+map[float64]string{5: "5", 6: "6"}[id], reqs[0].Path)
	}
	for _, r := range f.Requests() {
		assert.False(t, strings.HasPrefix(r.Path, "/attachments/"), "no external asset's download route was requested")
		assert.NotEqual(t, "/api/v1/user", r.Path)
	}

	isErr, text := callRelease(t, f, "download_release_attachment", args(4))
	require.False(t, isErr, text)
	assert.Contains(t, text, `"inline":true`)
	last := f.Requests()[len(f.Requests())-1]
	assert.Equal(t, "/attachments/7fe42108-1195-446a-844c-3b2ec5c5fcae", last.Path)
	assert.Equal(t, http.MethodGet, last.Method)
}
