package httpserver

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func TestAuthentication(t *testing.T) {
	tests := []struct {
		name       string
		auth       string
		shared     string
		verify     Verifier
		wantStatus int
		wantUser   string // login the call acts as, on 200
		wantError  bool   // WWW-Authenticate carries error="invalid_token"
	}{
		{name: "no credentials", wantStatus: http.StatusUnauthorized},
		{name: "bearer", auth: "Bearer " + tokAlice, wantStatus: http.StatusOK, wantUser: "alice"},
		{name: "forge token scheme", auth: "token " + tokBob, wantStatus: http.StatusOK, wantUser: "bob"},
		{name: "scheme is case-insensitive", auth: "BEARER " + tokAlice, wantStatus: http.StatusOK, wantUser: "alice"},
		{name: "token without read:user scope is still valid", auth: "Bearer " + tokNoScope, wantStatus: http.StatusOK},
		{name: "invalid token", auth: "Bearer nope-nope-nope", wantStatus: http.StatusUnauthorized, wantError: true},
		{name: "basic auth", auth: "Basic dXNlcjpwYXNz", wantStatus: http.StatusUnauthorized, wantError: true},
		{name: "empty bearer", auth: "Bearer ", wantStatus: http.StatusUnauthorized, wantError: true},
		{name: "shared token serves anonymous requests", shared: tokBob, wantStatus: http.StatusOK, wantUser: "bob"},
		{name: "own token wins over shared", auth: "Bearer " + tokAlice, shared: tokBob, wantStatus: http.StatusOK, wantUser: "alice"},
		{name: "bad token is not replaced by shared", auth: "Bearer nope-nope-nope", shared: tokBob, wantStatus: http.StatusUnauthorized, wantError: true},
		{
			name: "forge down", auth: "Bearer " + tokAlice, wantStatus: http.StatusBadGateway,
			verify: func(context.Context, *forgejo.Client) (string, error) {
				return "", fmt.Errorf("%w: connection refused", ErrForgeUnavailable)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t, func(o *Options) { o.SharedToken, o.Verify = tt.shared, tt.verify })
			resp, body := fx.post(t, rpc{Method: "tools/list", Params: map[string]any{}, Auth: tt.auth})
			require.Equal(t, tt.wantStatus, resp.StatusCode, body)
			challenge := resp.Header.Get("WWW-Authenticate")
			if tt.wantStatus == http.StatusUnauthorized {
				assert.True(t, strings.HasPrefix(challenge, `Bearer resource_metadata="`+fx.http.URL+`/.well-known/oauth-protected-resource/mcp"`), challenge)
				assert.Equal(t, tt.wantError, strings.Contains(challenge, `error="invalid_token"`), challenge)
			} else {
				assert.Empty(t, challenge)
			}
			if tt.wantUser != "" {
				auth := tt.auth
				assert.Equal(t, `{"login":"`+tt.wantUser+`"}`, fx.callText(t, auth, "whoami", nil))
			}
		})
	}
}

func TestTokenChecksAreCached(t *testing.T) {
	fx := newFixture(t, nil)
	for range 5 {
		fx.toolNames(t, "Bearer "+tokAlice, nil)
		resp, _ := fx.post(t, rpc{Method: "tools/list", Auth: "Bearer bad-token-xyz"})
		require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	}
	// One check for alice, one for the bad token: later requests use the cache.
	assert.Equal(t, int64(2), fx.checks.Load())
}

func TestUsersAreIsolated(t *testing.T) {
	// 20 requests of each user at once: more than a user's default share.
	fx := newFixture(t, func(o *Options) { o.MaxInFlightPerUser = 64 })
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			tok, want := tokAlice, "alice"
			if i%2 == 1 {
				tok, want = tokBob, "bob"
			}
			assert.Equal(t, `{"login":"`+want+`"}`, fx.callText(t, "Bearer "+tok, "whoami", nil))
		})
	}
	wg.Wait()
}

func TestHealthAndGet(t *testing.T) {
	fx := newFixture(t, nil)
	tests := []struct {
		name, method, path, auth string
		want                     int
	}{
		{name: "health", method: http.MethodGet, path: HealthPath, want: http.StatusOK},
		{name: "health head", method: http.MethodHead, path: HealthPath, want: http.StatusOK},
		{name: "health post", method: http.MethodPost, path: HealthPath, want: http.StatusMethodNotAllowed},
		// A GET on the endpoint must answer at once: no event stream is held open.
		{name: "get stream refused", method: http.MethodGet, path: EndpointPath, auth: "Bearer " + tokAlice, want: http.StatusMethodNotAllowed},
		{name: "get needs auth first", method: http.MethodGet, path: EndpointPath, want: http.StatusUnauthorized},
		{name: "unknown path", method: http.MethodGet, path: "/nope", want: http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, tt.method, fx.http.URL+tt.path, nil)
			require.NoError(t, err)
			req.Header.Set("Accept", "text/event-stream")
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			resp, _ := do(t, req)
			assert.Equal(t, tt.want, resp.StatusCode)
			assert.NotEmpty(t, resp.Header.Get(HeaderRequestID))
		})
	}
}

func TestGracefulShutdown(t *testing.T) {
	fx := newFixture(t, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() {
		served <- fx.srv.Serve(ctx, ln, ServeConfig{ShutdownTimeout: 5 * time.Second, CallTimeout: time.Second})
	}()

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","arguments":{}}}`
	req, err := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+EndpointPath, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tokAlice)
	answered := make(chan string, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- err.Error()
			return
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		answered <- b.String()
	}()
	require.Eventually(t, func() bool { return len(fx.srv.inflight) == 1 }, 5*time.Second, 5*time.Millisecond)
	cancel() // SIGTERM
	time.Sleep(50 * time.Millisecond)
	_, err = net.DialTimeout("tcp", ln.Addr().String(), time.Second)
	assert.Error(t, err, "no new connections once shutdown began")
	fx.release()
	assert.Contains(t, <-answered, "released", "the in-flight call completes")
	assert.NoError(t, <-served)
}

func TestNewNeedsForge(t *testing.T) {
	_, err := New(Options{})
	assert.Error(t, err)
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u
}
