package httpserver

// Live tests: the HTTP endpoint in front of the throw-away test forge
// (scripts/test-forge), driven by the official Go SDK client.

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// liveServer serves every tool in front of the live forge on 127.0.0.1 and
// returns the endpoint URL.
func liveServer(t *testing.T, f *testforge.Forge, edit func(*Options)) string {
	t.Helper()
	base, err := forgejo.ParseBaseURL(f.URL)
	require.NoError(t, err)
	runner := &tool.Runner{Timeout: 30 * time.Second}
	runner.SetMaxConcurrent(64)
	o := Options{
		Forge:      base,
		HTTPClient: forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}),
		UserAgent:  "forgejo-mcp/live-test",
		Defs:       operation.All(),
		Runner:     runner,
	}
	if edit != nil {
		edit(&o)
	}
	srv, err := New(o)
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return hs.URL + EndpointPath
}

func TestLiveTwoUsersConcurrently(t *testing.T) {
	f := testforge.Get(t)
	endpoint := liveServer(t, f, nil)
	for _, version := range protocolVersions {
		t.Run(version, func(t *testing.T) {
			sessions := map[string]*mcp.ClientSession{
				f.User:  connect(t, endpoint, version, map[string]string{"Authorization": "Bearer " + f.Token}),
				f.User2: connect(t, endpoint, version, map[string]string{"Authorization": "token " + f.Token2}),
			}
			var wg sync.WaitGroup
			for i := range 16 {
				login := f.User
				if i%2 == 1 {
					login = f.User2
				}
				wg.Go(func() {
					res, err := sessions[login].CallTool(t.Context(), &mcp.CallToolParams{Name: "get_my_user_info", Arguments: map[string]any{}})
					if !assert.NoError(t, err) {
						return
					}
					require.False(t, res.IsError, resultText(t, res))
					var u struct {
						Login string `json:"login"`
					}
					require.NoError(t, json.Unmarshal([]byte(resultText(t, res)), &u))
					assert.Equal(t, login, u.Login, "each caller sees themselves")
				})
			}
			wg.Wait()
		})
	}
}

func TestLiveReadonlyHeaderHidesWriteTools(t *testing.T) {
	f := testforge.Get(t)
	endpoint := liveServer(t, f, nil)
	var writes []string
	for _, d := range operation.All() {
		// call_tool stays under X-MCP-Readonly, listed read-only and
		// reaching only reads (TestE2EMetaTools).
		if !d.Annotations.ReadOnly && d.Forward == nil {
			writes = append(writes, d.Name)
		}
	}
	require.Contains(t, writes, "create_issue")
	for _, version := range protocolVersions {
		t.Run(version, func(t *testing.T) {
			names := func(cs *mcp.ClientSession) []string {
				res, err := cs.ListTools(t.Context(), nil)
				require.NoError(t, err)
				var out []string
				for _, tl := range res.Tools {
					out = append(out, tl.Name)
				}
				return out
			}
			auth := "Bearer " + f.Token2
			full := names(connect(t, endpoint, version, map[string]string{"Authorization": auth}))
			ro := connect(t, endpoint, version, map[string]string{"Authorization": auth, HeaderReadonly: "true"})
			readOnly := names(ro)
			for _, w := range writes {
				assert.Contains(t, full, w)
				assert.NotContains(t, readOnly, w)
			}
			assert.Contains(t, readOnly, "get_my_user_info")
			_, err := ro.CallTool(t.Context(), &mcp.CallToolParams{Name: "create_repo", Arguments: map[string]any{"name": "must-not-exist"}})
			assert.ErrorContains(t, err, "not found")
			assert.Equal(t, http.StatusNotFound, f.Do(t, http.MethodGet, "/repos/"+f.User2+"/must-not-exist", nil, nil))
		})
	}
}

func TestLiveRefusals(t *testing.T) {
	f := testforge.Get(t)
	endpoint := liveServer(t, f, func(o *Options) { o.MaxBodyBytes = 64 << 10 })
	ping := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	tests := []struct {
		name       string
		auth, host string
		body       string
		wantStatus int
		wantHeader string // in WWW-Authenticate
	}{
		{name: "missing token", body: ping, wantStatus: http.StatusUnauthorized, wantHeader: `Bearer resource_metadata="` + strings.TrimSuffix(endpoint, EndpointPath) + `/.well-known/oauth-protected-resource/mcp"`},
		{name: "invalid token", auth: "Bearer 0000000000000000000000000000000000000000", body: ping, wantStatus: http.StatusUnauthorized, wantHeader: `error="invalid_token"`},
		{name: "rebinding host", auth: "Bearer " + f.Token, host: "evil.example", body: ping, wantStatus: http.StatusForbidden},
		{name: "oversized body", auth: "Bearer " + f.Token, body: `{"pad":"` + strings.Repeat("x", 65<<10) + `"}`, wantStatus: http.StatusRequestEntityTooLarge},
		{name: "valid", auth: "Bearer " + f.Token, body: ping, wantStatus: http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, endpoint, strings.NewReader(tt.body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			resp, body := do(t, req)
			assert.Equal(t, tt.wantStatus, resp.StatusCode, body)
			assert.Contains(t, resp.Header.Get("WWW-Authenticate"), tt.wantHeader)
		})
	}
}

// TestLiveDiscoveryDocuments records what the forge serves for the
// discovery an MCP client does after following our metadata: Gitea (and
// Forgejo) serve OpenID Connect discovery only, which MCP clients try after
// RFC 8414's path.
func TestLiveDiscoveryDocuments(t *testing.T) {
	f := testforge.Get(t)
	get := func(path string) (int, map[string]any) {
		resp, err := http.Get(f.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		var doc map[string]any
		if resp.StatusCode == http.StatusOK {
			require.NoError(t, json.NewDecoder(resp.Body).Decode(&doc))
		}
		return resp.StatusCode, doc
	}
	status, _ := get("/.well-known/oauth-authorization-server")
	assert.Equal(t, http.StatusNotFound, status)
	status, doc := get("/.well-known/openid-configuration")
	require.Equal(t, http.StatusOK, status)
	// The issuer as the forge spells it: Gitea's is the URL without a trailing slash; Forgejo 10's
	// is its ROOT_URL, with one. A strict client compares it byte for byte with the one our
	// metadata names, which the server reads from this document (issuer.go).
	issuer := f.URL
	if f.Identify(t).ForgejoUpTo(10) {
		issuer += "/"
	}
	assert.Equal(t, issuer, doc["issuer"])
	assert.Equal(t, doc["issuer"], newIssuer("", mustURL(t, f.URL), http.DefaultClient).get(t.Context()))
	assert.Equal(t, f.URL+"/login/oauth/authorize", doc["authorization_endpoint"])
	methods, _ := doc["code_challenge_methods_supported"].([]any)
	assert.True(t, slices.Contains(methods, any("S256")), "PKCE S256")
}

// redirectTo is the loopback callback the OAuth test registers; nothing
// listens there, the test reads the code from the forge's redirect.
const redirectTo = "http://127.0.0.1:1/callback"
