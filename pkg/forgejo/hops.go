package forgejo

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Every request a Client sends, and every redirect hop of one, passes the
// route guard's hop check before anything (the token included) leaves:
// it must be on the forge's origin, under its base path, and a redirect
// must stay on the kind of route the first request asked for: from the
// API only into the API, from an attachment download only to another of
// the forge's attachment download routes. Before, a same-origin redirect
// was followed anywhere: an attachment whose download answered
// `303 /api/v1/admin/users` (Forgejo's external release assets do exactly
// that with a URL a repository writer chooses) came back as the file,
// fetched with the caller's token, also outside a path-prefixed --url.

// HopError is a request or redirect refused before it was sent because it
// leaves the forge's origin, its base path or the kind of route the first
// request was for. Its text says where it would have gone, never with a
// query (a signed URL's secret).
type HopError struct {
	To     string // where the request would have gone: host, or path
	Reason string
}

func (e *HopError) Error() string { return e.Reason }

// routeKind is what kind of forge route a URL is, for redirects.
type routeKind int

const (
	kindOther    routeKind = iota
	kindAPI                // {base}/api/v1/…
	kindDownload           // one of the forge's attachment download routes
)

// kindOf classifies u, which is on base's origin and under its path.
func kindOf(base, u *url.URL) routeKind {
	rest, ok := strings.CutPrefix(u.EscapedPath(), base.EscapedPath()+"/")
	switch {
	case !ok:
		return kindOther
	case strings.HasPrefix(rest, "api/v1/"):
		return kindAPI
	case isDownloadRoute(rest):
		return kindDownload
	}
	return kindOther
}

// checkHop refuses req when it leaves base's origin or path, or when it is
// a redirect hop (req.Response is set) of a kind other than the first
// request's. The first request of a chain is found through req.Response,
// which net/http sets on every request it makes to follow a redirect.
func checkHop(base *url.URL, req *http.Request) error {
	u := req.URL
	redirect := req.Response != nil
	what := "a request"
	if redirect {
		what = "a redirect"
	}
	if !SameOrigin(u, base) {
		return &HopError{To: u.Host, Reason: fmt.Sprintf("refused %s to another origin (%s): the token is only sent to %s", what, Clip(u.Host), base.Host)}
	}
	if base.Path != "" && !strings.HasPrefix(u.EscapedPath(), base.EscapedPath()+"/") {
		return &HopError{To: u.EscapedPath(), Reason: fmt.Sprintf("refused %s to %s, outside the forge's base path %s: the token is only sent below it",
			what, Clip(u.EscapedPath()), base.EscapedPath())}
	}
	if !redirect {
		return nil
	}
	first := req
	for first.Response != nil && first.Response.Request != nil {
		first = first.Response.Request
	}
	from, to := kindOf(base, first.URL), kindOf(base, u)
	if from == kindOther || to != from {
		return &HopError{To: u.EscapedPath(), Reason: fmt.Sprintf("refused a redirect from %s to %s: a redirect is followed, "+
			"with the token, only from an API route to another API route or from an attachment download route to another; "+
			"nothing was fetched", Clip(first.URL.EscapedPath()), Clip(u.EscapedPath()))}
	}
	return nil
}

// checkRedirect is the CheckRedirect of NewHTTPClient: the hop check for
// clients that are used without a Client's route guard, and a bound on
// the number of hops.
func checkRedirect(base *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return fmt.Errorf("stopped after %d redirects", len(via))
		}
		if base == nil {
			return nil
		}
		return checkHop(base, req)
	}
}
