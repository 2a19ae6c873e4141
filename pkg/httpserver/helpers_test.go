package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Tokens the fake forge knows.
const (
	tokAlice   = "tok-alice-0123456789"
	tokBob     = "tok-bob-0123456789"
	tokNoScope = "tok-noscope-0123456789"
)

// fakeUsers makes f answer GET /api/v1/user for the test tokens, counting
// the requests so tests can see the token cache at work.
func fakeUsers(f *fakeforge.Server) *atomic.Int64 {
	return fakeUsersRevocable(f, &sync.Map{})
}

// fakeUsersRevocable is fakeUsers where a token stored in revoked is
// rejected like an unknown one, as a forge does once it is deleted.
func fakeUsersRevocable(f *fakeforge.Server, revoked *sync.Map) *atomic.Int64 {
	var n atomic.Int64
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		auth := r.Header.Get("Authorization")
		_, gone := revoked.Load(auth[strings.LastIndexByte(auth, ' ')+1:])
		switch {
		case gone:
			fakeforge.WriteJSON(w, http.StatusUnauthorized, map[string]any{"message": "token is revoked"})
		case strings.HasSuffix(auth, " "+tokAlice):
			fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": 1, "login": "alice"})
		case strings.HasSuffix(auth, " "+tokBob):
			fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": 2, "login": "bob"})
		case strings.Contains(auth, " tok-noscope-"): // any number of them, like tokNoScope
			fakeforge.WriteJSON(w, http.StatusForbidden, map[string]any{"message": "token does not have required scope"})
		default:
			fakeforge.WriteJSON(w, http.StatusUnauthorized, map[string]any{"message": "invalid token"})
		}
	})
	return &n
}

// testDefs is a small inventory with read and write tools in two toolsets.
// whoami reports the forge user of the call's identity; wait blocks until
// its release channel is closed, for concurrency tests.
func testDefs(release <-chan struct{}) []tool.Def {
	whoami := func(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
		u, resp, err := c.SDK(ctx).GetMyUserInfo()
		if err := forgejo.Fail(resp, err, "get", "user"); err != nil {
			return nil, err
		}
		return tool.JSON(map[string]string{"login": u.UserName})
	}
	noop := func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return tool.JSON("done")
	}
	wait := func(ctx context.Context, _ *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
		select {
		case <-release:
			return tool.JSON("released")
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return []tool.Def{
		{Name: "whoami", Toolset: tool.Toolset{ID: "user"}, Description: "who am I", Annotations: tool.Read(), Handler: whoami},
		{Name: "peek_thing", Toolset: tool.Toolset{ID: "things"}, Description: "read a thing", Annotations: tool.Read(), Handler: noop},
		{Name: "make_thing", Toolset: tool.Toolset{ID: "things"}, Description: "make a thing", Annotations: tool.Write(false), Handler: noop},
		{Name: "drop_thing", Toolset: tool.Toolset{ID: "things"}, Description: "drop a thing", Annotations: tool.Destroy(true), Handler: noop},
		{Name: "wait", Toolset: tool.Toolset{ID: "things"}, Description: "wait", Annotations: tool.Read(), Handler: wait},
	}
}

// fixture is a Server in front of a fake forge, served by httptest on
// 127.0.0.1.
type fixture struct {
	forge    *fakeforge.Server
	checks   *atomic.Int64 // token checks the forge answered
	revoked  *sync.Map     // tokens the fake forge now rejects
	srv      *Server
	http     *httptest.Server
	logs     *fakeforge.SyncBuffer
	released chan struct{}
	once     sync.Once
}

func newFixture(t *testing.T, edit func(*Options)) *fixture {
	t.Helper()
	return newFixtureTB(t, edit)
}

func newFixtureTB(t testing.TB, edit func(*Options)) *fixture {
	t.Helper()
	return newFixtureOn(t, fakeforge.New(t), edit)
}

// newFixtureOn is newFixture in front of forge, for tests that add routes
// to it before the server is built.
func newFixtureOn(t testing.TB, forge *fakeforge.Server, edit func(*Options)) *fixture {
	t.Helper()
	fx := &fixture{forge: forge, logs: &fakeforge.SyncBuffer{}, released: make(chan struct{}), revoked: &sync.Map{}}
	fx.checks = fakeUsersRevocable(fx.forge, fx.revoked)
	base := fx.forge.BaseURL()
	o := Options{
		Forge:      base,
		HTTPClient: forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}),
		UserAgent:  "forgejo-mcp/test",
		Defs:       testDefs(fx.released),
		Runner:     &tool.Runner{Timeout: 10 * time.Second},
		Logger:     slog.New(slog.NewTextHandler(fx.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if edit != nil {
		edit(&o)
	}
	srv, err := New(o)
	require.NoError(t, err)
	fx.srv = srv
	fx.http = httptest.NewServer(srv)
	t.Cleanup(func() {
		fx.release()
		fx.http.Close()
	})
	return fx
}

// release lets every running wait call return.
func (fx *fixture) release() { fx.once.Do(func() { close(fx.released) }) }

// rpc is one raw JSON-RPC POST to /mcp under protocol 2025-11-25 (stateless:
// no initialize needed first).
type rpc struct {
	Method  string
	Params  any
	Auth    string // full Authorization header value
	Headers map[string]string
}

// post sends r and returns the response with its body read.
func (fx *fixture) post(t *testing.T, r rpc) (*http.Response, string) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": r.Method, "params": r.Params})
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, fx.http.URL+EndpointPath, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if r.Auth != "" {
		req.Header.Set("Authorization", r.Auth)
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// callText calls tool name as auth and returns the result's first text, or
// the JSON-RPC error message.
func (fx *fixture) callText(t *testing.T, auth, name string, headers map[string]string) string {
	t.Helper()
	resp, body := fx.post(t, rpc{Method: "tools/call", Params: map[string]any{"name": name, "arguments": map[string]any{}}, Auth: auth, Headers: headers})
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var out struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &out), body)
	if out.Error != nil {
		return "error: " + out.Error.Message
	}
	require.NotEmpty(t, out.Result.Content, body)
	return out.Result.Content[0].Text
}

// toolNames lists the tools as auth sees them.
func (fx *fixture) toolNames(t *testing.T, auth string, headers map[string]string) []string {
	t.Helper()
	resp, body := fx.post(t, rpc{Method: "tools/list", Params: map[string]any{}, Auth: auth, Headers: headers})
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	var out struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &out), body)
	names := []string{}
	for _, tl := range out.Result.Tools {
		names = append(names, tl.Name)
	}
	return names
}
