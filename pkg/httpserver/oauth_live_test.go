package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// TestLiveOAuthFlow is the whole sign-in an MCP client does against this
// server, with the official Go SDK's OAuth client and no token given to it:
// 401 → our protected resource metadata → the forge's discovery document →
// authorization code with PKCE at the forge (the user's consent is given
// by a scripted browser) → token → the tool call acts as the signed-in
// user. The only set-up is the OAuth2 application registered at the forge,
// as docs/http.md tells a user to do.
func TestLiveOAuthFlow(t *testing.T) {
	f := testforge.Get(t)
	// scripts/test-forge always provides it; a forge without it is a set-up
	// fault, not a reason to skip.
	require.NotEmpty(t, f.Password, "FORGEJO_TEST_PASSWORD is needed to sign in at the forge")
	clientID := registerOAuthApp(t, f)
	endpoint := liveServer(t, f, nil)

	browser := newBrowser(t, f)
	handler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		PreregisteredClient:      &oauthex.ClientCredentials{ClientID: clientID},
		RedirectURL:              redirectTo,
		AuthorizationCodeFetcher: browser.consent,
	})
	require.NoError(t, err)
	client := mcp.NewClient(&mcp.Implementation{Name: "forgejo-mcp-oauth-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint, OAuthHandler: handler, MaxRetries: -1}, nil)
	require.NoError(t, err)
	defer cs.Close()
	require.Equal(t, 1, browser.consents, "the user was sent to the forge once")

	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_my_user_info", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, res.IsError, resultText(t, res))
	assert.Contains(t, resultText(t, res), `"login":"`+f.User+`"`)
}

// registerOAuthApp registers a public OAuth2 application (no secret; PKCE)
// for the loopback callback, as a user would in the forge's settings, and
// deletes it when the test ends.
func registerOAuthApp(t *testing.T, f *testforge.Forge) string {
	t.Helper()
	body := strings.NewReader(`{"name":"forgejo-mcp test","redirect_uris":["http://127.0.0.1/callback"],"confidential_client":false}`)
	req, err := http.NewRequest(http.MethodPost, f.URL+"/api/v1/user/applications/oauth2", body)
	require.NoError(t, err)
	req.SetBasicAuth(f.User, f.Password)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	var app struct {
		ID       int64  `json:"id"`
		ClientID string `json:"client_id"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&app))
	t.Cleanup(func() {
		req, _ := http.NewRequest(http.MethodDelete, fmt.Sprintf("%s/api/v1/user/applications/oauth2/%d", f.URL, app.ID), nil)
		req.SetBasicAuth(f.User, f.Password)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	})
	return app.ClientID
}

// browser plays the user: signed in at the forge with a session cookie, it
// opens the authorization URL and approves the application.
type browser struct {
	t        *testing.T
	forge    string
	http     *http.Client
	consents int
}

func newBrowser(t *testing.T, f *testforge.Forge) *browser {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	b := &browser{t: t, forge: f.URL, http: &http.Client{
		Jar: jar,
		// Stop at redirects to the client's callback: nothing listens there.
		CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			// By host: a forge on port 1xxxx shares the callback's prefix.
			if cb, _ := url.Parse(redirectTo); req.URL.Host == cb.Host {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}}
	form := url.Values{"user_name": {f.User}, "password": {f.Password}}
	resp, err := b.http.PostForm(f.URL+"/user/login", form)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "signed in")
	return b
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

// consent implements auth.AuthorizationCodeFetcher.
func (b *browser) consent(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	b.consents++
	if !strings.HasPrefix(args.URL, b.forge+"/login/oauth/authorize?") {
		return nil, fmt.Errorf("client was sent to %q, not to the forge's authorization endpoint", args.URL)
	}
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
	if resp.StatusCode/100 == 3 { // granted before: straight back to the client
		return callbackResult(resp)
	}
	form := url.Values{"granted": {"true"}}
	for _, m := range hiddenInput.FindAllStringSubmatch(string(page), -1) {
		form.Set(m[1], htmlUnescape(m[2]))
	}
	if form.Get("client_id") == "" {
		return nil, errors.New("the forge did not show the consent form")
	}
	req, err = http.NewRequestWithContext(ctx, http.MethodPost, b.forge+"/login/oauth/grant", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err = b.http.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return callbackResult(resp)
}

func callbackResult(resp *http.Response) (*auth.AuthorizationResult, error) {
	loc, err := resp.Location()
	if err != nil {
		return nil, fmt.Errorf("no redirect to the callback (status %d): %w", resp.StatusCode, err)
	}
	q := loc.Query()
	if q.Get("code") == "" {
		return nil, fmt.Errorf("callback without code: error=%q", q.Get("error"))
	}
	return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#34;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">", "&quot;", `"`).Replace(s)
}
