package httpserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// TestRevokedTokenIsEvicted: once the forge answers 401 to a call made with
// a cached identity, that very request is answered 401 with the challenge
// (the token checked again and refused), never a tool error, and the next
// request is refused from the cache of rejections.
func TestRevokedTokenIsEvicted(t *testing.T) {
	fx := newFixture(t, nil)
	auth := "Bearer " + tokAlice
	assert.Equal(t, `{"login":"alice"}`, fx.callText(t, auth, "whoami", nil))
	assert.Equal(t, `"done"`, fx.callText(t, auth, "peek_thing", nil))
	require.EqualValues(t, 2, fx.checks.Load(), "one token check and one call to /user")

	fx.revoked.Store(tokAlice, true)
	resp, body := fx.post(t, rpc{Method: "tools/call", Params: map[string]any{"name": "whoami", "arguments": map[string]any{}}, Auth: auth})
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, body)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `resource_metadata="`)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`)
	assert.NotContains(t, body, "isError", "the tool's error is dropped for the 401")
	assert.EqualValues(t, 4, fx.checks.Load(), "the call's /user and the second check")

	resp, body = fx.post(t, rpc{Method: "tools/call", Params: map[string]any{"name": "peek_thing", "arguments": map[string]any{}}, Auth: auth})
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, body)
	assert.Contains(t, body, "the forge rejected this token")
	assert.EqualValues(t, 4, fx.checks.Load(), "the rejection is remembered")

	// Another user's cached identity is untouched.
	assert.Equal(t, `{"login":"bob"}`, fx.callText(t, "Bearer "+tokBob, "whoami", nil))
}

func TestWatchUnauthorized(t *testing.T) {
	f := fakeforge.New(t)
	for _, status := range []int{200, 401, 403, 404, 500} {
		f.JSON("GET /api/v1/status/"+http.StatusText(status), status, map[string]string{"message": "m"})
	}
	base := f.BaseURL()
	hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base})
	tests := []struct {
		name   string
		token  string
		status int
		sdk    bool
		want   bool
	}{
		{name: "401 to a raw call", token: "tok-1234", status: 401, want: true},
		{name: "401 to an SDK call", token: "tok-1234", status: 401, sdk: true, want: true},
		{name: "401 without credentials", status: 401},
		{name: "403", token: "tok-1234", status: 403},
		{name: "404", token: "tok-1234", status: 404},
		{name: "500", token: "tok-1234", status: 500},
		{name: "200", token: "tok-1234", status: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called := 0
			c := forgejo.NewClient(watchUnauthorized(hc, func() { called++ }), base, tt.token, "test")
			if tt.sdk {
				f2 := fakeforge.New(t)
				f2.JSON("GET /api/v1/user", tt.status, map[string]string{"message": "m"})
				b2 := f2.BaseURL()
				c = forgejo.NewClient(watchUnauthorized(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: b2}), func() { called++ }), b2, tt.token, "test")
				_, _, _ = c.SDK(t.Context()).GetMyUserInfo()
			} else {
				_ = c.DoJSON(t.Context(), http.MethodGet, "/status/"+http.StatusText(tt.status), nil, nil, nil)
			}
			assert.Equal(t, tt.want, called == 1, "called %d times", called)
		})
	}
	_, wrapped := hc.Transport.(*unauthorizedTransport)
	assert.False(t, wrapped, "the shared client is left as it was")
}

// TestRejectedChecksAreRateLimited: an address whose tokens the forge keeps
// rejecting gets 429 without a forge request once its burst is spent;
// cached answers are not limited, and the bucket refills.
func TestRejectedChecksAreRateLimited(t *testing.T) {
	fx := newFixture(t, func(o *Options) {
		o.RejectBurst = 3
		o.RejectInterval = 6 * time.Second
	})
	var mu sync.Mutex
	clock := time.Unix(1_000_000, 0)
	fx.srv.identities.limiter.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}
	status := func(auth string) (int, *http.Response) {
		resp, _ := fx.post(t, rpc{Method: "tools/list", Params: map[string]any{}, Auth: auth})
		return resp.StatusCode, resp
	}
	code, _ := status("Bearer " + tokAlice)
	require.Equal(t, http.StatusOK, code)
	for _, tok := range []string{"bad-token-1", "bad-token-2", "bad-token-3"} {
		code, _ := status("Bearer " + tok)
		assert.Equal(t, http.StatusUnauthorized, code, tok)
	}
	require.EqualValues(t, 4, fx.checks.Load())

	code, resp := status("Bearer bad-token-4")
	assert.Equal(t, http.StatusTooManyRequests, code)
	assert.Equal(t, "6", resp.Header.Get("Retry-After"))
	code, _ = status("Bearer " + tokBob)
	assert.Equal(t, http.StatusTooManyRequests, code, "a new token from the same address waits too: it cannot be told apart unchecked")
	assert.EqualValues(t, 4, fx.checks.Load(), "no forge request past the limit")

	code, _ = status("Bearer bad-token-1")
	assert.Equal(t, http.StatusUnauthorized, code, "a remembered rejection is answered from the cache")
	code, _ = status("Bearer " + tokAlice)
	assert.Equal(t, http.StatusOK, code, "a cached identity is never limited")
	assert.EqualValues(t, 4, fx.checks.Load())

	mu.Lock()
	clock = clock.Add(6 * time.Second)
	mu.Unlock()
	code, _ = status("Bearer " + tokBob)
	assert.Equal(t, http.StatusOK, code, "a valid token costs nothing once the bucket has a token again")
	code, _ = status("Bearer bad-token-5")
	assert.Equal(t, http.StatusUnauthorized, code)
	code, _ = status("Bearer bad-token-6")
	assert.Equal(t, http.StatusTooManyRequests, code)
	assert.EqualValues(t, 6, fx.checks.Load())
	assert.Contains(t, fx.logs.String(), "too many rejected tokens from this address")
}

func TestRejectLimiter(t *testing.T) {
	clock := time.Unix(1_000_000, 0)
	l := newRejectLimiter(2, 10*time.Second, 2)
	l.now = func() time.Time { return clock }
	assert.Zero(t, l.take("a"))
	assert.Zero(t, l.take("a"))
	assert.Equal(t, 10*time.Second, l.take("a"))
	l.refund("a")
	assert.Zero(t, l.take("a"), "a refunded check costs nothing")
	assert.Zero(t, l.take("b"), "addresses have their own buckets")
	clock = clock.Add(5 * time.Second)
	assert.Equal(t, 5*time.Second, l.take("a"))
	clock = clock.Add(5 * time.Second)
	assert.Zero(t, l.take("a"))
	l.refund("a")
	l.refund("a")
	l.refund("a")
	assert.InDelta(t, 2, l.bucket("a").tokens, 0.001, "never more than the burst")

	l.take("a")
	l.take("a")
	l.take("c") // a third address: the least recently seen (b) goes
	assert.Len(t, l.buckets, 2)
	_, hasB := l.buckets["b"]
	assert.False(t, hasB)
}

func TestClientAddr(t *testing.T) {
	proxies, err := ParseTrustedProxies([]string{"127.0.0.1", "10.0.0.0/8", "::1"})
	require.NoError(t, err)
	tests := []struct {
		remote, xff string
		trusted     bool
		want        string
	}{
		{"192.0.2.1:5000", "", false, "192.0.2.1"},
		{"[2001:db8:1:2:3:4:5:6]:5000", "", false, "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff::1]:1", "", false, "2001:db8:1:2::/64"},
		{"[::ffff:192.0.2.1]:1", "", false, "192.0.2.1"},
		{"odd", "", false, "odd"},
		// Without trusted proxies X-Forwarded-For is never read.
		{"127.0.0.1:1", "192.0.2.9", false, "127.0.0.1"},
		{"127.0.0.1:1", "192.0.2.9", true, "192.0.2.9"},
		// Read from the right past trusted hops; what the client wrote
		// on the left is never reached.
		{"127.0.0.1:1", "6.6.6.6, 192.0.2.9, 10.1.2.3", true, "192.0.2.9"},
		{"127.0.0.1:1", "2001:db8:9::5", true, "2001:db8:9::/64"},
		// A peer that is not a trusted proxy cannot forward.
		{"192.0.2.1:1", "6.6.6.6", true, "192.0.2.1"},
		// Nothing usable forwarded: the nearest trusted hop.
		{"127.0.0.1:1", "", true, "127.0.0.1"},
		{"127.0.0.1:1", "junk", true, "127.0.0.1"},
		{"127.0.0.1:1", "10.0.0.1", true, "10.0.0.1"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		r.RemoteAddr = tt.remote
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		var trusted []netip.Prefix
		if tt.trusted {
			trusted = proxies
		}
		assert.Equal(t, tt.want, clientAddr(r, trusted), "%s %q", tt.remote, tt.xff)
	}
	_, err = ParseTrustedProxies([]string{"nginx.local"})
	assert.Error(t, err)
}

// TestRequestDeadlineCoversTokenCheck: the token check and the tool call
// share one deadline (the Runner's timeout, from the request's start), so a
// slow check shortens the call instead of adding to it; a check slower
// than the whole deadline is answered 504 at the deadline.
func TestRequestDeadlineCoversTokenCheck(t *testing.T) {
	const timeout = time.Second
	tests := []struct {
		name       string
		checkDelay time.Duration
		wantStatus int
	}{
		{name: "slow check, then a call that runs to the deadline", checkDelay: 600 * time.Millisecond, wantStatus: http.StatusOK},
		{name: "check slower than the deadline", checkDelay: 3 * time.Second, wantStatus: http.StatusGatewayTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t, func(o *Options) {
				o.Runner.Timeout = timeout
				o.Verify = func(ctx context.Context, c *forgejo.Client) (string, error) {
					time.Sleep(tt.checkDelay)
					return VerifyWithForge(ctx, c)
				}
			})
			start := time.Now()
			resp, body := fx.post(t, rpc{Method: "tools/call", Params: map[string]any{"name": "wait", "arguments": map[string]any{}}, Auth: "Bearer " + tokAlice})
			took := time.Since(start)
			assert.Equal(t, tt.wantStatus, resp.StatusCode, body)
			assert.GreaterOrEqual(t, took, timeout-50*time.Millisecond)
			assert.Less(t, took, timeout+450*time.Millisecond, "one deadline for check and call, not one each")
			if tt.wantStatus == http.StatusOK {
				assert.Contains(t, body, `"isError":true`)
				assert.Contains(t, body, "deadline exceeded")
			} else {
				assert.Contains(t, body, "did not answer the token check in time")
			}
		})
	}
}

// TestTokenCheckErrorsCarryNoForgeText: whatever the forge answers to the
// token check, the error (which is logged) names a status or a kind of
// failure, never the body or a URL the forge chose.
func TestTokenCheckErrorsCarryNoForgeText(t *testing.T) {
	const token = "echo-token-0123456789abcdef"
	f := fakeforge.New(t)
	f.Handle("/", func(w http.ResponseWriter, r *http.Request) {
		echo := "you sent " + r.Header.Get("Authorization")
		switch r.URL.Query().Get("mode") {
		case "500":
			fakeforge.WriteJSON(w, http.StatusInternalServerError, map[string]string{"message": echo})
		case "html":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("<pre>" + echo + "</pre>"))
		case "redirect":
			http.Redirect(w, r, "http://127.0.0.2:1/steal?auth="+token, http.StatusFound)
		case "garbage":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"login": "` + token))
		}
	})
	for _, mode := range []string{"500", "html", "redirect", "garbage"} {
		t.Run(mode, func(t *testing.T) {
			base := f.BaseURL()
			// The SDK appends its route to the base URL's path; a query on
			// the base reaches the fake as the mode.
			hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base})
			c := forgejo.NewClient(&http.Client{Transport: modeTransport{next: hc.Transport, mode: mode}, CheckRedirect: hc.CheckRedirect}, base, token, "test")
			_, err := VerifyWithForge(t.Context(), c)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrForgeUnavailable)
			assert.NotContains(t, err.Error(), token)
			assert.NotContains(t, err.Error(), "you sent")
		})
	}
}

type modeTransport struct {
	next http.RoundTripper
	mode string
}

func (m modeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	q := r.URL.Query()
	q.Set("mode", m.mode)
	r.URL.RawQuery = q.Encode()
	return m.next.RoundTrip(r)
}

// TestServerLogsAreRedacted: whatever reaches the server's log during a
// request (here a token check error quoting the token, as a forge's echo
// would) is cleaned of the request's token, even with a plain handler.
func TestServerLogsAreRedacted(t *testing.T) {
	const token = "leaky-token-0123456789abcdef"
	fx := newFixture(t, func(o *Options) {
		o.Verify = func(ctx context.Context, c *forgejo.Client) (string, error) {
			return "", errors.Join(ErrForgeUnavailable, errors.New("GET http://forge/?t="+token+" said "+strings.ToUpper(token)))
		}
	})
	resp, body := fx.post(t, rpc{Method: "tools/list", Params: map[string]any{}, Auth: "token " + token})
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
	assert.NotContains(t, body, token)
	logs := fx.logs.String()
	assert.Contains(t, logs, "token check failed")
	assert.Contains(t, logs, "[REDACTED]")
	assert.NotContains(t, logs, token)
}
