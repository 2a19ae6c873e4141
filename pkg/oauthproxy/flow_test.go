package oauthproxy

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const clientRedirect = "http://127.0.0.1:9/callback"

// TestWholeFlow: register, authorize, consent, the forge's sign-in, the
// callback, the code exchange and a refresh, as a client and a browser
// see them; the forge sees one application with the proxy's PKCE.
func TestWholeFlow(t *testing.T) {
	h := newHarness(t, nil)
	client := h.register("http://127.0.0.1/callback")
	verifier, challenge := pkce("v1")
	b := h.browser()
	request := b.authorize(authParams(client, clientRedirect, challenge))
	resp := b.consent(request, "allow")
	require.Equal(t, http.StatusFound, resp.StatusCode)
	loc, _ := resp.Location()
	assert.Equal(t, "127.0.0.1:9", loc.Host, "any port of the registered loopback redirect")
	assert.Equal(t, "/callback", loc.Path)
	assert.Equal(t, "client-state-1", loc.Query().Get("state"))
	code := loc.Query().Get("code")

	fq := h.forge.authorize
	assert.Equal(t, appID, fq.Get("client_id"), "the forge sees the operator's application")
	assert.Equal(t, h.srv.URL+CallbackPath, fq.Get("redirect_uri"))
	assert.Equal(t, "S256", fq.Get("code_challenge_method"))
	assert.NotEqual(t, challenge, fq.Get("code_challenge"), "the proxy's own PKCE toward the forge")
	assert.Empty(t, fq.Get("scope"), "no scope configured: none asked")

	status, tok := h.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {clientRedirect},
		"client_id": {client}, "code_verifier": {verifier}, "resource": {h.srv.URL + "/mcp"}})
	require.Equal(t, http.StatusOK, status, tok)
	assert.Equal(t, "forge-access-0002", tok["access_token"], "the forge's access token, passed through")
	assert.Equal(t, "Bearer", tok["token_type"])
	assert.EqualValues(t, 3600, tok["expires_in"])
	rt, _ := tok["refresh_token"].(string)
	assert.NotContains(t, rt, "forge-refresh", "the refresh token is wrapped")
	forgeReq := h.forge.tokenReqs[0]
	assert.Equal(t, appSecret, forgeReq.Get("client_secret"))
	assert.Equal(t, h.srv.URL+CallbackPath, forgeReq.Get("redirect_uri"))

	status, tok = h.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}, "client_id": {client}})
	require.Equal(t, http.StatusOK, status, tok)
	assert.Equal(t, "forge-access-0003", tok["access_token"])
	assert.Equal(t, "forge-refresh-0002", h.forge.tokenReqs[1].Get("refresh_token"), "the forge's own refresh token, unwrapped")

	status, tok = h.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {clientRedirect},
		"client_id": {client}, "code_verifier": {verifier}})
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "invalid_grant", tok["error"], "a code works once: the forge's code is spent")
}

// TestFixedScope: whatever two clients ask for, the forge is asked for the
// configured scope, so the forge's one grant per user and application
// never clashes.
func TestFixedScope(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Scope = "read:repository write:issue" })
	a := h.register("http://127.0.0.1/callback")
	b := h.register("http://localhost/cb")
	_, ch := pkce("x")
	pa := authParams(a, clientRedirect, ch)
	pb := authParams(b, "http://localhost:4242/cb", ch)
	pb.Set("scope", "read:user write:repository admin")
	for _, q := range []url.Values{pa, pb} {
		br := h.browser()
		resp := br.consent(br.authorize(q), "allow")
		require.Equal(t, http.StatusFound, resp.StatusCode)
	}
	assert.Equal(t, []string{"read:repository write:issue", "read:repository write:issue"}, h.forge.scopes)

	_, body := h.do(http.MethodGet, MetadataPath, "", "", nil)
	var md map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &md))
	assert.Equal(t, []any{"read:repository", "write:issue"}, md["scopes_supported"])
}

func TestMetadata(t *testing.T) {
	h := newHarness(t, nil)
	resp, body := h.do(http.MethodGet, MetadataPath, "", "", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var md map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &md))
	assert.Equal(t, h.srv.URL, md["issuer"])
	assert.Equal(t, h.srv.URL+AuthorizePath, md["authorization_endpoint"])
	assert.Equal(t, h.srv.URL+TokenPath, md["token_endpoint"])
	assert.Equal(t, h.srv.URL+RegisterPath, md["registration_endpoint"])
	assert.Equal(t, true, md["client_id_metadata_document_supported"])
	assert.Equal(t, []any{"S256"}, md["code_challenge_methods_supported"])
	assert.Equal(t, []any{"none"}, md["token_endpoint_auth_methods_supported"])
	assert.NotContains(t, md, "scopes_supported")

	resp, _ = h.do(http.MethodGet, MetadataPath+"/elsewhere", "", "", nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	resp, _ = h.do(http.MethodPost, MetadataPath, "", "", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

// TestMetadataUnderPrefix: a server under a path prefix is an issuer with
// a path; its metadata lives at the well-known path with the path after it
// (RFC 8414 section 3.1).
func TestMetadataUnderPrefix(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Base = func(r *http.Request) *url.URL {
			return &url.URL{Scheme: "https", Host: "example.org", Path: "/forgejo-mcp"}
		}
	})
	resp, body := h.do(http.MethodGet, MetadataPath+"/forgejo-mcp", "", "", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, body, `"issuer":"https://example.org/forgejo-mcp"`)
	assert.Contains(t, body, `"token_endpoint":"https://example.org/forgejo-mcp/oauth/token"`)
	resp, _ = h.do(http.MethodGet, MetadataPath, "", "", nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.True(t, h.p.resourceAllowed(httptestRequest(), "https://EXAMPLE.org/forgejo-mcp/mcp"))
	assert.True(t, h.p.resourceAllowed(httptestRequest(), "https://example.org/forgejo-mcp/"))
	assert.False(t, h.p.resourceAllowed(httptestRequest(), "https://example.org/mcp"))
	assert.False(t, h.p.resourceAllowed(httptestRequest(), "https://example.org/forgejo-mcp/mcp#x"))
	assert.False(t, h.p.resourceAllowed(httptestRequest(), "http://example.org/forgejo-mcp/mcp"))
}

func httptestRequest() *http.Request {
	r, _ := http.NewRequest(http.MethodGet, "https://example.org/", nil)
	return r
}

// TestPreRegisteredPassesThrough: a client with an application of its own
// at the forge (a UUID client id) keeps working with the proxy on: its
// browser goes to the forge with its own parameters, and its token
// requests are relayed, the forge's refusals as RFC codes in the proxy's
// words.
func TestPreRegisteredPassesThrough(t *testing.T) {
	h := newHarness(t, nil)
	own := "5b0c3f52-1e6b-4d5e-9f3a-0a1b2c3d4e5f"
	_, ch := pkce("p")
	q := authParams(own, "http://127.0.0.1:7777/cb", ch)
	q.Set("scope", "read:user")
	q.Set("resource", "https://evil.example/")
	resp, _ := h.do(http.MethodGet, AuthorizePath+"?"+q.Encode(), "", "", nil)
	require.Equal(t, http.StatusFound, resp.StatusCode)
	loc, _ := resp.Location()
	assert.True(t, strings.HasPrefix(loc.String(), h.forge.URL+"/login/oauth/authorize?"), loc.String())
	got := loc.Query()
	assert.Equal(t, own, got.Get("client_id"))
	assert.Equal(t, "http://127.0.0.1:7777/cb", got.Get("redirect_uri"))
	assert.Equal(t, "read:user", got.Get("scope"), "its own application, its own scope")
	assert.Equal(t, ch, got.Get("code_challenge"))
	assert.Empty(t, got.Get("resource"))

	h.forge.tokenStatus, h.forge.tokenBody = http.StatusBadRequest, `{"error":"unauthorized_client","error_description":"cannot load client with client id: '<script>x</script>'"}`
	status, tok := h.token(url.Values{"grant_type": {"authorization_code"}, "code": {"c"}, "client_id": {own}, "code_verifier": {strings.Repeat("a", 43)}})
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "unauthorized_client", tok["error"])
	assert.NotContains(t, tok["error_description"], "script", "the forge's text is not passed on")
	assert.Equal(t, own, h.forge.tokenReqs[0].Get("client_id"))
	assert.Empty(t, h.forge.tokenReqs[0].Get("client_secret"), "the proxy's secret is never sent for another application")

	h.forge.tokenStatus, h.forge.tokenBody = http.StatusOK, `{"access_token":"own-at","token_type":"bearer","expires_in":60,"refresh_token":"own-rt","id_token":"x"}`
	status, tok = h.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"own-rt0"}, "client_id": {own}})
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"access_token": "own-at", "token_type": "Bearer", "expires_in": float64(60), "refresh_token": "own-rt"}, tok, "known members only, the refresh token as the forge sent it")
}

// TestReplicas: two proxies sharing only the key serve one flow between
// them, each step on the other replica: nothing is stored.
func TestReplicas(t *testing.T) {
	a := newHarness(t, nil)
	b := newHarness(t, nil)
	// One public URL, as behind a load balancer: both name themselves so,
	// and the forge answers to replica a's callback.
	public := a.srv.URL
	for _, h := range []*harness{a, b} {
		h.p.cfg.Base = func(*http.Request) *url.URL { u, _ := url.Parse(public); return u }
		h.p.cfg.ForgeAuthorize = func(context.Context) string { return a.forge.URL + "/login/oauth/authorize" }
	}
	b.p.cfg.Forge = a.p.cfg.Forge
	b.p.forgeHTTP = a.p.forgeHTTP
	client := b.register(clientRedirect) // registered on b
	verifier, challenge := pkce("rep")
	br := a.browser()
	resp, page := br.get(b.srv.URL + AuthorizePath + "?" + authParams(client, clientRedirect, challenge).Encode()) // consent page from b
	require.Equal(t, http.StatusOK, resp.StatusCode, page)
	request := requestField.FindStringSubmatch(page)[1]
	for _, c := range br.http.Jar.Cookies(mustURL(b.srv.URL)) {
		br.http.Jar.SetCookies(mustURL(a.srv.URL), []*http.Cookie{c})
	}
	resp = br.consent(request, "allow") // approved on a; the forge calls back a
	require.Equal(t, http.StatusFound, resp.StatusCode)
	loc, _ := resp.Location()
	status, tok := b.token(url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "redirect_uri": {clientRedirect},
		"client_id": {client}, "code_verifier": {verifier}}) // redeemed on b
	require.Equal(t, http.StatusOK, status, tok)
	status, tok = a.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {client}}) // refreshed on a
	assert.Equal(t, http.StatusOK, status, tok)
}
