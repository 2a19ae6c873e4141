// Package oauthproxy is an OAuth 2.1 authorization server for MCP clients
// in front of a forge's own OAuth2 provider (Gitea, Forgejo).
//
// The forge offers neither dynamic client registration (RFC 7591) nor
// client ID metadata documents, and keeps one grant per user and
// application, refusing a second client that asks for other scopes. The
// proxy gives MCP clients what they expect (authorization server
// metadata, both kinds of registration, authorize and token endpoints)
// and runs the real sign-in at the forge through one application the
// operator registers once, always asking the forge for the same scope.
// The tokens a client ends with are the forge's own, so the MCP endpoint
// keeps passing them to the forge as before.
//
// It stores nothing: registered clients, flows in progress, codes and
// refresh tokens are sealed (seal.go) with a key replicas share, so any
// replica serves any step. Before the browser goes to the forge, the
// person at it approves the client on a page of the proxy's own: the
// forge signs in its application silently once it has a grant, so without
// that page any registered client could obtain a token (the confused
// deputy of the MCP security best practices).
package oauthproxy

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Paths the proxy serves, under the server's public root.
const (
	MetadataPath  = "/.well-known/oauth-authorization-server"
	RegisterPath  = "/oauth/register"
	AuthorizePath = "/oauth/authorize"
	ConsentPath   = "/oauth/consent"
	CallbackPath  = "/oauth/callback"
	TokenPath     = "/oauth/token"
)

// Lifetimes of what the proxy seals for a flow in progress.
const (
	consentTTL = 10 * time.Minute // from the consent page to the click
	stateTTL   = 10 * time.Minute // from the click to the forge's answer
	codeTTL    = 5 * time.Minute  // from the callback to the token request
)

// Config configures a Proxy. Every field but Scope, CIMD, Logger and Now
// is required.
type Config struct {
	// Forge is the forge's base URL as this server reaches it; the token
	// endpoint is called there.
	Forge *url.URL
	// HTTPClient talks to the forge (its timeouts, CA and size bounds).
	HTTPClient *http.Client
	// ForgeAuthorize returns the forge's authorization endpoint as users'
	// browsers reach it (from its discovery document).
	ForgeAuthorize func(ctx context.Context) string
	// ClientID and ClientSecret are the one OAuth2 application the
	// operator registered at the forge (confidential), with this proxy's
	// callback (Base + CallbackPath) as its redirect URI.
	ClientID     string
	ClientSecret string
	// Keys seal what the proxy hands out (ParseKeys); replicas share them.
	Keys [][]byte
	// Scope is what the proxy asks the forge for, whatever a client asks
	// for: the forge refuses a second client of the same application that
	// asks for another scope. "" asks for none, which the forge answers
	// with full access for the user (Gitea 1.22 and later).
	Scope string
	CIMD  CIMDOptions
	// Base returns the server's public root as r's client sees it:
	// scheme, host and path prefix, no trailing slash.
	Base func(r *http.Request) *url.URL
	// Logger receives a line per step of a flow: never a code, a token,
	// a secret or the client's text beyond a sanitised name.
	Logger *slog.Logger
	Now    func() time.Time // default time.Now
}

// Proxy serves the authorization server.
type Proxy struct {
	cfg       Config
	seal      *sealer
	documents *documents
	log       *slog.Logger
	now       func() time.Time
	forgeHTTP *http.Client
	exchanges chan struct{} // token requests at the forge at once
}

// maxExchanges bounds the token requests sent to the forge at once.
const maxExchanges = 16

// New builds a Proxy; it does no I/O.
func New(c Config) (*Proxy, error) {
	switch {
	case c.Forge == nil || c.HTTPClient == nil || c.ForgeAuthorize == nil || c.Base == nil:
		return nil, errors.New("oauthproxy: Forge, HTTPClient, ForgeAuthorize and Base are required")
	case c.ClientID == "" || c.ClientSecret == "":
		return nil, errors.New("oauthproxy: the forge application's client id and secret are required")
	}
	seal, err := newSealer(c.Keys)
	if err != nil {
		return nil, err
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	// The forge's token endpoint never redirects; a redirect followed
	// with 307 or 308 would send the client secret along.
	hc := *c.HTTPClient
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Proxy{cfg: c, seal: seal, documents: newDocuments(c.CIMD, c.Now), log: c.Logger, now: c.Now,
		forgeHTTP: &hc, exchanges: make(chan struct{}, maxExchanges)}, nil
}

// Mount registers the proxy's paths on mux.
func (p *Proxy) Mount(mux *http.ServeMux) {
	mux.HandleFunc(MetadataPath, p.serveMetadata)
	mux.HandleFunc(MetadataPath+"/", p.serveMetadata)
	mux.HandleFunc(RegisterPath, p.serveRegister)
	mux.HandleFunc(AuthorizePath, p.serveAuthorize)
	mux.HandleFunc(ConsentPath, p.serveConsent)
	mux.HandleFunc(CallbackPath, p.serveCallback)
	mux.HandleFunc(TokenPath, p.serveToken)
}

// Issuer is the authorization server's identifier for r's client: the
// server's public root.
func (p *Proxy) Issuer(r *http.Request) string {
	b := p.cfg.Base(r)
	return b.Scheme + "://" + b.Host + b.Path
}

// endpoint is the public URL of one of the proxy's paths.
func (p *Proxy) endpoint(r *http.Request, path string) string { return p.Issuer(r) + path }

// resourceAllowed reports whether an RFC 8707 resource indicator names
// this server: its MCP endpoint or its root, scheme and host in any case,
// with or without a trailing slash.
func (p *Proxy) resourceAllowed(r *http.Request, resource string) bool {
	u, err := url.Parse(resource)
	if err != nil || u.Fragment != "" || u.RawQuery != "" || u.User != nil {
		return false
	}
	b := p.cfg.Base(r)
	if !strings.EqualFold(u.Scheme, b.Scheme) || !strings.EqualFold(u.Host, b.Host) {
		return false
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	return path == b.Path || path == b.Path+"/mcp"
}

// serveMetadata answers RFC 8414 authorization server metadata at the
// well-known path, with the public root's path (if any) after it.
func (p *Proxy) serveMetadata(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET, HEAD")
		return
	}
	if strings.TrimPrefix(r.URL.Path, MetadataPath) != p.cfg.Base(r).Path {
		http.NotFound(w, r)
		return
	}
	doc := map[string]any{
		"issuer":                                p.Issuer(r),
		"authorization_endpoint":                p.endpoint(r, AuthorizePath),
		"token_endpoint":                        p.endpoint(r, TokenPath),
		"registration_endpoint":                 p.endpoint(r, RegisterPath),
		"response_types_supported":              []string{"code"},
		"response_modes_supported":              []string{"query"},
		"grant_types_supported":                 []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none"},
		"client_id_metadata_document_supported": true,
	}
	if p.cfg.Scope != "" {
		doc["scopes_supported"] = strings.Fields(p.cfg.Scope)
	}
	w.Header().Set("Cache-Control", "max-age=300")
	writeJSON(w, http.StatusOK, doc)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func methodNotAllowed(w http.ResponseWriter, allow string) {
	w.Header().Set("Allow", allow)
	http.Error(w, "405 Method Not Allowed", http.StatusMethodNotAllowed)
}
