package forgejo

// Raw HTTP to the forge, for routes forgejo-sdk does not cover (issue and
// comment attachments). It is the only place in the project that builds
// forge requests by hand, so the identity (token, user agent), the origin
// rule and the size limits are decided once, here, and match the SDK client:
// same http.Client, same base URL, same token, same user agent.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
)

// maxErrorBody bounds how much of a failed response is read to find the
// forge's "message"; the rest is never looked at.
const maxErrorBody = 64 << 10

// ErrOtherOrigin refuses a URL that is not on the configured forge's
// origin: the token is only ever sent there.
var ErrOtherOrigin = errors.New("URL is not on the configured forge's origin")

// DoJSON sends an authenticated request to apiPath, a route below /api/v1
// such as "/repos/o/r/issues/3/assets", built by Path so every segment is
// escaped. body, when not nil, is sent as JSON; a 2xx answer is decoded into
// out unless out is nil or the answer has no content. A non-2xx answer is an
// *Error carrying the status and the forge's own message, never the body.
func (c *Client) DoJSON(ctx context.Context, method, apiPath string, query url.Values, body, out any) error {
	u, err := c.apiURL(apiPath, query)
	if err != nil {
		return err
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return &Error{Verb: method, Subject: apiPath, Cause: fmt.Errorf("encoding request: %w", err)}
		}
		rd = bytes.NewReader(b)
	}
	req, err := c.newRequest(ctx, method, u, rd)
	if err != nil {
		return &Error{Verb: method, Subject: apiPath, Cause: err}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	return c.decode(req, apiPath, out)
}

// FilePart is the one file of a multipart upload.
type FilePart struct {
	Field    string    // form field name, e.g. "attachment"
	Filename string    // sent in the part's Content-Disposition
	MIMEType string    // sent as the part's Content-Type; "" sends application/octet-stream
	Content  io.Reader // the file's bytes
	// Size is the number of bytes Content yields, so the request carries an
	// exact Content-Length; -1 streams it chunked.
	Size int64
}

// DoMultipart sends an authenticated multipart/form-data request whose only
// part is f, streaming f.Content without buffering it, and decodes a 2xx
// answer into out like DoJSON.
func (c *Client) DoMultipart(ctx context.Context, method, apiPath string, query url.Values, f FilePart, out any) error {
	u, err := c.apiURL(apiPath, query)
	if err != nil {
		return err
	}
	if f.MIMEType == "" {
		f.MIMEType = "application/octet-stream"
	}
	disposition := mime.FormatMediaType("form-data", map[string]string{"name": f.Field, "filename": f.Filename})
	if disposition == "" || f.Field == "" || f.Filename == "" {
		return &Error{Verb: method, Subject: apiPath, Cause: fmt.Errorf("invalid multipart field %q or filename %q", f.Field, f.Filename)}
	}
	if _, _, err := mime.ParseMediaType(f.MIMEType); err != nil {
		return &Error{Verb: method, Subject: apiPath, Cause: fmt.Errorf("invalid MIME type %q", f.MIMEType)}
	}
	// The part header and the closing boundary are small and known up
	// front; only the content between them streams.
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", disposition)
	h.Set("Content-Type", f.MIMEType)
	if _, err := mw.CreatePart(h); err != nil {
		return &Error{Verb: method, Subject: apiPath, Cause: err}
	}
	prefix := append([]byte(nil), head.Bytes()...)
	head.Reset()
	if err := mw.Close(); err != nil {
		return &Error{Verb: method, Subject: apiPath, Cause: err}
	}
	trailer := head.Bytes()
	req, err := c.newRequest(ctx, method, u, io.MultiReader(bytes.NewReader(prefix), f.Content, bytes.NewReader(trailer)))
	if err != nil {
		return &Error{Verb: method, Subject: apiPath, Cause: err}
	}
	if f.Size >= 0 {
		req.ContentLength = int64(len(prefix)) + f.Size + int64(len(trailer))
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	return c.decode(req, apiPath, out)
}

// RawOptions bound and shape a DoRaw download.
type RawOptions struct {
	// MaxBytes is the most bytes returned; a longer body (whatever its
	// Content-Length says) fails with ErrResponseTooLarge. Required.
	MaxBytes int64
	// Offset and Length ask for a window of the file: Length bytes from
	// Offset (Length 0: to the end). Either set sends a Range request.
	Offset, Length int64
	// MaxSkip bounds the bytes read and thrown away to reach Offset when the
	// server ignores Range and sends the whole file.
	MaxSkip int64
}

// RawResponse is a downloaded file or window of one.
type RawResponse struct {
	Body        []byte
	ContentType string // as served, parameters included
	Offset      int64  // where Body starts in the file
	Total       int64  // the file's full size; -1 when the server did not say
	Ranged      bool   // the server honoured the Range request (206)
}

// DoRaw downloads rawURL, absolute or relative to the forge's base URL
// (such as an attachment's browser_download_url), with the token. An
// absolute URL on another origin or outside the base path is refused
// before any request, and a redirect only within the forge's origin, base
// path and kind of route (the route guard's checkHop), so the token never
// reaches another host or route. The body is read up to opt.MaxBytes and
// no further.
func (c *Client) DoRaw(ctx context.Context, rawURL string, opt RawOptions) (*RawResponse, error) {
	u, err := c.resolve(rawURL)
	if err != nil {
		return nil, err
	}
	return c.doRaw(ctx, u, opt)
}

// DoRawAPI is DoRaw for apiPath, a route below /api/v1 built by Path or
// FilePath (its escapes kept as they are, so a file named "a%41" stays
// itself), with query.
func (c *Client) DoRawAPI(ctx context.Context, apiPath string, query url.Values, opt RawOptions) (*RawResponse, error) {
	u, err := c.apiURL(apiPath, query)
	if err != nil {
		return nil, err
	}
	return c.doRaw(ctx, u, opt)
}

func (c *Client) doRaw(ctx context.Context, u *url.URL, opt RawOptions) (*RawResponse, error) {
	if opt.MaxBytes <= 0 || opt.Offset < 0 || opt.Length < 0 {
		return nil, &Error{Verb: "download", Subject: "a file", Cause: errors.New("invalid download window")}
	}
	subject := u.Path
	if c.observe != nil {
		c.observe(http.MethodGet, "/"+strings.TrimPrefix(u.EscapedPath(), "/"), nil)
	}
	req, err := c.newRequest(streamed(ctx), http.MethodGet, u, nil)
	if err != nil {
		return nil, &Error{Verb: "download", Subject: subject, Cause: err}
	}
	ranged := opt.Offset > 0 || opt.Length > 0
	if ranged {
		spec := fmt.Sprintf("bytes=%d-", opt.Offset)
		if opt.Length > 0 {
			spec += strconv.FormatInt(opt.Offset+opt.Length-1, 10)
		}
		req.Header.Set("Range", spec)
	}
	resp, err := c.send(req, "download", subject)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := &RawResponse{ContentType: resp.Header.Get("Content-Type"), Offset: opt.Offset, Total: -1}
	limit := opt.MaxBytes
	switch {
	case resp.StatusCode == http.StatusPartialContent:
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != opt.Offset {
			return nil, &Error{Verb: "download", Subject: subject, Cause: errors.New("the server answered a different byte range than asked for")}
		}
		out.Total, out.Ranged = total, true
	case ranged:
		// The whole file came back: skip to the window, bounded.
		out.Total = resp.ContentLength
		if opt.Offset > opt.MaxSkip {
			return nil, &Error{Verb: "download", Subject: subject,
				Cause: fmt.Errorf("the server does not support byte ranges and offset %d is past the %d bytes this client skips", opt.Offset, opt.MaxSkip)}
		}
		if n, err := io.CopyN(io.Discard, resp.Body, opt.Offset); err != nil {
			if errors.Is(err, io.EOF) {
				out.Total = n
				return out, nil // the window starts at or past the end
			}
			return nil, &Error{Verb: "download", Subject: subject, Cause: err}
		}
		if opt.Length > 0 {
			// Only the window is wanted; the rest of the file is left unread.
			body, err := readCapped(io.LimitReader(resp.Body, opt.Length), limit, resp.ContentLength)
			if err != nil {
				return nil, &Error{Verb: "download", Subject: subject, Cause: err}
			}
			out.Body = body
			return out, nil
		}
	default:
		out.Total = resp.ContentLength
	}
	body, err := readCapped(resp.Body, limit, resp.ContentLength)
	if err != nil {
		return nil, &Error{Verb: "download", Subject: subject, Cause: err}
	}
	out.Body = body
	if !ranged && out.Total < 0 {
		out.Total = int64(len(body))
	}
	return out, nil
}

// Relabel returns err with the failed operation described as verb and
// subject (for example "list attachments of", "issue o/r#3") when it is an
// *Error, so raw calls read like the SDK-backed tools' errors.
func Relabel(err error, verb, subject string) error {
	var fe *Error
	if !errors.As(err, &fe) {
		return err
	}
	cp := *fe
	cp.Verb, cp.Subject = verb, subject
	return &cp
}

// AdminOnly marks err as the failure of a site administration route, so
// that a 403 names the site administrator right (Error.Admin).
func AdminOnly(err error) error {
	var fe *Error
	if !errors.As(err, &fe) {
		return err
	}
	cp := *fe
	cp.Admin = true
	return &cp
}

// StatusOf returns the HTTP status of a forge failure, 0 when none arrived.
// It tells a rejected token (401) from a missing scope or right (403).
func StatusOf(err error) int {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Status
	}
	return 0
}

// apiURL builds the URL of apiPath below the base URL's /api/v1. apiPath
// is escaped, as Path returns it; a path that could leave the API (dot
// segments, even escaped) or smuggle a query is refused.
func (c *Client) apiURL(apiPath string, query url.Values) (*url.URL, error) {
	invalid := &Error{Verb: "request", Subject: apiPath, Cause: errors.New("invalid API path; build it with forgejo.Path")}
	if !strings.HasPrefix(apiPath, "/") || strings.ContainsAny(apiPath, "?#\\") {
		return nil, invalid
	}
	unescaped, err := url.PathUnescape(apiPath)
	if err != nil {
		return nil, invalid
	}
	for _, seg := range strings.Split(apiPath, "/") {
		if s, _ := url.PathUnescape(seg); s == "." || s == ".." {
			return nil, invalid
		}
	}
	u := *c.base
	u.Path = c.base.Path + "/api/v1" + unescaped
	u.RawPath = c.base.EscapedPath() + "/api/v1" + apiPath
	u.RawQuery = query.Encode()
	return &u, nil
}

// resolve turns an absolute or base-relative URL into one on the forge's
// origin, or refuses it.
func (c *Client) resolve(raw string) (*url.URL, error) {
	ref, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || raw == "" {
		return nil, &Error{Verb: "download", Subject: "a file", Cause: errors.New("invalid download URL")}
	}
	if ref.IsAbs() || ref.Host != "" {
		if ref.User != nil || !SameOrigin(ref, c.base) {
			return nil, &Error{Verb: "download", Subject: ref.Redacted(),
				Cause: fmt.Errorf("%w %s; refusing to send the token to %s", ErrOtherOrigin, c.base.Host, ref.Host)}
		}
		ref.Fragment, ref.RawFragment = "", ""
		return c.underBase(ref)
	}
	u := c.base.JoinPath(ref.Path)
	u.RawQuery = ref.RawQuery
	return c.underBase(u)
}

// underBase refuses a URL outside the forge's base path: a forge served
// under /forge shares its origin with whatever else is served there, and
// the token is for the forge alone.
func (c *Client) underBase(u *url.URL) (*url.URL, error) {
	if c.base.Path != "" && !strings.HasPrefix(u.EscapedPath(), c.base.EscapedPath()+"/") {
		return nil, &Error{Verb: "download", Subject: u.Redacted(),
			Cause: fmt.Errorf("URL is outside the forge's base path %s; refusing to send the token there", c.base.EscapedPath())}
	}
	return u, nil
}

// newRequest builds a request carrying the same identity as the SDK
// client: the token (when set) and the user agent.
func (c *Client) newRequest(ctx context.Context, method string, u *url.URL, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, err
	}
	if c.token != "" {
		req.Header.Set("Authorization", "token "+c.token)
	}
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	return req, nil
}

// send runs req on the client (whose route guard checks every hop); a non-2xx answer becomes an *Error
// with the forge's message and its body is closed.
func (c *Client) send(req *http.Request, verb, subject string) (*http.Response, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, &Error{Verb: verb, Subject: subject, Cause: err}
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		e := newError(verb, subject, resp.StatusCode, MessageFromBody(b), nil)
		e.NotJSON = !isJSON(resp.Header.Get("Content-Type"))
		if resp.StatusCode == http.StatusNotFound && isRouterNotFound(resp.Header.Get("Content-Type"), b) {
			c.noRoute(req.Context(), e, req.Method, req.URL.EscapedPath())
		}
		return nil, e
	}
	return resp, nil
}

func (c *Client) decode(req *http.Request, subject string, out any) error {
	if c.observe != nil {
		c.observe(req.Method, subject, out)
	}
	resp, err := c.send(req, req.Method, subject)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil && !errors.Is(err, io.EOF) {
		return &Error{Verb: req.Method, Subject: subject, Status: resp.StatusCode, Cause: err}
	}
	return nil
}

// readCapped reads r to its end, failing with ErrResponseTooLarge past max
// bytes. Content-Length is only a hint for the first allocation, never
// trusted beyond max.
func readCapped(r io.Reader, max, contentLength int64) ([]byte, error) {
	var buf bytes.Buffer
	if contentLength > 0 {
		buf.Grow(int(min(contentLength, max)))
	}
	n, err := buf.ReadFrom(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if n > max {
		return nil, ErrResponseTooLarge
	}
	return buf.Bytes(), nil
}

// parseContentRange reads "bytes FIRST-LAST/TOTAL" as RFC 9110 §14.4
// writes it: digits only, FIRST ≤ LAST, and LAST < TOTAL unless TOTAL is
// "*" (unknown, returned as -1). Anything else, a sign or a negative size
// included, is not a range this client asked for; the one exception is
// what Go's own file server writes for an empty file.
func parseContentRange(s string) (start, total int64, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(s), "bytes ")
	if !found {
		return 0, 0, false
	}
	span, size, found := strings.Cut(rest, "/")
	if span == "0--1" && size == "0" {
		// Go's net/http (so Forgejo and Gitea) answers a suffix range on
		// an empty file with this: no bytes, of none.
		return 0, 0, true
	}
	first, last, found2 := strings.Cut(span, "-")
	if !found || !found2 {
		return 0, 0, false
	}
	start, ok1 := parseDigits(first)
	end, ok2 := parseDigits(last)
	if !ok1 || !ok2 || end < start {
		return 0, 0, false
	}
	total = -1
	if size != "*" {
		var ok3 bool
		if total, ok3 = parseDigits(size); !ok3 || end >= total {
			return 0, 0, false
		}
	}
	return start, total, true
}

// parseDigits reads a non-empty run of ASCII digits that fits an int64.
func parseDigits(s string) (int64, bool) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
