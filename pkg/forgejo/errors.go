package forgejo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"unicode"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
)

// Error is a failed forge operation, phrased for an agent: what was tried,
// on what, and what to do about it. It never carries a response body, only
// the forge's own short "message" field when it sent one.
type Error struct {
	Verb    string // "get", "create", …
	Subject string // "issue forgeadmin/demo#3"
	Status  int    // HTTP status, 0 when no response arrived
	Message string // the forge's message, sanitised and shortened
	Cause   error  // transport or decoding failure, when Status is 0 or 2xx
	// NoToken is set (by Client.Explain) when the call went without a
	// token: a 401, 403 or 404 then says so instead of blaming a token.
	NoToken bool
	// NoRoute is set on a 404 from the forge's router rather than from a
	// route's handler: the forge's API has no such route, so nothing was
	// looked up. Forge and Needs say which forge that is and, when the
	// route is declared in Routes, which described forges have it and
	// which lack it (and what to do instead, RouteDiff.Instead).
	NoRoute bool
	Forge   Forge
	Needs   string
	// NotJSON is set on a failure whose reply was not JSON: a web page
	// or a proxy's answer, never the forge API's own (DiagnoseURL).
	NotJSON bool
	// Admin is set (by AdminOnly) on the failure of a site
	// administration route: a 403 then says that the token's user must
	// be a site administrator, not that some repository right is missing.
	Admin bool
}

// noTokenHint tells how to configure a token, on every transport.
const noTokenHint = "set FORGEJO_ACCESS_TOKEN or --token-file (over HTTP, send an Authorization header)"

// Error implements error.
func (e *Error) Error() string {
	op := e.Verb + " " + e.Subject
	msg := ""
	if e.Message != "" {
		msg = ": " + e.Message
	}
	switch {
	case e.NoRoute:
		return e.noRouteText(op)
	case e.NoToken && e.Status == http.StatusNotFound:
		return fmt.Sprintf("%s not found (404): no access token is set, so only public data is visible; if it exists and is private, %s", e.Subject, noTokenHint)
	case e.NoToken && (e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden):
		return fmt.Sprintf("%s: no access token is set, and the forge needs one for this (%d %s); %s", op, e.Status, http.StatusText(e.Status), noTokenHint)
	case e.Status == http.StatusNotFound:
		return fmt.Sprintf("%s not found (404): it does not exist or this token cannot see it%s", e.Subject, msg)
	case e.Status == http.StatusUnauthorized:
		return fmt.Sprintf("%s: the forge rejected the token (401 Unauthorized); check that the access token (FORGEJO_ACCESS_TOKEN, --token-file, or the Authorization header over HTTP) is valid and not expired", op)
	case e.Status == http.StatusForbidden && e.Admin && !strings.Contains(e.Message, "scope"):
		return fmt.Sprintf("%s: permission denied (403)%s; only a site administrator may do this: the token's user is not one (use a site administrator's token)", op, msg)
	case e.Status == http.StatusForbidden && e.Admin:
		return fmt.Sprintf("%s: permission denied (403)%s; site administration needs a token with the read:admin (reads) or write:admin (changes) scope, of a site administrator", op, msg)
	case e.Status == http.StatusForbidden:
		return fmt.Sprintf("%s: permission denied (403)%s; the token may lack a scope (such as write:issue or write:repository) or the user the rights", op, msg)
	case e.Status == http.StatusConflict:
		return fmt.Sprintf("%s: conflict (409), it may already exist%s", op, msg)
	case e.Status == http.StatusRequestEntityTooLarge:
		return fmt.Sprintf("%s: too large for the forge (413)%s", op, msg)
	case e.Status == http.StatusUnprocessableEntity:
		return fmt.Sprintf("%s: the forge rejected the input (422)%s", op, msg)
	case e.Status >= 500:
		return fmt.Sprintf("%s: the forge failed (%d %s)%s; retry later, and if it keeps failing the forge may not support this request", op, e.Status, http.StatusText(e.Status), msg)
	case e.Status >= 400:
		return fmt.Sprintf("%s: the forge refused the request (%d %s)%s", op, e.Status, http.StatusText(e.Status), msg)
	}
	return fmt.Sprintf("%s: %s", op, describeCause(e.Cause))
}

// noRouteText says that the forge lacks the route, never that the object
// is missing: nothing was looked up.
func (e *Error) noRouteText(op string) string {
	forge, needs := "this forge", ""
	if e.Forge.Flavour != "" {
		forge += " (" + e.Forge.String() + ")"
	}
	if e.Needs != "" {
		needs = "; " + e.Needs
	}
	return fmt.Sprintf("%s: %s has no such API route (its router answered 404 page not found, so nothing was looked up and this says nothing about whether it exists)%s",
		op, forge, needs)
}

// Unwrap returns the transport or decoding cause.
func (e *Error) Unwrap() error { return e.Cause }

// IsNotFound reports whether err is a forge 404 about a missing object;
// a router's 404 (a route the forge lacks) is not one, see IsNoRoute.
func IsNotFound(err error) bool {
	var fe *Error
	return errors.As(err, &fe) && fe.Status == http.StatusNotFound && !fe.NoRoute
}

// IsNoRoute reports whether err says the forge lacks the route: refused
// before sending (*RouteError) or answered by the forge's router.
func IsNoRoute(err error) bool {
	var fe *Error
	var re *RouteError
	return errors.As(err, &re) || errors.As(err, &fe) && fe.NoRoute
}

// Fail turns the (response, error) pair of an SDK call into an *Error, or
// nil when err is nil. subject names the thing operated on, such as
// "issue o/r#3", so a 404 reads "issue o/r#3 not found".
func Fail(resp *sdk.Response, err error, verb, subject string) error {
	if err == nil {
		return nil
	}
	status := 0
	if resp != nil && resp.Response != nil {
		status = resp.StatusCode
	}
	e := newError(verb, subject, status, sdkMessage(resp, err), err)
	if status >= 400 {
		e.NotJSON = !isJSON(resp.Header.Get("Content-Type"))
	}
	if status == http.StatusNotFound && strings.HasPrefix(strings.TrimSpace(resp.Header.Get("Content-Type")), "text/plain") &&
		strings.Contains(err.Error(), "'"+routerNotFound) {
		// The SDK quotes a non-JSON error body in its error text.
		e.NoRoute, e.Message = true, ""
	}
	return e
}

// isJSON reports whether a Content-Type is JSON's.
func isJSON(contentType string) bool {
	return strings.Contains(strings.ToLower(contentType), "json")
}

func newError(verb, subject string, status int, message string, cause error) *Error {
	missing := isMissingDump(message) || isMissingPhrase(message)
	message = forgeMessage(message)
	if status >= 500 && missing {
		// Gitea answers some routes on a missing issue with 500 "issue
		// does not exist", Forgejo 10 a missing workflow with 500
		// "workflow not found": it is a 404, and retrying cannot help.
		status = http.StatusNotFound
	}
	if status == http.StatusNotFound && isGenericNotFound(message) {
		message = "" // says nothing the 404 text does not
	}
	e := &Error{Verb: verb, Subject: subject, Status: status, Message: message}
	if status == 0 || status/100 == 2 {
		e.Cause = cause
	}
	return e
}

// Explain marks err, when c has no token, so that a 401, 403 or 404 says
// that no token is set rather than that the forge rejected one or that the
// thing does not exist: without a token, private data reads as missing.
//
// A router 404 an SDK call met (Fail cannot ask the forge) is given the
// forge's flavour and version when they are known.
func (c *Client) Explain(err error) error {
	var fe *Error
	if c == nil || !errors.As(err, &fe) {
		return err
	}
	if fe.NoRoute && fe.Forge.Flavour == "" {
		if f, ok := c.forge.cached(); ok {
			cp := *fe
			cp.Forge = f
			return &cp
		}
	}
	if c.token != "" {
		return err
	}
	switch fe.Status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		cp := *fe
		cp.NoToken = true
		return &cp
	}
	return err
}

// NotFoundAs returns err with subject as the missing thing when err is a
// forge 404, for a handler that has found out which of the things a route
// names is missing (a ref rather than the repository, say); other errors
// are returned unchanged.
func NotFoundAs(err error, subject string) error {
	var fe *Error
	if !errors.As(err, &fe) || fe.Status != http.StatusNotFound {
		return err
	}
	cp := *fe
	cp.Subject, cp.Message = subject, ""
	return &cp
}

// forgeMessage cleans the forge's message for an agent: sanitised and
// bounded, without the forge-internal function name Gitea sends as the
// message of many failures ("GetContentsOrList", "GetUserByName: …") and
// without the dump of internal fields after "does not exist" ("[id: 0,
// repo_id: 1, index: 9]").
func forgeMessage(msg string) string {
	msg = Sanitize(msg, 200)
	for {
		name, rest, ok := strings.Cut(msg, ":")
		if !ok || !isInternalName(name) {
			break
		}
		msg = strings.TrimSpace(rest) // "initRepository: getLicense[x]: …"
	}
	if isInternalName(msg) {
		return missingHint(msg)
	}
	if i := strings.Index(msg, "does not exist ["); i >= 0 && strings.HasSuffix(msg, "]") {
		msg = msg[:i+len("does not exist")]
	}
	return msg
}

// missingHint turns a lookup function's name, which Gitea sends alone as
// the message of a 404 (GetUserByName, GetOrgByName), into what it tells:
// "no such user". Other names tell nothing and give "".
func missingHint(name string) string {
	thing, _, ok := strings.Cut(strings.TrimPrefix(name, "Get"), "By")
	if !ok || thing == "" || !strings.HasPrefix(name, "Get") {
		return ""
	}
	var b strings.Builder
	for i, r := range thing {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return "no such " + b.String()
}

// isMissingDump reports whether msg is Gitea's dump of a "not exist"
// error, such as "issue does not exist [id: 0, repo_id: 1, index: 9]":
// whatever the status, the thing is missing.
func isMissingDump(msg string) bool {
	what, rest, ok := strings.Cut(msg, " does not exist [")
	if !ok || !strings.HasSuffix(rest, "]") || what == "" {
		return false
	}
	for _, r := range what {
		if !unicode.IsLower(r) && r != ' ' {
			return false
		}
	}
	return true
}

// isMissingPhrase reports whether msg is a bare "<what> not found" in
// lower-case words ("workflow not found"), which a forge means as a 404
// even when it answers 500.
func isMissingPhrase(msg string) bool {
	what, ok := strings.CutSuffix(msg, " not found")
	if !ok || what == "" {
		return false
	}
	for _, r := range what {
		if !unicode.IsLower(r) && r != ' ' {
			return false
		}
	}
	return true
}

// isInternalName reports whether s looks like a Go function name, one
// camelCase word (GetOrgByName, initRepository, getLicense[MIT]), which no
// message meant for people is.
func isInternalName(s string) bool {
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		s = s[:i]
	}
	upper, lower := 0, 0
	for i, r := range s {
		switch {
		case unicode.IsUpper(r):
			if i > 0 {
				upper++ // a hump: GetOrg, initRepository
			}
		case unicode.IsLower(r):
			lower++
		case unicode.IsDigit(r) && i > 0:
		default:
			return false
		}
	}
	return upper > 0 && lower > 0
}

func isGenericNotFound(msg string) bool {
	m := strings.ToLower(strings.Trim(msg, " .!"))
	return m == "not found" || m == "the target couldn't be found" || m == "404 not found"
}

// sdkMessage extracts the forge's own message from an SDK error. The SDK
// formats non-JSON error bodies as "unknown API Error: …" and JSON bodies
// without a message as "<status>: <body>"; both are raw dumps and dropped.
func sdkMessage(resp *sdk.Response, err error) string {
	if resp == nil || resp.Response == nil || resp.StatusCode/100 == 2 {
		return ""
	}
	text := err.Error()
	if strings.HasPrefix(text, "unknown API Error") || strings.HasPrefix(text, resp.Status) ||
		strings.HasPrefix(text, "body read on HTTP error") {
		return ""
	}
	return text
}

// MessageFromBody extracts the "message" field of a forge error body, the
// only part of it worth showing. Gitea may send the literal body null.
func MessageFromBody(body []byte) string {
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &m) != nil {
		return ""
	}
	return m.Message
}

func describeCause(err error) string {
	var netErr net.Error
	var pathErr *PathError
	var hopErr *HopError
	var routeErr *RouteError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var costErr *DecodeCostError
	switch {
	case err == nil:
		return "failed"
	case errors.As(err, &pathErr):
		return pathErr.Error()
	case errors.As(err, &hopErr):
		return hopErr.Error()
	case errors.As(err, &routeErr):
		return routeErr.Error()
	case errors.Is(err, context.Canceled):
		return "cancelled before the forge answered"
	case errors.Is(err, context.DeadlineExceeded):
		return "timed out waiting for the forge; narrow the request or retry"
	case errors.As(err, &costErr):
		return costErr.Error()
	case errors.Is(err, ErrResponseTooLarge):
		return "the forge's reply is larger than the response limit; narrow the request (page, limit, path)"
	case errors.As(err, &syn), errors.As(err, &typ), errors.Is(err, io.ErrUnexpectedEOF):
		return "the forge's reply could not be read (invalid or truncated JSON)"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "timed out waiting for the forge; narrow the request or retry"
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		msg := Sanitize(opErr.Err.Error(), 120)
		if !strings.HasPrefix(msg, opErr.Op) {
			msg = opErr.Op + " " + msg
		}
		return fmt.Sprintf("cannot reach the forge (%s)", msg)
	}
	return Sanitize(err.Error(), 200)
}

// Sanitize makes forge-supplied text safe to show in an error: control and
// invisible formatting characters are dropped, white space is folded and the
// text is cut to max runes.
func Sanitize(s string, max int) string {
	var b strings.Builder
	space := false
	n := 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		sep := space && b.Len() > 0
		space = false
		if n >= max || sep && n+1 >= max { // no room for the separator and a rune
			b.WriteString("…")
			break
		}
		if sep {
			b.WriteByte(' ')
			n++
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
