package forgejo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestSDKClientSendsIdentity(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "me"})
	u, _, err := f.Client().SDK(context.Background()).GetMyUserInfo()
	require.NoError(t, err)
	assert.Equal(t, "me", u.UserName)
	reqs := f.Requests()
	require.Len(t, reqs, 1, "no version probe before the call")
	assert.Equal(t, "token "+fakeforge.Token, reqs[0].Auth)
	assert.Equal(t, "forgejo-mcp/test", reqs[0].UserAgent)
}

func TestNoTokenSendsNoAuthorization(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "me"})
	c := forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: f.BaseURL()}), f.BaseURL(), "", "ua")
	_, _, err := c.SDK(context.Background()).GetMyUserInfo()
	require.NoError(t, err)
	assert.Empty(t, f.Requests()[0].Auth)
}

func TestResponseLimitIgnoresContentLength(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "10") // a lie: more follows
		_, _ = w.Write([]byte(strings.Repeat("x", 10)))
	}))
	defer srv.Close()
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(strings.Repeat("x", 5000)))
	}))
	defer big.Close()
	hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{MaxResponseBytes: 1000})
	for _, tt := range []struct {
		url  string
		err  error
		size int
	}{{srv.URL, nil, 10}, {big.URL, forgejo.ErrResponseTooLarge, 1000}} {
		resp, err := hc.Get(tt.url)
		require.NoError(t, err)
		b, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		assert.ErrorIs(t, err, tt.err)
		assert.Len(t, b, tt.size)
	}
}

func TestRedirectStaysOnOrigin(t *testing.T) {
	var leaked string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = r.Header.Get("Authorization")
		fakeforge.WriteJSON(w, 200, map[string]any{"login": "evil"})
	}))
	defer other.Close()
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/api/v1/user", http.StatusFound)
	})
	_, resp, err := f.Client().SDK(context.Background()).GetMyUserInfo()
	got := forgejo.Fail(resp, err, "get", "the token's user")
	require.Error(t, got)
	assert.Contains(t, got.Error(), "refused a redirect to another origin")
	assert.Empty(t, leaked, "the other origin was never contacted")
}

func TestRedact(t *testing.T) {
	c := fakeforge.New(t).Client()
	assert.Equal(t, "a [REDACTED] b", c.Redact("a "+fakeforge.Token+" b"))
	var nilClient *forgejo.Client
	assert.Equal(t, "x", nilClient.Redact("x"))
}
