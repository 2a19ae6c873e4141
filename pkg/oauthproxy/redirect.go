package oauthproxy

import (
	"errors"
	"net/url"
	"strings"
)

// Redirect URIs are where the proxy sends a user's browser with an
// authorization code, so they are checked when a client registers them
// (or its metadata document lists them) and matched exactly when an
// authorization request names one: the only freedom is the port of a
// loopback URI (RFC 8252 section 7.3), since a native client listens on
// whatever port it gets.

// maxRedirectURI bounds one redirect URI: each travels inside the sealed
// client id and state, which the browser carries in URLs.
const maxRedirectURI = 512

// maxRedirectURIs bounds how many one client registers.
const maxRedirectURIs = 8

// unsafeScheme reports schemes a redirect must never use: they run code
// in the browser, read local files or are not a redirect target at all.
func unsafeScheme(s string) bool {
	switch s {
	case "javascript", "data", "vbscript", "file", "blob", "about", "filesystem", "view-source",
		"ftp", "ws", "wss", "mailto", "tel", "sms", "intent", "chrome", "chrome-extension", "jar":
		return true
	}
	return false
}

// checkRedirectURI says why raw cannot be registered as a redirect URI, or
// returns nil. Accepted: https URLs; http only on a loopback host
// (127.0.0.1, [::1], localhost), for native clients; and private-use
// schemes of native apps (RFC 8252 section 7.1, e.g. cursor://…). The
// message never quotes raw: it is the client's text.
func checkRedirectURI(raw string) error {
	if raw == "" {
		return errors.New("is empty")
	}
	if len(raw) > maxRedirectURI {
		return errors.New("is longer than 512 bytes")
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] <= ' ' || raw[i] >= 0x7f {
			return errors.New("holds a space, a control character or a non-ASCII byte (percent-encode it)")
		}
	}
	if strings.Contains(raw, "#") {
		return errors.New("has a fragment (#…), which a redirect URI must not have")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return errors.New("is not an absolute URI")
	}
	if scheme, _, _ := strings.Cut(raw, ":"); scheme != u.Scheme { // url.Parse lowers it
		return errors.New("must spell its scheme in lower case")
	}
	if u.User != nil {
		return errors.New("has user information (user@host), which a redirect URI must not have")
	}
	switch {
	case u.Scheme == "https":
		if u.Host == "" || u.Hostname() == "" {
			return errors.New("has no host")
		}
	case u.Scheme == "http":
		if !loopbackHost(u.Hostname()) {
			return errors.New("uses http on a host other than 127.0.0.1, [::1] or localhost; use https")
		}
	case unsafeScheme(u.Scheme):
		return errors.New("uses a scheme a redirect must not use")
	case u.Opaque != "" && !strings.Contains(u.Scheme, "."):
		// "myapp:callback" is more likely a mistake than a native app's
		// redirect, which has a path (myapp:/cb, myapp://cb).
		return errors.New("is not a URL a native app can receive (expected scheme:/path or scheme://host/path)")
	}
	return nil
}

// loopbackHost reports whether host (without port or brackets) names the
// loopback interface as RFC 8252 section 7.3 redirects do.
func loopbackHost(host string) bool {
	return host == "127.0.0.1" || host == "::1" || strings.EqualFold(host, "localhost")
}

// redirectMatches reports whether requested, from an authorization
// request, is the registered redirect URI: the same string, or for a
// loopback http URI the same but for the port, which may differ, be added
// or be left out.
func redirectMatches(registered, requested string) bool {
	if registered == requested {
		return true
	}
	reg, err := url.Parse(registered)
	if err != nil || reg.Scheme != "http" || !loopbackHost(reg.Hostname()) {
		return false
	}
	if checkRedirectURI(requested) != nil {
		return false
	}
	req, err := url.Parse(requested)
	if err != nil || req.Scheme != "http" {
		return false
	}
	return req.Hostname() == reg.Hostname() &&
		req.EscapedPath() == reg.EscapedPath() &&
		req.RawQuery == reg.RawQuery && req.ForceQuery == reg.ForceQuery &&
		validPort(req.Port())
}

// validPort accepts "" (the scheme's default) or 1 to 65535.
func validPort(p string) bool {
	if p == "" {
		return true
	}
	if len(p) > 5 || p[0] == '0' {
		return false
	}
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n >= 1 && n <= 65535
}

// withParams returns redirect with params added to its query, keeping the
// query it already has byte for byte (RFC 6749 section 3.1.2).
func withParams(redirect string, params url.Values) string {
	sep := "?"
	if strings.Contains(redirect, "?") {
		sep = "&"
		if strings.HasSuffix(redirect, "?") || strings.HasSuffix(redirect, "&") {
			sep = ""
		}
	}
	return redirect + sep + params.Encode()
}
