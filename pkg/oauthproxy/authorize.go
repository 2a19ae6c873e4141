package oauthproxy

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
)

// flow is an authorization request in progress: sealed for the consent
// page (purposeConsent), then as the state sent to the forge
// (purposeState, with Verifier and Callback). Client is the client id's
// SHA-256, enough to bind the flow to it without carrying a long id.
type flow struct {
	Client    string `json:"c"`
	Name      string `json:"n,omitempty"` // the client's name, for logs
	Redirect  string `json:"r"`
	Challenge string `json:"p"`
	State     string `json:"s,omitempty"`
	Resource  string `json:"u,omitempty"`
	Bind      string `json:"b"`           // the browser's binding cookie
	Verifier  string `json:"v,omitempty"` // PKCE toward the forge
	Callback  string `json:"k,omitempty"` // redirect_uri toward the forge
	Exp       int64  `json:"e"`
}

// maxState bounds the client's state parameter, which comes back to it.
const maxState = 512

// serveAuthorize is the authorization endpoint: it checks the request and
// shows the consent page. Until the client and its redirect URI are known
// good, a refusal is a page of its own and never a redirect; after that,
// refusals go back to the client (RFC 6749 section 4.1.2.1).
func (p *Proxy) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET, HEAD")
		return
	}
	q := r.URL.Query()
	if len(q["client_id"]) > 1 || len(q["redirect_uri"]) > 1 {
		p.errorPage(w, http.StatusBadRequest, "The sign-in request names more than one client_id or redirect_uri.")
		return
	}
	c, err := p.resolveClient(r.Context(), q.Get("client_id"))
	if err != nil {
		p.log.InfoContext(r.Context(), "oauth: refused an authorization request: unknown client", "reason", err.Error())
		p.errorPage(w, http.StatusBadRequest, "This sign-in cannot start: "+err.Error()+".")
		return
	}
	if c.Forge {
		p.passAuthorize(w, r, q)
		return
	}
	requested := q.Get("redirect_uri")
	if requested == "" && len(c.RedirectURIs) == 1 && !isLoopback(c.RedirectURIs[0]) {
		requested = c.RedirectURIs[0]
	}
	redirect, ok := c.redirect(requested)
	if !ok {
		p.log.InfoContext(r.Context(), "oauth: refused an authorization request: unregistered redirect_uri", "client_name", c.Name)
		p.errorPage(w, http.StatusBadRequest, "This sign-in cannot start: its redirect_uri is not one the client registered.")
		return
	}
	state := q.Get("state")
	if !validState(state) {
		p.redirectError(w, r, redirect, "", "invalid_request", "state must be at most 512 printable ASCII characters")
		return
	}
	for _, k := range []string{"response_type", "code_challenge", "code_challenge_method", "state", "scope", "resource"} {
		if len(q[k]) > 1 {
			p.redirectError(w, r, redirect, state, "invalid_request", "a parameter is given more than once")
			return
		}
	}
	switch {
	case q.Get("response_type") != "code":
		p.redirectError(w, r, redirect, state, "unsupported_response_type", "response_type must be code")
	case q.Get("code_challenge_method") != "S256":
		p.redirectError(w, r, redirect, state, "invalid_request", "PKCE is required: code_challenge_method must be S256")
	case !validChallenge(q.Get("code_challenge")):
		p.redirectError(w, r, redirect, state, "invalid_request", "code_challenge must be the 43-character base64url SHA-256 of the code verifier")
	case q.Get("resource") != "" && !p.resourceAllowed(r, q.Get("resource")):
		p.redirectError(w, r, redirect, state, "invalid_target", "resource must be this MCP server")
	default:
		f := flow{Client: clientHash(c.ID), Name: c.Name, Redirect: redirect, Challenge: q.Get("code_challenge"),
			State: state, Resource: q.Get("resource"), Bind: p.binding(w, r), Exp: p.now().Add(consentTTL).Unix()}
		sealed, err := p.seal.seal(purposeConsent, f)
		if err != nil {
			p.errorPage(w, http.StatusInternalServerError, "The sign-in could not be prepared; try again.")
			return
		}
		p.consentPage(w, r, c, redirect, sealed)
	}
}

// serveConsent receives the consent page's answer. It must come from
// that page in the same browser: the request's origin is this server's,
// and the browser holds the binding cookie the page was made for.
func (p *Proxy) serveConsent(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, "POST")
		return
	}
	if !p.sameOrigin(r) {
		p.errorPage(w, http.StatusForbidden, "This approval did not come from this server's own page.")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		p.errorPage(w, http.StatusBadRequest, "This approval could not be read.")
		return
	}
	var f flow
	if p.seal.open(purposeConsent, r.PostForm.Get("request"), &f) != nil || p.now().Unix() > f.Exp {
		p.errorPage(w, http.StatusBadRequest, "This approval is not valid or has expired; start the sign-in again from your application.")
		return
	}
	if !p.bound(r, f.Bind) {
		p.errorPage(w, http.StatusBadRequest, "This approval belongs to a sign-in started in another browser; start the sign-in again from your application.")
		return
	}
	switch r.PostForm.Get("decision") {
	case "deny":
		p.log.InfoContext(r.Context(), "oauth: the user denied a client", "client_name", f.Name)
		p.redirectError(w, r, f.Redirect, f.State, "access_denied", "the user denied the request")
	case "allow":
		f.Verifier = randomString(32)
		f.Callback = p.endpoint(r, CallbackPath)
		f.Exp = p.now().Add(stateTTL).Unix()
		state, err := p.seal.seal(purposeState, f)
		if err != nil {
			p.errorPage(w, http.StatusInternalServerError, "The sign-in could not be prepared; try again.")
			return
		}
		q := url.Values{
			"client_id":             {p.cfg.ClientID},
			"redirect_uri":          {f.Callback},
			"response_type":         {"code"},
			"state":                 {state},
			"code_challenge":        {challengeOf(f.Verifier)},
			"code_challenge_method": {"S256"},
		}
		if p.cfg.Scope != "" {
			q.Set("scope", p.cfg.Scope)
		}
		p.log.InfoContext(r.Context(), "oauth: the user approved a client; signing in at the forge", "client_name", f.Name)
		http.Redirect(w, r, withParams(p.cfg.ForgeAuthorize(r.Context()), q), http.StatusSeeOther)
	default:
		p.errorPage(w, http.StatusBadRequest, "This approval could not be read.")
	}
}

// passAuthorize sends the browser of a client registered at the forge
// itself (the pre-registered path) to the forge with the request's own
// parameters: the forge checks them against its registration.
func (p *Proxy) passAuthorize(w http.ResponseWriter, r *http.Request, q url.Values) {
	out := url.Values{}
	for _, k := range []string{"client_id", "redirect_uri", "response_type", "code_challenge", "code_challenge_method", "state", "scope"} {
		if v := q.Get(k); v != "" {
			out.Set(k, v)
		}
	}
	p.log.InfoContext(r.Context(), "oauth: passing a client registered at the forge through to it")
	http.Redirect(w, r, withParams(p.cfg.ForgeAuthorize(r.Context()), out), http.StatusFound)
}

// redirectError sends the browser back to the client's (checked) redirect
// URI with an error of ours and the client's (checked) state.
func (p *Proxy) redirectError(w http.ResponseWriter, r *http.Request, redirect, state, code, desc string) {
	q := url.Values{"error": {code}, "error_description": {desc}}
	if state != "" {
		q.Set("state", state)
	}
	http.Redirect(w, r, withParams(redirect, q), http.StatusSeeOther)
}

// sameOrigin reports whether a form post comes from a page of this
// server: Origin, when the browser sends it, is this server's origin, and
// Sec-Fetch-Site, when sent, says same-origin.
func (p *Proxy) sameOrigin(r *http.Request) bool {
	b := p.cfg.Base(r)
	if o := r.Header.Get("Origin"); o != "" && !strings.EqualFold(o, b.Scheme+"://"+b.Host) {
		return false
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" {
		return false
	}
	return true
}

// The binding cookie ties a flow to the browser it started in: the
// consent page is made for the browser's cookie, its answer and the
// forge's callback are accepted only with it. A page of another site can
// neither read it nor, being SameSite=Lax, have it sent with a form post,
// so it cannot approve a client in the user's name; and a callback the
// user did not start (login CSRF: an attacker's own code) is refused.
const (
	bindCookie       = "fmcp-oauth"
	bindCookieSecure = "__Host-fmcp-oauth"
	bindMaxAge       = 3600
)

// binding returns the browser's binding value, setting the cookie when
// it has none.
func (p *Proxy) binding(w http.ResponseWriter, r *http.Request) string {
	name, secure := p.cookieName(r)
	if c, err := r.Cookie(name); err == nil && validBinding(c.Value) {
		return c.Value
	}
	v := randomString(16)
	http.SetCookie(w, &http.Cookie{Name: name, Value: v, Path: "/", MaxAge: bindMaxAge,
		HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode})
	return v
}

// bound reports whether r carries the binding cookie want.
func (p *Proxy) bound(r *http.Request, want string) bool {
	name, _ := p.cookieName(r)
	c, err := r.Cookie(name)
	return err == nil && want != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(want)) == 1
}

// cookieName is __Host- prefixed (host-only, Secure, Path=/) when the
// server is reached over https, as browsers accept that prefix only there.
func (p *Proxy) cookieName(r *http.Request) (string, bool) {
	if p.cfg.Base(r).Scheme == "https" {
		return bindCookieSecure, true
	}
	return bindCookie, false
}

func validBinding(v string) bool {
	if len(v) != 22 {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(v)
	return err == nil
}

// validState accepts what RFC 6749 allows in state (VSCHAR), bounded.
func validState(s string) bool { return printable(s, maxState) }

// printable reports whether s is at most max bytes of printable ASCII
// (RFC 6749's VSCHAR: space to tilde).
func printable(s string, max int) bool {
	if len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// validChallenge accepts an S256 code challenge: base64url of 32 bytes.
func validChallenge(s string) bool {
	if len(s) != 43 {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil && len(b) == 32
}

// validVerifier accepts an RFC 7636 code verifier.
func validVerifier(s string) bool {
	if len(s) < 43 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

func challengeOf(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func clientHash(id string) string {
	sum := sha256.Sum256([]byte(id))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// randomString returns n random bytes as base64url.
func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// isLoopback reports whether a registered redirect URI is a loopback one.
func isLoopback(redirect string) bool {
	u, err := url.Parse(redirect)
	return err == nil && u.Scheme == "http" && loopbackHost(u.Hostname())
}
