package httpserver

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHostAndOriginChecks(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Options)
		path    string
		host    string
		origin  string
		want    int
		wantMsg string
	}{
		{name: "loopback host", host: "127.0.0.1:1", want: http.StatusOK},
		{name: "localhost", host: "localhost", want: http.StatusOK},
		{name: "rebinding host", host: "evil.example", want: http.StatusForbidden, wantMsg: "--http-allowed-hosts"},
		{name: "rebinding origin", host: "localhost", origin: "http://evil.example", want: http.StatusForbidden, wantMsg: "--http-allowed-origins"},
		{name: "null origin", host: "localhost", origin: "null", want: http.StatusForbidden},
		{name: "local browser client", host: "localhost", origin: "http://localhost:6274", want: http.StatusOK},
		{name: "allowed host", edit: func(o *Options) { o.AllowedHosts = []string{"mcp.example", "other.example:8443"} }, host: "mcp.example:443", want: http.StatusOK},
		{name: "allowed host given with a port", edit: func(o *Options) { o.AllowedHosts = []string{"other.example:8443"} }, host: "other.example", want: http.StatusOK},
		{name: "public URL host", edit: func(o *Options) { o.PublicURL = mustURL(t, "https://mcp.example/forge") }, host: "MCP.example", origin: "https://mcp.example", want: http.StatusOK},
		{name: "allowed origin", edit: func(o *Options) { o.AllowedOrigins = []string{"https://app.example/"} }, host: "localhost", origin: "https://app.example", want: http.StatusOK},
		{name: "guard off", edit: func(o *Options) { o.AllowedHosts = []string{"*"} }, host: "evil.example", origin: "http://evil.example", want: http.StatusOK},
		{name: "health ignores host", path: HealthPath, host: "10.1.2.3:8080", want: http.StatusOK},
		{name: "metadata is guarded", path: MetadataPath + EndpointPath, host: "evil.example", want: http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t, tt.edit)
			path := tt.path
			if path == "" {
				path = EndpointPath
			}
			method, body := http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"ping"}`
			if path != EndpointPath {
				method, body = http.MethodGet, ""
			}
			req, err := http.NewRequestWithContext(t.Context(), method, fx.http.URL+path, strings.NewReader(body))
			require.NoError(t, err)
			req.Host = tt.host
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tokAlice)
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			resp, got := do(t, req)
			assert.Equal(t, tt.want, resp.StatusCode, got)
			assert.Contains(t, got, tt.wantMsg)
		})
	}
}

func TestBodyLimit(t *testing.T) {
	fx := newFixture(t, func(o *Options) { o.MaxBodyBytes = 1024 })
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2000) + `"}}`
	small := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	tests := []struct {
		name    string
		body    string
		chunked bool // no Content-Length: the limit is found while reading
		auth    string
		want    int
	}{
		// A declared length is refused before any token check costs a round trip.
		{name: "declared length, no token", body: big, want: http.StatusRequestEntityTooLarge},
		{name: "declared length", body: big, auth: "Bearer " + tokAlice, want: http.StatusRequestEntityTooLarge},
		{name: "chunked", body: big, chunked: true, auth: "Bearer " + tokAlice, want: http.StatusRequestEntityTooLarge},
		{name: "chunked, no token", body: big, chunked: true, want: http.StatusUnauthorized},
		{name: "small", body: small, auth: "Bearer " + tokAlice, want: http.StatusOK},
		{name: "small chunked", body: small, chunked: true, auth: "Bearer " + tokAlice, want: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(tt.body)
			if tt.chunked {
				body = struct{ io.Reader }{body} // hides the length from net/http
			}
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, fx.http.URL+EndpointPath, body)
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			resp, got := do(t, req)
			assert.Equal(t, tt.want, resp.StatusCode, got)
		})
	}
}

func TestInFlightLimit(t *testing.T) {
	fx := newFixture(t, func(o *Options) { o.MaxInFlight = 1 })
	fx.toolNames(t, "Bearer "+tokAlice, nil) // warm the token cache
	done := make(chan string)
	go func() { done <- fx.callText(t, "Bearer "+tokAlice, "wait", nil) }()
	require.Eventually(t, func() bool { return len(fx.srv.inflight) == 1 }, 5*time.Second, 5*time.Millisecond)
	resp, body := fx.post(t, rpc{Method: "ping", Auth: "Bearer " + tokAlice})
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, body)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	fx.release()
	assert.Equal(t, `"released"`, <-done)
	resp, _ = fx.post(t, rpc{Method: "ping", Auth: "Bearer " + tokAlice})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestLogsCarryRequestIDAndUserNeverToken(t *testing.T) {
	fx := newFixture(t, nil)
	fx.callText(t, "Bearer "+tokAlice, "whoami", nil)
	fx.post(t, rpc{Method: "tools/list", Auth: "Bearer secret-bad-token-42"})
	logs := fx.logs.String()
	assert.Contains(t, logs, `msg="tool call" tool=whoami`)
	assert.Regexp(t, `msg="tool call".* request_id=[0-9a-f]{16} user=alice`, logs)
	assert.Regexp(t, `msg="http request" method=POST path=/mcp status=200 .* rpc=tools/call request_id=`, logs)
	for _, secret := range []string{tokAlice, "secret-bad-token-42"} {
		assert.NotContains(t, logs, secret)
	}
}

func TestRequestIDIsKeptWhenSane(t *testing.T) {
	tests := []struct{ in, want string }{
		{in: "abc-123_X.y:z", want: "abc-123_X.y:z"},
		{in: "has space", want: ""},
		{in: strings.Repeat("a", 65), want: ""},
		{in: "", want: ""},
	}
	for _, tt := range tests {
		got := requestID(tt.in)
		if tt.want != "" {
			assert.Equal(t, tt.want, got)
		} else {
			assert.Regexp(t, `^[0-9a-f]{16}$`, got)
		}
	}
}
