package forgejo

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Routes some forges lack (Routes) are refused before they are sent, by
// the version of the connected forge: a transport gate checks every request,
// SDK or raw, so a tool cannot forget to, and a tool that wants to know
// beforehand (to take another way) asks Require.

// RouteError is a request refused because the connected forge's flavour
// and version lack its route.
type RouteError struct {
	Feature string
	// Needs says which described forges have the route and which lack it
	// (RouteDiff.Needs).
	Needs string
	// Instead is what a caller can do on this forge (RouteDiff.Instead).
	Instead string
	Forge   Forge
}

func (e *RouteError) Error() string {
	s := fmt.Sprintf("%s: this forge (%s) has no such API route, so nothing was sent; %s", e.Feature, e.Forge, e.Needs)
	if e.Instead != "" {
		s += "; " + e.Instead
	}
	return s
}

// Require returns a *RouteError when the route method+route (a swagger path
// template such as "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs") is
// declared in Routes and the connected forge's flavour and version lack
// it. When the forge cannot be identified, or its version is not known to
// lack the route, it returns nil and the call goes ahead.
func (c *Client) Require(ctx context.Context, method, route string) error {
	d, ok := RouteFor(method, route)
	if !ok {
		return nil
	}
	return c.lacking(ctx, d)
}

func (c *Client) lacking(ctx context.Context, d RouteDiff) error {
	f, err := c.Forge(ctx)
	if err != nil || !d.LackedBy(f) {
		return nil
	}
	return &RouteError{Feature: d.Feature, Needs: d.Needs(), Instead: d.Instead, Forge: f}
}

// routeGate refuses a request to a declared route (RouteOf) that the
// connected forge lacks, before it leaves: the forge would answer its
// router's bare 404.
type routeGate struct {
	next   http.RoundTripper
	client *Client
}

func (g routeGate) RoundTrip(req *http.Request) (*http.Response, error) {
	if p, ok := strings.CutPrefix(req.URL.EscapedPath(), g.client.apiRoot()); ok {
		if d, ok := RouteOf(req.Method, p); ok {
			if err := g.client.lacking(req.Context(), d); err != nil {
				if req.Body != nil {
					req.Body.Close()
				}
				return nil, err
			}
		}
	}
	return g.next.RoundTrip(req)
}

// withRouteGate returns a copy of hc whose transport is gated for c.
func withRouteGate(hc *http.Client, c *Client) *http.Client {
	cp := *hc
	next := cp.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cp.Transport = routeGate{next: next, client: c}
	return &cp
}

// apiRoot is the escaped path of the forge's API: the base URL's path
// (a forge may be served under /forge) and /api/v1.
func (c *Client) apiRoot() string {
	if c.base == nil {
		return "/api/v1"
	}
	return strings.TrimSuffix(c.base.EscapedPath(), "/") + "/api/v1"
}

// routerNotFound is the body a forge's router (Go's http.NotFound, chi's
// default) answers for a path no route has, as text/plain; a missing
// object is a JSON 404 from the route's handler.
const routerNotFound = "404 page not found"

// isRouterNotFound reports whether a 404's content type and body are the
// router's: the route does not exist on this forge.
func isRouterNotFound(contentType string, body []byte) bool {
	return strings.HasPrefix(strings.TrimSpace(contentType), "text/plain") &&
		strings.TrimSpace(string(body)) == routerNotFound
}

// noRoute fills in a router 404: the forge's flavour and version (one
// cached probe) and, when the route is declared, which forges have it.
func (c *Client) noRoute(ctx context.Context, e *Error, method, escapedPath string) {
	apiPath := strings.TrimPrefix(escapedPath, c.apiRoot())
	e.NoRoute, e.Message = true, ""
	if f, err := c.Forge(ctx); err == nil {
		e.Forge = f
	}
	if d, ok := RouteOf(method, apiPath); ok {
		e.Needs = d.Needs()
		if d.Instead != "" {
			e.Needs += "; " + d.Instead
		}
	}
}
