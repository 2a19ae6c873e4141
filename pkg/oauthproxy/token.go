package oauthproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
)

// wrapped is the refresh token the proxy hands out: the forge's, bound to
// the client it was issued to. The forge's refresh token alone is useless
// outside the proxy (the forge wants this server's client secret with
// it), and wrapped, only the client it was issued to can redeem it here.
type wrapped struct {
	Forge  string `json:"f"`
	Client string `json:"c"`
}

// maxForgeToken bounds a token the forge returns (Gitea's JWTs are about
// 300 bytes).
const maxForgeToken = 4 << 10

// forgeTokens is the forge's token response, the members passed on.
type forgeTokens struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
}

// tokenErrorText describes an RFC 6749 section 5.2 error code; a forge's
// answer is passed on only as one of these codes, with the proxy's words.
func tokenErrorText(code string) (string, bool) {
	switch code {
	case "invalid_request":
		return "the forge refused the token request as malformed", true
	case "invalid_client":
		return "the forge does not know this client or refused its authentication", true
	case "invalid_grant":
		return "the forge refused the grant (the code or refresh token is expired, used or revoked); sign in again", true
	case "unauthorized_client":
		return "the forge refused this client the grant", true
	case "unsupported_grant_type":
		return "the forge does not support this grant type", true
	case "invalid_scope":
		return "the forge refused the scope", true
	}
	return "", false
}

// serveToken is the token endpoint: the authorization code and refresh
// token grants of public clients (PKCE, no client authentication).
func (p *Proxy) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, "POST")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		tokenError(w, http.StatusBadRequest, "invalid_request", "send the token request as application/x-www-form-urlencoded")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		tokenError(w, http.StatusBadRequest, "invalid_request", "the token request could not be read")
		return
	}
	f := r.PostForm
	for _, v := range f {
		if len(v) > 1 {
			tokenError(w, http.StatusBadRequest, "invalid_request", "a parameter is given more than once")
			return
		}
	}
	clientID, secret := f.Get("client_id"), f.Get("client_secret")
	if user, pass, ok := r.BasicAuth(); ok {
		// client_secret_basic: both form-urlencoded (RFC 6749 section 2.3.1).
		user, _ = url.QueryUnescape(user)
		pass, _ = url.QueryUnescape(pass)
		if clientID != "" && clientID != user {
			tokenError(w, http.StatusBadRequest, "invalid_request", "client_id differs from the Authorization header's")
			return
		}
		clientID, secret = user, pass
	}
	if clientID == p.cfg.ClientID {
		tokenError(w, http.StatusUnauthorized, "invalid_client", "the client_id is this server's own application at the forge, which no client may use")
		return
	}
	if forgeClientID(clientID) {
		p.passToken(w, r, f, clientID, secret)
		return
	}
	if clientID == "" {
		tokenError(w, http.StatusUnauthorized, "invalid_client", "client_id is required")
		return
	}
	if _, err := p.resolveSealed(clientID); err != nil {
		tokenError(w, http.StatusUnauthorized, "invalid_client", errUnknownClient.Error())
		return
	}
	switch f.Get("grant_type") {
	case "authorization_code":
		p.exchangeCode(w, r, f, clientID)
	case "refresh_token":
		p.refresh(w, r, f, clientID)
	case "":
		tokenError(w, http.StatusBadRequest, "invalid_request", "grant_type is required")
	default:
		tokenError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
	}
}

// resolveSealed checks a client id at the token endpoint: a document URL
// is not fetched again (the code or refresh token binds the client), a
// registered id must open.
func (p *Proxy) resolveSealed(id string) (*client, error) {
	if strings.HasPrefix(id, "https://") || strings.HasPrefix(id, "http://") {
		if _, err := p.documents.checkDocumentURL(id); err != nil {
			return nil, err
		}
		return &client{ID: id, Document: true}, nil
	}
	var reg registered
	if len(id) > maxClientID || p.seal.open(purposeClient, id, &reg) != nil {
		return nil, errUnknownClient
	}
	return &client{ID: id, Name: reg.Name}, nil
}

func (p *Proxy) exchangeCode(w http.ResponseWriter, r *http.Request, f url.Values, clientID string) {
	var c issued
	switch {
	case p.seal.open(purposeCode, f.Get("code"), &c) != nil || p.now().Unix() > c.Exp:
		tokenError(w, http.StatusBadRequest, "invalid_grant", "the authorization code is not valid here, or expired")
	case c.Client != clientHash(clientID):
		tokenError(w, http.StatusBadRequest, "invalid_grant", "the authorization code was issued to another client")
	case f.Get("redirect_uri") != c.Redirect:
		tokenError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri is not the authorization request's")
	case !validVerifier(f.Get("code_verifier")):
		tokenError(w, http.StatusBadRequest, "invalid_request", "code_verifier is required: 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
	case challengeOf(f.Get("code_verifier")) != c.Challenge:
		tokenError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge")
	case f.Get("resource") != "" && !p.resourceAllowed(r, f.Get("resource")):
		tokenError(w, http.StatusBadRequest, "invalid_target", "resource must be this MCP server")
	default:
		tok, err := p.forgeToken(r.Context(), url.Values{"grant_type": {"authorization_code"}, "code": {c.ForgeCode},
			"redirect_uri": {c.Callback}, "code_verifier": {c.Verifier}}, true)
		if err != nil {
			p.forgeFailed(w, r, err, "authorization code")
			return
		}
		p.log.InfoContext(r.Context(), "oauth: issued tokens for a sign-in", "client_name", c.Name, "expires_in", tok.ExpiresIn)
		p.issue(w, tok, c.Client)
	}
}

func (p *Proxy) refresh(w http.ResponseWriter, r *http.Request, f url.Values, clientID string) {
	var rt wrapped
	switch {
	case p.seal.open(purposeRefresh, f.Get("refresh_token"), &rt) != nil:
		tokenError(w, http.StatusBadRequest, "invalid_grant", "the refresh token is not one this server issued")
	case rt.Client != clientHash(clientID):
		tokenError(w, http.StatusBadRequest, "invalid_grant", "the refresh token was issued to another client")
	case f.Get("resource") != "" && !p.resourceAllowed(r, f.Get("resource")):
		tokenError(w, http.StatusBadRequest, "invalid_target", "resource must be this MCP server")
	default:
		tok, err := p.forgeToken(r.Context(), url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt.Forge}}, true)
		if err != nil {
			p.forgeFailed(w, r, err, "refresh token")
			return
		}
		p.log.InfoContext(r.Context(), "oauth: refreshed tokens", "expires_in", tok.ExpiresIn)
		p.issue(w, tok, rt.Client)
	}
}

// issue answers with the forge's tokens, the refresh token wrapped for
// client (a client id's hash; "" passes it on as the forge sent it).
func (p *Proxy) issue(w http.ResponseWriter, tok *forgeTokens, client string) {
	resp := map[string]any{"access_token": tok.AccessToken, "token_type": "Bearer"}
	if tok.ExpiresIn > 0 {
		resp["expires_in"] = tok.ExpiresIn
	}
	switch {
	case tok.RefreshToken == "":
	case client == "":
		resp["refresh_token"] = tok.RefreshToken
	default:
		sealed, err := p.seal.seal(purposeRefresh, wrapped{Forge: tok.RefreshToken, Client: client})
		if err != nil {
			tokenError(w, http.StatusInternalServerError, "server_error", "the tokens could not be issued")
			return
		}
		resp["refresh_token"] = sealed
	}
	if p.cfg.Scope != "" && client != "" {
		resp["scope"] = p.cfg.Scope
	}
	writeJSON(w, http.StatusOK, resp)
}

// passToken relays the token request of a client registered at the
// forge itself (the pre-registered path): the forge checks it. Only the
// grant's parameters go, and only known members come back; a refusal is
// passed on as its RFC 6749 code with the proxy's description.
func (p *Proxy) passToken(w http.ResponseWriter, r *http.Request, f url.Values, clientID, secret string) {
	out := url.Values{}
	for _, k := range []string{"grant_type", "code", "redirect_uri", "code_verifier", "refresh_token"} {
		if v := f.Get(k); v != "" {
			out.Set(k, v)
		}
	}
	out.Set("client_id", clientID)
	if secret != "" {
		out.Set("client_secret", secret)
	}
	tok, err := p.forgeToken(r.Context(), out, false)
	if err != nil {
		var refused *forgeRefusal
		if errors.As(err, &refused) {
			code := refused.code
			desc, ok := tokenErrorText(code)
			if !ok {
				code = "invalid_grant"
				desc, _ = tokenErrorText(code)
			}
			status := http.StatusBadRequest
			if code == "invalid_client" {
				status = http.StatusUnauthorized
			}
			tokenError(w, status, code, desc)
			return
		}
		p.forgeFailed(w, r, err, "token request")
		return
	}
	p.issue(w, tok, "")
}

// forgeRefusal is the forge's refusal of a token request: its RFC 6749
// code and whether it refused this server's own application credentials.
type forgeRefusal struct {
	code         string
	ownClientBad bool
}

func (e *forgeRefusal) Error() string { return "the forge refused the token request (" + e.code + ")" }

var errForgeBusy = errors.New("too many token requests at the forge at once")

// forgeToken posts form to the forge's token endpoint, with this server's
// application credentials when own is set.
func (p *Proxy) forgeToken(ctx context.Context, form url.Values, own bool) (*forgeTokens, error) {
	select {
	case p.exchanges <- struct{}{}:
		defer func() { <-p.exchanges }()
	default:
		return nil, errForgeBusy
	}
	if own {
		form.Set("client_id", p.cfg.ClientID)
		form.Set("client_secret", p.cfg.ClientSecret)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.Forge.JoinPath("login", "oauth", "access_token").String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := p.forgeHTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the forge did not answer the token request")
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("the forge's token answer could not be read")
	}
	switch {
	case resp.StatusCode == http.StatusOK:
		var tok forgeTokens
		if json.Unmarshal(body, &tok) != nil || tok.AccessToken == "" ||
			!printable(tok.AccessToken, maxForgeToken) || !printable(tok.RefreshToken, maxForgeToken) {
			return nil, fmt.Errorf("the forge's token answer is not usable")
		}
		return &tok, nil
	case resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusUnauthorized:
		var e struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		_ = json.Unmarshal(body, &e)
		refused := &forgeRefusal{code: e.Error}
		if own {
			// Gitea and Forgejo refuse a wrong secret as invalid_client
			// (refresh) or unauthorized_client (code) with these words.
			refused.ownClientBad = e.Error == "invalid_client" || e.Description == "invalid client secret" ||
				e.Description == "invalid empty client secret" || strings.HasPrefix(e.Description, "cannot load client with client id")
		}
		return nil, refused
	}
	return nil, fmt.Errorf("the forge answered the token request with %d", resp.StatusCode)
}

// forgeFailed answers a failed token request at the forge for one of the
// proxy's own grants.
func (p *Proxy) forgeFailed(w http.ResponseWriter, r *http.Request, err error, what string) {
	var refused *forgeRefusal
	switch {
	case errors.As(err, &refused) && refused.ownClientBad:
		p.log.ErrorContext(r.Context(), "oauth: the forge refused this server's OAuth2 application: check --oauth-client-id and the client secret file, and that the application is confidential")
		tokenError(w, http.StatusInternalServerError, "server_error", "this server's application at the forge is misconfigured; tell the server's operator")
	case errors.As(err, &refused):
		p.log.InfoContext(r.Context(), "oauth: the forge refused a "+what, "error", knownCode(refused.code))
		tokenError(w, http.StatusBadRequest, "invalid_grant", "the forge refused the "+what+" (expired, already used, or its grant revoked); sign in again")
	case errors.Is(err, errForgeBusy):
		w.Header().Set("Retry-After", "1")
		tokenError(w, http.StatusServiceUnavailable, "temporarily_unavailable", "too many token requests at once; retry in a moment")
	default:
		p.log.WarnContext(r.Context(), "oauth: token request at the forge failed", "err", err.Error())
		tokenError(w, http.StatusBadGateway, "server_error", "the forge did not answer the token request; retry later")
	}
}

// knownCode is code if it is an RFC 6749 token error, for logs.
func knownCode(code string) string {
	if _, ok := tokenErrorText(code); ok {
		return code
	}
	return "other"
}

func tokenError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}
