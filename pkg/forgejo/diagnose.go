package forgejo

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A forge URL that is not a forge's API root fails in ways that blame the
// wrong thing: a repository page or another web server answers 404 to
// every API route ("the token's user not found"), https:// on a plain
// HTTP port and http:// on an HTTPS port give raw transport errors. On
// such a failure DiagnoseURL asks the URL what it is, without the token,
// and says what is wrong with it and what to set instead (issue 28, B.3).

// URLError is a call that failed because the configured forge URL does
// not point at a forge's root.
type URLError struct {
	URL     string // the configured URL
	Problem string // what is wrong with it
	Fix     string // what to set instead
}

func (e *URLError) Error() string {
	return fmt.Sprintf("the forge URL %s %s; %s (FORGEJO_URL, --url or the profile's URL)", e.URL, e.Problem, e.Fix)
}

// diagnoseTimeout bounds each look at the URL.
const diagnoseTimeout = 5 * time.Second

// maxRootProbes bounds the shorter paths tried when looking for the root
// under the configured one.
const maxRootProbes = 4

// DiagnoseURL returns a *URLError in place of err when err is what a wrong
// forge URL causes (a 404, 400 or 405 that is not the API's JSON, an
// unreadable reply, a TLS mismatch)
// and the URL's /api/v1/version does not answer as a forge; otherwise it
// returns err as it is. It sends no token.
func (c *Client) DiagnoseURL(ctx context.Context, err error) error {
	if c == nil || c.base == nil || !urlSuspect(err) {
		return err
	}
	base := c.BaseURL()
	got := c.probeVersion(ctx, base)
	switch got.kind {
	case probeForge, probeUnreachable:
		return err
	case probePlainHTTP:
		fix := "use the address the forge serves HTTPS on"
		if IsLoopbackHost(base.Hostname()) {
			alt := *base
			alt.Scheme = "http"
			fix = fmt.Sprintf("use %s, or the address the forge serves HTTPS on", alt.String())
		}
		return &URLError{URL: base.String(), Problem: "is wrong: the server there speaks plain HTTP, not HTTPS", Fix: fix}
	case probeWantsTLS:
		alt := *base
		alt.Scheme = "https"
		return &URLError{URL: base.String(), Problem: "is wrong: the server there speaks HTTPS, not plain HTTP", Fix: "use " + alt.String()}
	}
	problem := fmt.Sprintf("is not a Forgejo or Gitea root: its /api/v1/version answered %s, where a forge answers its version", got.what)
	if root, f, ok := c.findRoot(ctx, base); ok {
		return &URLError{URL: base.String(), Problem: problem, Fix: fmt.Sprintf("%s answers as %s: set it", root, f)}
	}
	return &URLError{URL: base.String(), Problem: problem,
		Fix: "set the forge's root URL, the address of its home page (such as https://codeberg.org), without a repository or other page's path"}
}

// urlSuspect reports whether err is a failure a wrong forge URL causes.
func urlSuspect(err error) bool {
	var fe *Error
	if !errors.As(err, &fe) {
		return false
	}
	switch fe.Status {
	case http.StatusNotFound, http.StatusBadRequest, http.StatusMethodNotAllowed:
		// The forge API answers these in JSON; a web page or a router's
		// text is what a URL that is not its root gets.
		return fe.NotJSON || fe.NoRoute
	case 0, http.StatusOK:
		return fe.Cause != nil && (tlsMismatch(fe.Cause) || undecodable(fe.Cause))
	}
	return false
}

// tlsMismatch reports whether err is a TLS handshake that met plain HTTP.
func tlsMismatch(err error) bool {
	var rh tls.RecordHeaderError
	return errors.As(err, &rh) || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// undecodable reports whether err is a reply that was not the JSON asked
// for: a web page where an API answer was expected.
func undecodable(err error) bool {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.As(err, &syn) || errors.As(err, &typ)
}

type probeKind int

const (
	probeForge       probeKind = iota // answers a version: a forge's root
	probeNotForge                     // answers, but not as a forge
	probePlainHTTP                    // https:// to a plain HTTP server
	probeWantsTLS                     // http:// to an HTTPS server
	probeUnreachable                  // no answer: says nothing about the URL
)

type probeResult struct {
	kind  probeKind
	what  string // how it answered: "404 (text/html)"
	forge Forge
}

// probeVersion asks base's /api/v1/version, without the token and
// without following redirects, what base is.
func (c *Client) probeVersion(ctx context.Context, base *url.URL) probeResult {
	ctx, cancel := context.WithTimeout(ctx, diagnoseTimeout)
	defer cancel()
	u := base.JoinPath("api", "v1", "version")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return probeResult{kind: probeUnreachable}
	}
	req.Header.Set("User-Agent", c.userAgent)
	hc := &http.Client{Transport: c.bareTransport(), Timeout: diagnoseTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Do(req)
	if err != nil {
		if tlsMismatch(err) {
			return probeResult{kind: probePlainHTTP}
		}
		return probeResult{kind: probeUnreachable}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode == http.StatusBadRequest && strings.Contains(string(body), "HTTP request to an HTTPS server") {
		return probeResult{kind: probeWantsTLS}
	}
	var v struct {
		Version string `json:"version"`
	}
	if resp.StatusCode == http.StatusOK && json.Unmarshal(body, &v) == nil && strings.TrimSpace(v.Version) != "" {
		return probeResult{kind: probeForge, forge: ParseForge(v.Version)}
	}
	if ct == "application/json" && resp.StatusCode/100 == 4 {
		// An API's own refusal, not a web page: too little to say the
		// URL is wrong (a forge with the version route switched off
		// behind a proxy, a stand-in).
		return probeResult{kind: probeUnreachable}
	}
	what := fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	if ct != "" {
		what += " (" + Sanitize(ct, 40) + ")"
	}
	return probeResult{kind: probeNotForge, what: what}
}

// findRoot looks for a forge at the shorter paths of base, the longest
// first (a repository page's URL holds the forge's root, which may itself
// have a path): the first that answers its version.
func (c *Client) findRoot(ctx context.Context, base *url.URL) (string, Forge, bool) {
	segs := strings.Split(strings.Trim(base.Path, "/"), "/")
	if base.Path == "" {
		return "", Forge{}, false
	}
	for n, tries := len(segs)-1, 0; n >= 0 && tries < maxRootProbes; n, tries = n-1, tries+1 {
		root := *base
		root.Path, root.RawPath = "", ""
		if n > 0 {
			root.Path = "/" + strings.Join(segs[:n], "/")
		}
		if got := c.probeVersion(ctx, &root); got.kind == probeForge {
			return root.String(), got.forge, true
		}
	}
	return "", Forge{}, false
}

// bareTransport is c's transport without the route guard and gate, which
// hold requests to the configured base path: the looks DiagnoseURL takes
// carry no token and may go above it, on the same origin.
func (c *Client) bareTransport() http.RoundTripper {
	t := c.http.Transport
	for {
		switch x := t.(type) {
		case routeGate:
			t = x.next
		case routeGuard:
			t = x.next
		default:
			if t == nil {
				return http.DefaultTransport
			}
			return t
		}
	}
}
