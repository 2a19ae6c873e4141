package stdio_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/user"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/stdio"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// forgeRunner is a Runner whose calls go to base with a short request
// timeout and call deadline.
func forgeRunner(base *url.URL, requestTimeout, callTimeout time.Duration, maxResponse int64) *tool.Runner {
	hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base, RequestTimeout: requestTimeout, MaxResponseBytes: maxResponse})
	c := forgejo.NewClient(hc, base, fakeforge.Token, "forgejo-mcp/test")
	return &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: callTimeout}
}

// TestForgeFaults: whatever goes wrong with the forge, the agent gets a
// clear isError result, the next call works, and no goroutine is left.
func TestForgeFaults(t *testing.T) {
	base := runtime.NumGoroutine()
	tests := []struct {
		name    string
		handler http.HandlerFunc // nil: the forge is down
		callTO  time.Duration
		want    string
	}{
		{name: "down", want: "get the token's user: cannot reach the forge (dial"},
		{name: "slow past the request timeout", handler: func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, want: "get the token's user: timed out waiting for the forge; narrow the request or retry"},
		{name: "slow past the call deadline", callTO: 200 * time.Millisecond, handler: func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}, want: "get the token's user: timed out after 200ms (the call's deadline); narrow the request or retry"},
		{name: "500", handler: func(w http.ResponseWriter, _ *http.Request) {
			fakeforge.WriteJSON(w, http.StatusInternalServerError, map[string]string{"message": "database is locked"})
		}, want: "get the token's user: the forge failed (500 Internal Server Error): database is locked; retry later"},
		{name: "502 with an HTML body", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("<html><body>Bad Gateway</body></html>"))
		}, want: "get the token's user: the forge failed (502 Bad Gateway); retry later"},
		{name: "invalid JSON", handler: func(w http.ResponseWriter, r *http.Request) {
			// A forge (its version route answers) whose reply to the
			// call is broken: a server answering every route so is not
			// a forge, and the error says that instead (issue 28, B.3).
			if r.URL.Path == "/api/v1/version" {
				fakeforge.WriteJSON(w, http.StatusOK, map[string]string{"version": "1.26.0"})
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"login": "me", `))
		}, want: "get the token's user: the forge's reply could not be read (invalid or truncated JSON)"},
		{name: "truncated body", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "200")
			_, _ = w.Write([]byte(`{"login": "me", "full_name": "`))
		}, want: "get the token's user: the forge's reply could not be read (invalid or truncated JSON)"},
		{name: "connection reset", handler: func(w http.ResponseWriter, _ *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				return
			}
			if tc, ok := conn.(*net.TCPConn); ok {
				_ = tc.SetLinger(0) // close with RST
			}
			_ = conn.Close()
		}, want: "get the token's user: "},
		{name: "response past the size limit", handler: func(w http.ResponseWriter, _ *http.Request) {
			fakeforge.WriteJSON(w, http.StatusOK, map[string]string{"login": string(make([]byte, 4096))})
		}, want: "larger than the response limit; narrow the request"},
		{name: "redirect to another origin", handler: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://127.0.0.2:1/api/v1/user", http.StatusFound)
		}, want: "refused a redirect to another origin (127.0.0.2:1): the token is only sent to"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			if tt.handler == nil {
				srv.Close()
			} else {
				t.Cleanup(srv.Close)
			}
			u, err := url.Parse(srv.URL)
			require.NoError(t, err)
			callTO := tt.callTO
			if callTO == 0 {
				callTO = 10 * time.Second
			}
			r := forgeRunner(u, 300*time.Millisecond, callTO, 1024)
			w := serve(t, append(user.Tools(), echo()), r, stdio.Limits{})
			start := time.Now()
			w.sendJSON(call(1, "get_my_user_info", nil))
			m := w.recv()
			isErr, text := toolText(t, m)
			assert.True(t, isErr)
			assert.Contains(t, text, tt.want)
			assert.NotContains(t, text, fakeforge.Token)
			assert.Less(t, time.Since(start), 5*time.Second)
			t.Logf("agent sees: %s", text)

			w.sendJSON(call(2, "echo", map[string]any{"text": "next"}))
			isErr, text = toolText(t, w.recv())
			assert.False(t, isErr, "the next call works")
			assert.JSONEq(t, `{"text":"next"}`, text)
		})
	}
	settleGoroutines(t, base)
}

// TestCancelAbortsForgeRequest: notifications/cancelled and the call
// deadline both abort the HTTP request the call is waiting on, and a
// cancelled call gets no reply.
func TestCancelAbortsForgeRequest(t *testing.T) {
	base := runtime.NumGoroutine()
	// Registered first, so it runs after the cleanups of the fake and the
	// connection.
	t.Cleanup(func() { settleGoroutines(t, base) })
	{
		f := fakeforge.New(t)
		started, aborted := f.Blocking("GET /api/v1/user")
		r := forgeRunner(f.BaseURL(), 30*time.Second, 30*time.Second, 0)
		w := serve(t, append(user.Tools(), echo()), r, stdio.Limits{})

		w.sendJSON(call("c", "get_my_user_info", nil))
		<-started
		w.sendJSON(cancelled("c"))
		select {
		case <-aborted:
		case <-time.After(5 * time.Second):
			t.Fatal("the forge request was not aborted by the cancellation")
		}
		w.sendJSON(call("e", "echo", map[string]any{"text": "x"}))
		assert.Equal(t, "e", w.recv()["id"], "no reply for the cancelled call")
		w.none(200 * time.Millisecond)

		// A second connection whose calls have a short deadline.
		w = serve(t, user.Tools(), forgeRunner(f.BaseURL(), 30*time.Second, 200*time.Millisecond, 0), stdio.Limits{})
		w.sendJSON(call("d", "get_my_user_info", nil))
		<-started
		select {
		case <-aborted:
		case <-time.After(5 * time.Second):
			t.Fatal("the forge request was not aborted by the deadline")
		}
		isErr, text := toolText(t, w.recv())
		assert.True(t, isErr)
		assert.Contains(t, text, "timed out after 200ms")
	}
}
