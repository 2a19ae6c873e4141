package forgejo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// Every way the client reaches the forge, raw or through the SDK, tells
// the recorded router 404 of each real forge (text/plain "404 page not
// found", Forgejo 13.0.5 seq 246, Gitea 1.26.0 seq 236) from its recorded
// missing object (a JSON 404, seq 248 and 238): the first is a missing
// route, never a missing object; the second a missing object.

// recordedAnswer is a forge answering every request but /version with
// one recorded exchange's status, content type and body.
func recordedAnswer(t *testing.T, rec *fakeforge.Recording, e *fakeforge.Exchange) *forgejo.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/api/v1/version" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"version":"` + rec.Forge.Version + `"}`))
			return
		}
		w.Header().Set("Content-Type", e.ContentType)
		w.WriteHeader(e.Status)
		switch {
		case e.Response == nil:
		case e.Response.Text != nil:
			_, _ = w.Write([]byte(*e.Response.Text))
		default:
			_, _ = w.Write(e.Response.JSON)
		}
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: u}), u, "tok-123456", "t")
}

// entryPoints are the client's ways to the forge, each asking for a route
// no described forge lacks (so the gate lets it through).
func entryPoints() map[string]func(ctx context.Context, c *forgejo.Client) error {
	const p = "/repos/o/r/labels/5"
	return map[string]func(ctx context.Context, c *forgejo.Client) error{
		"DoJSON": func(ctx context.Context, c *forgejo.Client) error {
			return c.DoJSON(ctx, http.MethodGet, p, nil, nil, nil)
		},
		"DoJSONReader": func(ctx context.Context, c *forgejo.Client) error {
			return c.DoJSONReader(ctx, http.MethodPost, p, nil, strings.NewReader("{}"), 2, nil)
		},
		"DoMultipart": func(ctx context.Context, c *forgejo.Client) error {
			return c.DoMultipart(ctx, http.MethodPost, "/repos/o/r/releases/5/assets", nil,
				forgejo.FilePart{Field: "attachment", Filename: "a.txt", Content: strings.NewReader("a"), Size: 1}, nil)
		},
		"DoStream": func(ctx context.Context, c *forgejo.Client) error {
			return c.DoStream(ctx, p, nil, func(io.Reader) error { return nil })
		},
		"DoRaw": func(ctx context.Context, c *forgejo.Client) error {
			_, err := c.DoRaw(ctx, "/api/v1/repos/o/r/raw/README.md", forgejo.RawOptions{MaxBytes: 100})
			return err
		},
		"DoTail": func(ctx context.Context, c *forgejo.Client) error {
			_, err := c.DoTail(ctx, "/api/v1/repos/o/r/raw/README.md", 10, 100)
			return err
		},
		"DoLines": func(ctx context.Context, c *forgejo.Client) error {
			return c.DoLines(ctx, "/api/v1/repos/o/r/raw/README.md", 100, func([]byte, int64) bool { return true })
		},
		"SDK": func(ctx context.Context, c *forgejo.Client) error {
			_, resp, err := c.SDK(ctx).GetRepoLabel("o", "r", 5)
			return c.Explain(forgejo.Fail(resp, err, "get", "label 5 in o/r"))
		},
	}
}

func TestRecordedRouter404IsNeverAMissingObject(t *testing.T) {
	for _, c := range []struct {
		rec           string
		router, found int // the router's 404, a missing object's 404
	}{
		{"forgejo-13.0.5", 246, 248},
		{"gitea-1.26.0", 236, 238},
	} {
		rec, err := fakeforge.LoadRecording(c.rec)
		require.NoError(t, err)
		router, missing := rec.Seq(c.router), rec.Seq(c.found)
		require.True(t, strings.HasPrefix(router.ContentType, "text/plain"), "seq %d is the router's", c.router)
		require.True(t, strings.HasPrefix(missing.ContentType, "application/json"), "seq %d is a handler's", c.found)
		for name, call := range entryPoints() {
			ctx := context.Background()
			err := call(ctx, recordedAnswer(t, rec, router))
			require.Error(t, err, "%s %s", c.rec, name)
			assert.True(t, forgejo.IsNoRoute(err), "%s %s: %v", c.rec, name, err)
			assert.False(t, forgejo.IsNotFound(err), "%s %s: a missing route is not a missing object", c.rec, name)
			assert.Contains(t, err.Error(), "has no such API route", "%s %s", c.rec, name)
			assert.NotContains(t, err.Error(), "not found (404)", "%s %s", c.rec, name)

			err = call(ctx, recordedAnswer(t, rec, missing))
			require.Error(t, err, "%s %s", c.rec, name)
			assert.True(t, forgejo.IsNotFound(err), "%s %s: %v", c.rec, name, err)
			assert.False(t, forgejo.IsNoRoute(err), "%s %s", c.rec, name)
		}
	}
}
