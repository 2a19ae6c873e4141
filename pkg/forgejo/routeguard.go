package forgejo

import (
	"net/http"
	"net/url"
	"strings"
)

// routeGuard refuses, before anything is sent, a request whose path would
// be read differently by a reverse proxy, or a chain of them, that decodes
// and normalises paths (nginx with `proxy_pass http://forge/;` or
// `proxy_pass http://next$uri;`, Apache, most cloud proxies): a segment
// that, decoded any number of times, holds '/' or '\', '?', '#' or a
// control character, or is "." or "..". forgejo-sdk builds its
// own routes with url.PathEscape, so "../../victim" as a branch protection
// name leaves as "..%2F..%2Fvictim", which such a proxy turns into a request
// for another repository. The guard sits in the transport so SDK and raw
// routes are held to the same rule, whatever built them.
//
// With a base URL it also holds every request, each redirect hop included,
// to the forge's origin and base path, and a redirect to the kind of route
// the first request was for (checkHop), so the token never reaches a hop
// outside them.
type routeGuard struct {
	next http.RoundTripper
	base *url.URL // nil: routes only
}

func (g routeGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	err := CheckRoute(req.URL)
	if err == nil && g.base != nil {
		err = checkHop(g.base, req)
	}
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	sending(req.Context())
	return g.next.RoundTrip(req)
}

// CheckRoute returns a *PathError naming the offending value when a proxy
// that decodes and normalises paths could send u somewhere other than the
// route it spells, and nil otherwise.
func CheckRoute(u *url.URL) error {
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if reason := routeSegmentProblem(seg); reason != "" {
			value, err := url.PathUnescape(seg)
			if err != nil {
				value = seg
			}
			return &PathError{Value: Clip(value), Reason: reason + "; nothing was sent"}
		}
	}
	return nil
}

// routeSegmentProblem says why the escaped path segment seg is unsafe to
// send through proxies that decode and normalise paths, or "": it is a raw
// dot segment, or the value it carries (seg decoded once) or any further
// decoding of it fails climbProblem, exactly what Path refuses in a value.
// A value with a literal "%2F" (sent as %252F) is refused too: behind two
// decoding proxies it is a separator.
func routeSegmentProblem(seg string) string {
	if seg == "." || seg == ".." {
		return stageProblem(seg)
	}
	d, err := url.PathUnescape(seg)
	if err != nil {
		d = seg
	}
	return climbProblem(d)
}

// withRouteGuard returns a copy of hc whose transport refuses requests that
// CheckRoute refuses, and those that leave base (checkHop).
func withRouteGuard(hc *http.Client, base *url.URL) *http.Client {
	if hc == nil {
		hc = &http.Client{}
	}
	next := hc.Transport
	if g, ok := next.(routeGuard); ok {
		next = g.next
	}
	if next == nil {
		next = http.DefaultTransport
	}
	cp := *hc
	cp.Transport = routeGuard{next: next, base: base}
	return &cp
}
