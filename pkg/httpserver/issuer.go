package httpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The OAuth issuer the protected resource metadata names must be the
// forge's issuer exactly as its OpenID discovery document spells it: a
// strict client compares the two byte for byte (RFC 8414 §3.3), and forges
// differ by a trailing slash (Gitea 1.26 trims it from ROOT_URL, Forgejo 10
// sends ROOT_URL with it). So unless the operator names the issuer, the
// server asks the forge once, on the first metadata request, and falls
// back to its URL without a trailing slash while the forge does not answer.

// issuerRetry is how long a failed discovery is not retried: the fallback
// is served meanwhile, and a forge that is down is not asked on every
// metadata request.
const issuerRetry = time.Minute

// issuerDiscoveryLimit bounds the discovery document read (a forge's is
// about 2 KiB).
const issuerDiscoveryLimit = 64 << 10

// issuer resolves the issuer the metadata names.
type issuer struct {
	fixed string // Options.Issuer, as the operator spelled it
	forge *url.URL
	hc    *http.Client

	mu    sync.Mutex
	found string    // the forge's spelling, once discovered
	authz string    // the forge's authorization endpoint, once discovered
	retry time.Time // no discovery before this, after a failure
}

func newIssuer(fixed string, forge *url.URL, hc *http.Client) *issuer {
	return &issuer{fixed: fixed, forge: forge, hc: hc}
}

// fallback is the forge's URL without a trailing slash.
func (i *issuer) fallback() string { return strings.TrimSuffix(i.forge.String(), "/") }

// get returns the issuer to name.
func (i *issuer) get(ctx context.Context) string {
	if i.fixed != "" {
		return i.fixed
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.found != "" {
		return i.found
	}
	i.refresh(ctx)
	if i.found != "" {
		return i.found
	}
	return i.fallback()
}

// authorizeEndpoint returns the forge's authorization endpoint as users'
// browsers reach it, for the OAuth proxy: as the discovery document names
// it, else under the operator's issuer, else under the forge's URL.
func (i *issuer) authorizeEndpoint(ctx context.Context) string {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.authz == "" {
		i.refresh(ctx)
	}
	switch {
	case i.authz != "":
		return i.authz
	case i.fixed != "":
		return strings.TrimSuffix(i.fixed, "/") + "/login/oauth/authorize"
	}
	return i.forge.JoinPath("login", "oauth", "authorize").String()
}

// refresh reads the discovery document unless a failure is recent; the
// caller holds i.mu.
func (i *issuer) refresh(ctx context.Context) {
	if time.Now().Before(i.retry) {
		return
	}
	doc, ok := i.discover(ctx)
	if !ok {
		i.retry = time.Now().Add(issuerRetry)
		return
	}
	if u, err := url.Parse(doc.AuthorizationEndpoint); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		i.authz = doc.AuthorizationEndpoint
	}
	// The issuer is taken when it names this forge (the same URL but
	// for a trailing slash).
	if strings.TrimSuffix(doc.Issuer, "/") == i.fallback() {
		i.found = doc.Issuer
	} else {
		i.retry = time.Now().Add(issuerRetry)
	}
}

// discoveryDoc is what is read of the forge's OpenID discovery document.
type discoveryDoc struct {
	Issuer                string `json:"issuer"`
	AuthorizationEndpoint string `json:"authorization_endpoint"`
}

// discover reads the forge's OpenID discovery document; an error of any
// kind is not taken.
func (i *issuer) discover(ctx context.Context) (discoveryDoc, bool) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var doc discoveryDoc
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, i.forge.JoinPath(".well-known", "openid-configuration").String(), nil)
	if err != nil {
		return doc, false
	}
	req.Header.Set("Accept", "application/json")
	resp, err := i.hc.Do(req)
	if err != nil {
		return doc, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return doc, false
	}
	if json.NewDecoder(io.LimitReader(resp.Body, issuerDiscoveryLimit)).Decode(&doc) != nil {
		return doc, false
	}
	return doc, true
}
