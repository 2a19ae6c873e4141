package forgejo_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// forgeAt answers as a Gitea at its root: its version, a JSON 404 for the
// rest of the API, an HTML page for every other path (a repository page),
// as the forges do. It counts requests that carry a token.
func forgeAt(t *testing.T, tokens *atomic.Int32) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" && strings.Contains(r.URL.Path, "/version") {
			tokens.Add(1)
		}
		switch {
		case r.URL.Path == "/api/v1/version":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"version":"1.26.0"}`))
		case strings.HasPrefix(r.URL.Path, "/api/v1/"):
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"not found"}`))
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte("<!DOCTYPE html><title>Page Not Found</title>"))
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func clientFor(t *testing.T, raw string) *forgejo.Client {
	t.Helper()
	base, err := url.Parse(raw)
	require.NoError(t, err)
	return forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}), base, "t0k3n-secret", "ua")
}

// userCall is what get_my_user_info sends, as it fails, diagnosed.
func userCall(t *testing.T, c *forgejo.Client) error {
	t.Helper()
	err := c.DoJSON(context.Background(), http.MethodGet, "/user", nil, nil, &struct{}{})
	require.Error(t, err)
	return c.DiagnoseURL(context.Background(), forgejo.Relabel(err, "get", "the token's user"))
}

func TestDiagnoseURL(t *testing.T) {
	var tokens atomic.Int32
	forge := forgeAt(t, &tokens)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html>a web site</html>"))
	}))
	t.Cleanup(page.Close)
	tlsForge := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	t.Cleanup(tlsForge.Close)
	hostPort := strings.TrimPrefix(forge.URL, "http://")

	tests := []struct {
		name, url, want string
	}{
		{"a repository page", forge.URL + "/alice/rocket",
			"the forge URL " + forge.URL + "/alice/rocket is not a Forgejo or Gitea root: its /api/v1/version answered 404 Not Found (text/html), " +
				"where a forge answers its version; " + forge.URL + " answers as Gitea 1.26.0: set it (FORGEJO_URL, --url or the profile's URL)"},
		{"another web server", page.URL,
			"the forge URL " + page.URL + " is not a Forgejo or Gitea root: its /api/v1/version answered 200 OK (text/html), where a forge answers its version; " +
				"set the forge's root URL, the address of its home page (such as https://codeberg.org), without a repository or other page's path (FORGEJO_URL, --url or the profile's URL)"},
		{"https on a plain HTTP port", "https://" + hostPort,
			"the forge URL https://" + hostPort + " is wrong: the server there speaks plain HTTP, not HTTPS; use http://" + hostPort +
				", or the address the forge serves HTTPS on (FORGEJO_URL, --url or the profile's URL)"},
		{"http on an HTTPS port", strings.Replace(tlsForge.URL, "https://", "http://", 1),
			"the forge URL " + strings.Replace(tlsForge.URL, "https://", "http://", 1) + " is wrong: the server there speaks HTTPS, not plain HTTP; use " +
				tlsForge.URL + " (FORGEJO_URL, --url or the profile's URL)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, userCall(t, clientFor(t, tt.url)).Error())
		})
	}
	assert.Zero(t, tokens.Load(), "the looks at the URL carry no token")

	t.Run("a forge's own 404 stands", func(t *testing.T) {
		err := userCall(t, clientFor(t, forge.URL))
		assert.True(t, forgejo.IsNotFound(err), "%v", err)
		assert.Equal(t, "the token's user not found (404): it does not exist or this token cannot see it", err.Error())
	})
	t.Run("unreachable: nothing to say about the URL", func(t *testing.T) {
		err := userCall(t, clientFor(t, "http://127.0.0.1:1"))
		assert.Contains(t, err.Error(), "cannot reach the forge")
	})
	t.Run("an API's own 404 at the version route says nothing", func(t *testing.T) {
		api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message":"not found"}`))
		}))
		t.Cleanup(api.Close)
		assert.True(t, forgejo.IsNotFound(userCall(t, clientFor(t, api.URL))))
	})
	t.Run("other failures are left alone", func(t *testing.T) {
		c := clientFor(t, forge.URL)
		err := &forgejo.Error{Verb: "get", Subject: "x", Status: http.StatusForbidden}
		assert.Same(t, error(err), c.DiagnoseURL(context.Background(), err))
	})
}
