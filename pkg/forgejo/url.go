package forgejo

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// ParseBaseURL validates the forge's base URL as given by --url or
// FORGEJO_URL. https is accepted for any host; plain http only for loopback
// hosts, so a token never crosses a network in clear text. A path prefix is
// kept (forges served under a sub-path); user info, a query or a fragment is
// refused because each would silently change where requests go or what they
// carry.
func ParseBaseURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, fmt.Errorf("forge URL is empty: set --url or FORGEJO_URL (e.g. https://codeberg.org)")
	}
	if !strings.Contains(raw, "://") {
		// "codeberg.org", "127.0.0.1:3000": url.Parse reads the host as
		// a path or a scheme.
		rest := strings.TrimLeft(raw, "/")
		host, _, _ := strings.Cut(rest, "/")
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if IsLoopbackHost(host) {
			return nil, fmt.Errorf("forge URL %q has no scheme: use http://%s (or https:// if the forge serves HTTPS there)", raw, rest)
		}
		return nil, fmt.Errorf("forge URL %q has no scheme: use https://%s", raw, rest)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("forge URL %q is not a valid URL: %v", raw, err)
	}
	if u.Opaque != "" || u.Host == "" {
		return nil, fmt.Errorf("forge URL %q has no host: give a full URL such as https://codeberg.org", raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("forge URL must not contain user info (user:password@): pass the token in FORGEJO_ACCESS_TOKEN instead")
	}
	if u.RawQuery != "" || u.ForceQuery {
		return nil, fmt.Errorf("forge URL %q must not contain a query (?...)", raw)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return nil, fmt.Errorf("forge URL %q must not contain a fragment (#...)", raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !IsLoopbackHost(u.Hostname()) {
			return nil, fmt.Errorf("forge URL %q uses http:// for a non-loopback host: use https:// so the token is not sent in clear text", raw)
		}
	default:
		return nil, fmt.Errorf("forge URL %q must start with https:// (or http:// for a loopback host)", raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	if strings.HasSuffix(u.Path, "/api/v1") {
		return nil, fmt.Errorf("forge URL %q should be the forge's root, without /api/v1", raw)
	}
	return u, nil
}

// IsLoopbackHost reports whether host (without port) names this machine:
// "localhost", or an IP address in 127.0.0.0/8 or ::1.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// SameOrigin reports whether a and b share scheme, host and port, the unit
// of trust for sending the token.
func SameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(hostPort(a), hostPort(b))
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
