package oauthproxy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The forge application the proxy signs users in through.
const (
	appID     = "0c6e1f6a-3a42-4b1e-9d61-2f1e8b7a9c10"
	appSecret = "gto_appsecret_0123456789abcdefghijklmnop"
	testKey   = "0123456789abcdef0123456789abcdef-test-key"
)

// fakeForge plays the forge's OAuth2 provider as Gitea 1.26 behaves: its
// authorization endpoint approves at once (the user has a grant), its
// token endpoint checks the application's secret, PKCE and the redirect
// URI, and each code works once.
type fakeForge struct {
	*httptest.Server
	t *testing.T

	mu        sync.Mutex
	codes     map[string]forgeCode // code -> what it was issued for
	refreshes map[string]bool
	n         int
	scopes    []string   // the scope of each authorization request
	authorize url.Values // the last authorization request
	tokenReqs []url.Values
	// Set by tests: the authorization endpoint answers with this error
	// (and description) instead of a code; the token endpoint with this
	// status and body.
	authError, authErrorDesc string
	tokenStatus              int
	tokenBody                string
	tokenLocation            string
}

type forgeCode struct{ redirect, challenge string }

func newFakeForge(t *testing.T) *fakeForge {
	f := &fakeForge{t: t, codes: map[string]forgeCode{}, refreshes: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login/oauth/authorize", f.serveAuthorize)
	mux.HandleFunc("POST /login/oauth/access_token", f.serveToken)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func (f *fakeForge) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.authorize = q
	f.scopes = append(f.scopes, q.Get("scope"))
	if q.Get("client_id") != appID {
		http.Error(w, "Client ID not registered", http.StatusBadRequest)
		return
	}
	back := url.Values{"state": {q.Get("state")}}
	if f.authError != "" {
		back.Set("error", f.authError)
		back.Set("error_description", f.authErrorDesc)
	} else {
		f.n++
		code := fmt.Sprintf("forgecode%04d", f.n)
		f.codes[code] = forgeCode{redirect: q.Get("redirect_uri"), challenge: q.Get("code_challenge")}
		back.Set("code", code)
	}
	http.Redirect(w, r, q.Get("redirect_uri")+"?"+back.Encode(), http.StatusSeeOther)
}

func (f *fakeForge) serveToken(w http.ResponseWriter, r *http.Request) {
	require.NoError(f.t, r.ParseForm())
	form := r.PostForm
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokenReqs = append(f.tokenReqs, form)
	fail := func(code, desc string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": desc})
	}
	if f.tokenStatus != 0 {
		if f.tokenLocation != "" {
			w.Header().Set("Location", f.tokenLocation)
		}
		w.WriteHeader(f.tokenStatus)
		_, _ = io.WriteString(w, f.tokenBody)
		return
	}
	if form.Get("client_id") == appID && form.Get("client_secret") != appSecret {
		fail("unauthorized_client", "invalid client secret")
		return
	}
	switch form.Get("grant_type") {
	case "authorization_code":
		c, ok := f.codes[form.Get("code")]
		delete(f.codes, form.Get("code"))
		switch {
		case !ok:
			fail("unauthorized_client", "client is not authorized")
			return
		case c.redirect != form.Get("redirect_uri"):
			fail("unauthorized_client", "unexpected redirect URI")
			return
		case c.challenge != s256(form.Get("code_verifier")):
			fail("unauthorized_client", "failed PKCE code challenge")
			return
		}
	case "refresh_token":
		if !f.refreshes[form.Get("refresh_token")] {
			fail("invalid_grant", "grant does not exist")
			return
		}
	default:
		fail("unsupported_grant_type", "Only refresh_token or authorization_code grant type is supported")
		return
	}
	f.n++
	rt := fmt.Sprintf("forge-refresh-%04d", f.n)
	f.refreshes[rt] = true
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("forge-access-%04d", f.n), "token_type": "bearer", "expires_in": 3600, "refresh_token": rt})
}

func s256(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// harness is a Proxy served on loopback in front of a fakeForge, with a
// clock the test moves and its log captured.
type harness struct {
	t     *testing.T
	forge *fakeForge
	p     *Proxy
	srv   *httptest.Server
	logs  *bytes.Buffer
	logMu *sync.Mutex
	clock time.Time
	mu    sync.Mutex
}

func newHarness(t *testing.T, edit func(*Config)) *harness {
	h := &harness{t: t, forge: newFakeForge(t), logs: &bytes.Buffer{}, logMu: &sync.Mutex{}, clock: time.Unix(1_800_000_000, 0)}
	forgeURL, _ := url.Parse(h.forge.URL)
	cfg := Config{
		Forge:          forgeURL,
		HTTPClient:     h.forge.Client(),
		ForgeAuthorize: func(context.Context) string { return h.forge.URL + "/login/oauth/authorize" },
		ClientID:       appID,
		ClientSecret:   appSecret,
		Keys:           [][]byte{[]byte(testKey)},
		Base: func(r *http.Request) *url.URL {
			return &url.URL{Scheme: "http", Host: r.Host}
		},
		Logger: slog.New(slog.NewTextHandler(lockedWriter{h.logs, h.logMu}, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now:    h.now,
	}
	if edit != nil {
		edit(&cfg)
	}
	p, err := New(cfg)
	require.NoError(t, err)
	h.p = p
	mux := http.NewServeMux()
	p.Mount(mux)
	h.srv = httptest.NewServer(mux)
	t.Cleanup(h.srv.Close)
	return h
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (h *harness) now() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.clock
}

func (h *harness) advance(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clock = h.clock.Add(d)
}

func (h *harness) log() string {
	h.logMu.Lock()
	defer h.logMu.Unlock()
	return h.logs.String()
}

// register registers a client with these redirect URIs and returns its id.
func (h *harness) register(redirects ...string) string {
	h.t.Helper()
	b, _ := json.Marshal(map[string]any{"client_name": "Test Client", "redirect_uris": redirects, "token_endpoint_auth_method": "none"})
	resp, body := h.do(http.MethodPost, RegisterPath, "application/json", string(b), nil)
	require.Equal(h.t, http.StatusCreated, resp.StatusCode, body)
	var out struct {
		ClientID string `json:"client_id"`
	}
	require.NoError(h.t, json.Unmarshal([]byte(body), &out))
	return out.ClientID
}

// do sends one request to the proxy without following redirects.
func (h *harness) do(method, path, contentType, body string, edit func(*http.Request)) (*http.Response, string) {
	h.t.Helper()
	req, err := http.NewRequest(method, h.srv.URL+path, strings.NewReader(body))
	require.NoError(h.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if edit != nil {
		edit(req)
	}
	resp, err := noRedirect().Do(req)
	require.NoError(h.t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func noRedirect() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// browser is a user agent with cookies that stops at redirects leaving the
// proxy and the forge (to the client's redirect URI).
type browser struct {
	t    *testing.T
	h    *harness
	http *http.Client
}

func (h *harness) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: h.t, h: h, http: &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if u := req.URL.String(); strings.HasPrefix(u, h.srv.URL) || strings.HasPrefix(u, h.forge.URL) {
			return nil
		}
		return http.ErrUseLastResponse
	}}}
}

func (b *browser) get(u string) (*http.Response, string) {
	b.t.Helper()
	resp, err := b.http.Get(u)
	require.NoError(b.t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

var requestField = regexp.MustCompile(`name="request" value="([^"]+)"`)

// authorize opens the authorization URL and returns the consent page's
// sealed request (the test fails when there is no consent page).
func (b *browser) authorize(q url.Values) string {
	b.t.Helper()
	resp, body := b.get(b.h.srv.URL + AuthorizePath + "?" + q.Encode())
	require.Equal(b.t, http.StatusOK, resp.StatusCode, body)
	m := requestField.FindStringSubmatch(body)
	require.NotNil(b.t, m, body)
	return m[1]
}

// consent posts the consent form as the page does and returns the final
// response (the redirect to the client, or an error page).
func (b *browser) consent(request, decision string) *http.Response {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodPost, b.h.srv.URL+ConsentPath, strings.NewReader(url.Values{"request": {request}, "decision": {decision}}.Encode()))
	require.NoError(b.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.h.srv.URL)
	resp, err := b.http.Do(req)
	require.NoError(b.t, err)
	resp.Body.Close()
	return resp
}

// pkce returns a verifier and its challenge.
func pkce(seed string) (string, string) {
	v := strings.Repeat(seed, 43/len(seed)+1)[:43]
	return v, s256(v)
}

// authParams are a good authorization request of client for redirect.
func authParams(client, redirect, challenge string) url.Values {
	return url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {redirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"client-state-1"}}
}

// signIn runs a whole sign-in for client through a new browser and
// returns the proxy's authorization code.
func (h *harness) signIn(client, redirect, challenge string) string {
	h.t.Helper()
	b := h.browser()
	resp := b.consent(b.authorize(authParams(client, redirect, challenge)), "allow")
	require.Equal(h.t, http.StatusFound, resp.StatusCode)
	loc, err := resp.Location()
	require.NoError(h.t, err)
	require.Equal(h.t, "client-state-1", loc.Query().Get("state"))
	require.NotEmpty(h.t, loc.Query().Get("code"), loc.String())
	return loc.Query().Get("code")
}

// token posts a token request and decodes the JSON answer.
func (h *harness) token(form url.Values) (int, map[string]any) {
	h.t.Helper()
	resp, body := h.do(http.MethodPost, TokenPath, "application/x-www-form-urlencoded", form.Encode(), nil)
	var out map[string]any
	require.NoError(h.t, json.Unmarshal([]byte(body), &out), body)
	return resp.StatusCode, out
}

func jsonBody(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

func decodeField(t *testing.T, body, field string) string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &m), body)
	s, _ := m[field].(string)
	return s
}
