package httpserver

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/oauthproxy"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// proxyServer is the HTTP endpoint with the OAuth proxy on, in front of
// the live forge, through a confidential application registered there for
// its callback, as docs/http.md tells an operator to do.
func proxyServer(t *testing.T, f *testforge.Forge, edit func(*oauthproxy.Config)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	root := "http://" + ln.Addr().String()
	id, secret := registerApp(t, f, root+oauthproxy.CallbackPath, true)
	base, err := forgejo.ParseBaseURL(f.URL)
	require.NoError(t, err)
	runner := &tool.Runner{Timeout: 30 * time.Second}
	cfg := &oauthproxy.Config{ClientID: id, ClientSecret: secret, Keys: [][]byte{[]byte("live-test-key-0123456789abcdef0123456789")}}
	if edit != nil {
		edit(cfg)
	}
	srv, err := New(Options{Forge: base, HTTPClient: forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}),
		UserAgent: "forgejo-mcp/live-test", Defs: operation.All(), Runner: runner, OAuthProxy: cfg})
	require.NoError(t, err)
	hs := httptest.NewUnstartedServer(srv)
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	t.Cleanup(hs.Close)
	return root + EndpointPath
}

// registerApp registers an OAuth2 application at the forge through its API
// and deletes it when the test ends.
func registerApp(t *testing.T, f *testforge.Forge, redirect string, confidential bool) (id, secret string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": "forgejo-mcp proxy test " + t.Name(), "redirect_uris": []string{redirect}, "confidential_client": confidential})
	req, err := http.NewRequest(http.MethodPost, f.URL+"/api/v1/user/applications/oauth2", strings.NewReader(string(body)))
	require.NoError(t, err)
	req.SetBasicAuth(f.User, f.Password)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	var app struct {
		ID           int64  `json:"id"`
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&app))
	t.Cleanup(func() {
		req, _ := http.NewRequest(http.MethodDelete, fmt.Sprintf("%s/api/v1/user/applications/oauth2/%d", f.URL, app.ID), nil)
		req.SetBasicAuth(f.User, f.Password)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	})
	return app.ClientID, app.ClientSecret
}

var consentRequest = regexp.MustCompile(`name="request" value="([^"]+)"`)

// proxyConsent implements auth.AuthorizationCodeFetcher for the proxy: the
// user approves the client on the proxy's page, then signs in at the
// forge (approving the proxy's application the first time only).
func (b *browser) proxyConsent(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	b.consents++
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args.URL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := consentRequest.FindStringSubmatch(string(page))
	if m == nil {
		return nil, fmt.Errorf("no consent page (status %d): %.300s", resp.StatusCode, page)
	}
	u, _ := url.Parse(args.URL)
	form := url.Values{"request": {htmlUnescape(m[1])}, "decision": {"allow"}}
	req, err = http.NewRequestWithContext(ctx, http.MethodPost, u.Scheme+"://"+u.Host+oauthproxy.ConsentPath, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", u.Scheme+"://"+u.Host)
	resp, err = b.http.Do(req)
	if err != nil {
		return nil, err
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK { // the forge asks to approve the proxy's application
		return b.grant(ctx, string(page))
	}
	return callbackResult(resp)
}

// grant approves an application on the forge's consent page.
func (b *browser) grant(ctx context.Context, page string) (*auth.AuthorizationResult, error) {
	form := url.Values{"granted": {"true"}}
	for _, m := range hiddenInput.FindAllStringSubmatch(page, -1) {
		form.Set(m[1], htmlUnescape(m[2]))
	}
	if form.Get("client_id") == "" {
		return nil, errors.New("the forge did not show its consent form")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.forge+"/login/oauth/grant", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := b.http.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return callbackResult(resp)
}

// connectOAuth connects the Go SDK's OAuth client to endpoint, asking for
// scopes (nil: what the metadata suggests).
func connectOAuth(t *testing.T, endpoint string, b *browser, reg *auth.AuthorizationCodeHandlerConfig) *mcp.ClientSession {
	t.Helper()
	reg.RedirectURL = redirectTo
	reg.AuthorizationCodeFetcher = b.proxyConsent
	handler, err := auth.NewAuthorizationCodeHandler(reg)
	require.NoError(t, err)
	client := mcp.NewClient(&mcp.Implementation{Name: "forgejo-mcp-proxy-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: handler, MaxRetries: -1}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func whoami(t *testing.T, cs *mcp.ClientSession) string {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_my_user_info", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, res.IsError, resultText(t, res))
	var u struct {
		Login string `json:"login"`
	}
	require.NoError(t, json.Unmarshal([]byte(resultText(t, res)), &u))
	return u.Login
}

// TestLiveOAuthProxyRegistration: the Go SDK's OAuth client, given no
// client id, registers itself with the proxy (RFC 7591), the user approves
// it and signs in at the forge, and its calls act as the user; a second
// client asking for other scopes follows without the forge's "a grant
// exists with different scope".
func TestLiveOAuthProxyRegistration(t *testing.T) {
	f := testforge.Get(t)
	require.NotEmpty(t, f.Password, "FORGEJO_TEST_PASSWORD is needed to sign in at the forge")
	endpoint := proxyServer(t, f, nil)
	b := newBrowser(t, f)

	first := connectOAuth(t, endpoint, b, &auth.AuthorizationCodeHandlerConfig{DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
		Metadata: &oauthex.ClientRegistrationMetadata{ClientName: "Go SDK, no scope", RedirectURIs: []string{redirectTo}, TokenEndpointAuthMethod: "none"}}})
	assert.Equal(t, f.User, whoami(t, first))

	second := connectOAuth(t, endpoint, b, &auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{ClientName: "Go SDK, scoped", RedirectURIs: []string{redirectTo}, TokenEndpointAuthMethod: "none"}},
		ScopeFilter: func([]string) []string { return []string{"read:user", "write:repository"} },
	})
	assert.Equal(t, f.User, whoami(t, second))
	assert.Equal(t, 2, b.consents, "each client approved once on the proxy's page")
	assert.Equal(t, f.User, whoami(t, first), "the first client still works")
}

// TestLiveOAuthProxyDocument: a client identified by its metadata
// document (CIMD) on an https URL signs in through the proxy.
func TestLiveOAuthProxyDocument(t *testing.T) {
	f := testforge.Get(t)
	require.NotEmpty(t, f.Password)
	var docURL string
	docs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"client_id": docURL, "client_name": "Go SDK by document",
			"redirect_uris": []string{redirectTo}, "token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}})
	}))
	t.Cleanup(docs.Close)
	docURL = docs.URL + "/client.json"
	roots := x509.NewCertPool()
	roots.AddCert(docs.Certificate())
	endpoint := proxyServer(t, f, func(c *oauthproxy.Config) { c.CIMD = oauthproxy.CIMDOptions{AllowPrivate: true, RootCAs: roots} })
	b := newBrowser(t, f)
	cs := connectOAuth(t, endpoint, b, &auth.AuthorizationCodeHandlerConfig{ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: docURL}})
	assert.Equal(t, f.User, whoami(t, cs))
}

// TestLiveOAuthProxyPreRegistered: with the proxy on, a client holding an
// application of its own at the forge (the pre-registered path) still
// signs in, passed through to the forge.
func TestLiveOAuthProxyPreRegistered(t *testing.T) {
	f := testforge.Get(t)
	require.NotEmpty(t, f.Password)
	endpoint := proxyServer(t, f, nil)
	own := registerOAuthApp(t, f)
	b := newBrowser(t, f)
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		PreregisteredClient: &oauthex.ClientCredentials{ClientID: own}, RedirectURL: redirectTo,
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			u, _ := url.Parse(args.URL)
			resp, err := noFollow().Get(args.URL)
			if err != nil {
				return nil, err
			}
			resp.Body.Close()
			loc, _ := resp.Location()
			if u.Path != oauthproxy.AuthorizePath || loc == nil || !strings.HasPrefix(loc.String(), f.URL+"/login/oauth/authorize?") {
				return nil, fmt.Errorf("the proxy did not pass the client to the forge: %d %v", resp.StatusCode, loc)
			}
			return b.consent(ctx, &auth.AuthorizationArgs{URL: loc.String()})
		},
	})
	require.NoError(t, err)
	client := mcp.NewClient(&mcp.Implementation{Name: "forgejo-mcp-proxy-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: handler, MaxRetries: -1}, nil)
	require.NoError(t, err)
	defer cs.Close()
	assert.Equal(t, f.User, whoami(t, cs))
}

func noFollow() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
