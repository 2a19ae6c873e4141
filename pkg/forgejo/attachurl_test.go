package forgejo_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestAttachmentURL(t *testing.T) {
	const uuid = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
	base, err := forgejo.ParseBaseURL("https://forge.example/git")
	require.NoError(t, err)
	c := forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}), base, "t0k3n", "ua")
	tests := []struct {
		raw, want string // want "" when refused
	}{
		{raw: "https://forge.example/git/attachments/" + uuid, want: "https://forge.example/git/attachments/" + uuid},
		{raw: "https://forge.example/git/attachments/" + uuid + "#x", want: "https://forge.example/git/attachments/" + uuid},
		{raw: "/git/attachments/" + uuid, want: "https://forge.example/git/attachments/" + uuid},
		{raw: "https://forge.example/git/o/r/attachments/" + uuid, want: "https://forge.example/git/o/r/attachments/" + uuid},
		{raw: "https://forge.example/git/o/r/releases/download/v1.0/app.tar.gz", want: "https://forge.example/git/o/r/releases/download/v1.0/app.tar.gz"},
		{raw: "https://forge.example/git/o/r/releases/download/release/1.0/a%20b.zip", want: "https://forge.example/git/o/r/releases/download/release/1.0/a%20b.zip"},
		// Elsewhere on the forge, or on its origin outside its base path.
		{raw: "https://forge.example/git/api/v1/admin/users"},
		{raw: "/git/api/v1/admin/users"},
		{raw: "https://forge.example/attachments/" + uuid},
		{raw: "https://forge.example/other/attachments/" + uuid},
		{raw: "https://forge.example/gitx/attachments/" + uuid},
		{raw: "https://forge.example/git/attachments/" + uuid + "/x"},
		{raw: "https://forge.example/git/attachments/not-hex-at-all!"},
		{raw: "https://forge.example/git/attachments/../api/v1/admin/users"},
		{raw: "https://forge.example/git/attachments/%2e%2e%2fapi"},
		{raw: "https://forge.example/git/o/r/releases/download/..%2F..%2F..%2Fapi/x"},
		{raw: "https://forge.example/git/o/r/releases/download/v1"},
		{raw: "https://forge.example/git/o/r/settings/hooks/1"},
		{raw: "https://forge.example/git/attachments/" + uuid + "?next=/api/v1/admin/users"},
		{raw: "https://u:p@forge.example/git/attachments/" + uuid},
		{raw: "https://evil.example/git/attachments/" + uuid},
		{raw: "http://forge.example/git/attachments/" + uuid},
		{raw: "attachments/" + uuid},
		{raw: ""},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, ok := c.AttachmentURL(tt.raw)
			assert.Equal(t, tt.want != "", ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestDoRawStaysUnderTheBasePath: a forge served under a sub-path shares
// its origin; DoRaw sends the token below that path only.
func TestDoRawStaysUnderTheBasePath(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /other/secret", http.StatusOK, map[string]any{"secret": 1})
	base, _ := url.Parse(f.URL + "/forge")
	c := forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}), base, "t0k3n", "ua")
	for _, raw := range []string{f.URL + "/other/secret", "../other/secret", f.URL + "/forgex/a"} {
		_, err := c.DoRaw(context.Background(), raw, forgejo.RawOptions{MaxBytes: 100})
		require.Error(t, err, raw)
		assert.Contains(t, err.Error(), "outside the forge's base path /forge", raw)
	}
	assert.Empty(t, f.Requests())
}

// TestIsAttachmentUUID: hex digits and dashes, 8 to 64 of them.
func TestIsAttachmentUUID(t *testing.T) {
	for s, want := range map[string]bool{
		"0a1b2c3d-0000-4000-8000-000000000001": true,
		"abcdef01":                             true,
		"abcdef0":                              false,
		strings.Repeat("a", 64):                true,
		strings.Repeat("a", 65):                false,
		"0a1b2c3d-../x":                        false,
		"":                                     false,
	} {
		assert.Equal(t, want, forgejo.IsAttachmentUUID(s), s)
	}
}
