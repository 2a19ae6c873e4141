package forgejo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

const (
	uuidA = "7a7f0eef-5a2c-4ce4-9a44-d7aa59056ea9"
	uuidB = "95cc7df1-72ea-4aa8-aa4e-fef9640d767c"
)

// TestEveryHopIsChecked: a redirect is held to the checks of the first
// URL: the forge's origin, its base path (here /forge), and the kind of
// route asked for. A download that redirects to /api/v1/admin/users, out
// of the base path or to another origin is refused before the hop is
// requested, so the token never reaches it; the API may redirect within
// the API (a renamed repository) and a download to another download route.
// Both with the process's shared client and with a plain one: the route
// guard in the transport checks every hop, whatever CheckRedirect says.
func TestEveryHopIsChecked(t *testing.T) {
	var otherHits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { otherHits.Add(1) }))
	defer other.Close()

	tests := []struct {
		name, from, to string
		ok             bool
		want           string // in the refusal
	}{
		{"download to the admin API", "/forge/attachments/" + uuidA, "/forge/api/v1/admin/users", false, "refused a redirect from /forge/attachments/" + uuidA + " to /forge/api/v1/admin/users"},
		{"download to the user API (Forgejo's external asset)", "/forge/attachments/" + uuidA, "/forge/api/v1/user", false, "only from an API route to another API route or from an attachment download route to another"},
		{"download out of the base path", "/forge/attachments/" + uuidA, "/api/v1/admin/users", false, "outside the forge's base path /forge"},
		{"download to the site root", "/forge/attachments/" + uuidA, "/", false, "outside the forge's base path /forge"},
		{"download to another origin", "/forge/attachments/" + uuidA, other.URL + "/file", false, "refused a redirect to another origin"},
		{"download to a web page", "/forge/attachments/" + uuidA, "/forge/o/r/settings", false, "refused a redirect"},
		{"API out of the base path", "/forge/api/v1/repos/o/r", "/api/v1/repos/o/r", false, "outside the forge's base path /forge"},
		{"API to a download", "/forge/api/v1/repos/o/r", "/forge/attachments/" + uuidB, false, "refused a redirect"},
		{"API to another origin", "/forge/api/v1/repos/o/r", other.URL + "/api/v1/repos/o/r", false, "another origin"},
		{"download to another download", "/forge/attachments/" + uuidA, "/forge/o/r/attachments/" + uuidB, true, ""},
		{"release file to its attachment", "/forge/o/r/releases/download/v1/a.txt", "/forge/attachments/" + uuidB, true, ""},
		{"renamed repository", "/forge/api/v1/repos/o/old", "/forge/api/v1/repos/o/new", true, ""},
	}
	for _, tt := range tests {
		for name, plain := range map[string]bool{"shared client": false, "plain client": true} {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				f := fakeforge.New(t)
				f.Handle(strings.TrimSuffix("GET "+tt.from, "/"), func(w http.ResponseWriter, r *http.Request) {
					http.Redirect(w, r, tt.to, http.StatusFound)
				})
				base, err := url.Parse(f.URL + "/forge")
				require.NoError(t, err)
				hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base})
				if plain {
					hc = &http.Client{Timeout: 5 * time.Second}
				}
				c := forgejo.NewClient(hc, base, fakeforge.Token, "ua")
				_, err = c.DoRaw(context.Background(), f.URL+tt.from, forgejo.RawOptions{MaxBytes: 1 << 10})
				reqs := f.Requests()
				if tt.ok {
					require.Len(t, reqs, 2, "the hop was followed")
					assert.Equal(t, strings.TrimPrefix(tt.to, f.URL), reqs[1].Path)
					assert.Equal(t, "token "+fakeforge.Token, reqs[1].Auth)
					return
				}
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.want)
				assert.NotContains(t, err.Error(), "Get \"", "the refusal is not wrapped in the URL")
				require.Len(t, reqs, 1, "the hop was never requested")
				assert.Zero(t, otherHits.Load(), "the other origin was never contacted")
			})
		}
	}
}

// TestSDKHopsAreChecked: the SDK's requests go through the same transport,
// so its redirects meet the same checks.
func TestSDKHopsAreChecked(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /forge/api/v1/repos/o/r", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/api/v1/repos/o/r", http.StatusMovedPermanently)
	})
	f.JSON("GET /api/v1/repos/o/r", http.StatusOK, map[string]any{"name": "leaked"})
	base, err := url.Parse(f.URL + "/forge")
	require.NoError(t, err)
	c := forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}), base, fakeforge.Token, "ua")
	_, resp, err := c.SDK(context.Background()).GetRepo("o", "r")
	msg := forgejo.Fail(resp, err, "get", "repository o/r").Error()
	assert.Equal(t, "get repository o/r: refused a redirect to /api/v1/repos/o/r, outside the forge's base path /forge: the token is only sent below it", msg)
	assert.Len(t, f.Requests(), 1)
}

// TestRecordedExternalAssetRedirects replays what a real Forgejo 13.0.5
// answered for its two external release assets (the recording's
// exchanges 184 and 179): attachments/{uuid}
// redirects (303) to the link a repository writer set, /api/v1/user on
// the forge itself or another origin. The sweep's client followed the
// first with the token and got the user's record as the file; through
// this client both hops are refused and /api/v1/user is never requested.
// A real file's attachments/{uuid} still downloads.
func TestRecordedExternalAssetRedirects(t *testing.T) {
	f := fakeforge.New(t)
	rec, err := fakeforge.LoadRecording("forgejo-13.0.5")
	require.NoError(t, err)
	// attachments/{uuid} of the two external assets and of a file.
	f.ReplayExact(rec, 184, 179, 176)
	c := f.Client()
	for _, uuid := range []string{"95cc7df1-72ea-4aa8-aa4e-fef9640d767c", "102a2a3b-2a3e-4279-93bf-dfde39626da4"} {
		_, err := c.DoRaw(context.Background(), "attachments/"+uuid, forgejo.RawOptions{MaxBytes: 1 << 20})
		require.Error(t, err, uuid)
		assert.Contains(t, err.Error(), "refused a redirect", uuid)
	}
	for _, r := range f.Requests() {
		assert.True(t, strings.HasPrefix(r.Path, "/attachments/"), "only the download routes were requested, not %s", r.Path)
	}
	got, err := c.DoRaw(context.Background(), "attachments/7fe42108-1195-446a-844c-3b2ec5c5fcae", forgejo.RawOptions{MaxBytes: 1 << 20})
	require.NoError(t, err)
	assert.Equal(t, "release asset bytes\n", string(got.Body))
}
