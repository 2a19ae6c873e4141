// Package forgejo is everything that talks to the forge: HTTP client
// construction, the per-call SDK client, raw HTTP for routes the SDK lacks,
// path-segment checks and the mapping of forge failures to messages an agent
// can act on.
package forgejo

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
)

// HTTPOptions configures the one HTTP client a process shares across calls
// and identities.
type HTTPOptions struct {
	// BaseURL is the forge's validated root (see ParseBaseURL).
	BaseURL *url.URL
	// RequestTimeout bounds each forge request, body included.
	RequestTimeout time.Duration
	// MaxResponseBytes bounds any response body read through this client;
	// past it the read fails instead of buffering without limit.
	MaxResponseBytes int64
	// TLS, when set, replaces the default TLS configuration (private CAs).
	TLS *tls.Config
}

// Default bounds for forge requests.
const (
	DefaultRequestTimeout   = 25 * time.Second
	DefaultMaxResponseBytes = 32 << 20
)

// NewHTTPClient returns an http.Client with bounded dial, TLS, header and
// total times, its own transport (http.DefaultTransport is never touched),
// response bodies capped, and redirects followed at most 5 times and only
// within the forge's origin, base path and kind of route (checkHop), so
// the token is never forwarded to another host or route.
func NewHTTPClient(o HTTPOptions) *http.Client {
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = DefaultMaxResponseBytes
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       o.TLS,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: o.RequestTimeout,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   64,
		ForceAttemptHTTP2:     true,
	}
	base := o.BaseURL
	return &http.Client{
		Transport:     &limitTransport{next: tr, max: o.MaxResponseBytes},
		Timeout:       o.RequestTimeout,
		CheckRedirect: checkRedirect(base),
	}
}

// ErrResponseTooLarge reports a forge response past the configured bound.
var ErrResponseTooLarge = errors.New("forge response exceeds the size limit")

// limitTransport caps every response body, whatever Content-Length
// claims: an answer decoded whole by what decoding it costs (decodeCost),
// one read as it arrives (streamed) by its bytes, and the body of a
// failure, of which only the forge's message is read, by maxErrorBody.
type limitTransport struct {
	next http.RoundTripper
	max  int64
}

func (t *limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	b := &limitedBody{rc: resp.Body, left: t.max}
	if resp.StatusCode/100 != 2 {
		b.left = min(b.left, maxErrorBody)
	}
	if decodedWhole(req.Context()) {
		b.cost = newDecodeCost(t.max)
	}
	resp.Body = b
	return resp, nil
}

type limitedBody struct {
	rc   io.ReadCloser
	left int64
	cost *decodeCost // nil for an answer read as it arrives
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// Probe one byte so a body of exactly the limit still ends cleanly.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, ErrResponseTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.cost != nil {
		if cerr := b.cost.feed(p[:n]); cerr != nil {
			return 0, cerr
		}
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// Client is one identity on one forge: a base URL, a token and the shared
// HTTP client. It is cheap to create and safe for concurrent use.
type Client struct {
	base      *url.URL
	token     string
	userAgent string
	http      *http.Client
	maxUpload int64
	forge     *forgeCache // the detected flavour and version, shared by copies
	observe   DecodeObserver
}

// DefaultMaxUploadBytes is the largest upload the server accepts unless
// configured otherwise; checked before anything is sent to the forge.
const DefaultMaxUploadBytes = 10 << 20

// NewClient returns a Client for token on the forge at base. No request is
// made: the SDK's version probe is skipped on purpose (one round trip per
// client saved, and no failure at start-up when the forge is briefly down).
// Every request it sends, SDK or raw, and every redirect hop of one passes
// the route guard (CheckRoute and checkHop) and the route gate (routes the
// forge's version lacks, Routes).
func NewClient(httpClient *http.Client, base *url.URL, token, userAgent string) *Client {
	c := &Client{base: base, token: token, userAgent: userAgent, maxUpload: DefaultMaxUploadBytes, forge: &forgeCache{}}
	c.http = withRouteGate(withRouteGuard(httpClient, base), c)
	return c
}

// WithMaxUpload returns a copy of c whose uploads are limited to n bytes.
func (c *Client) WithMaxUpload(n int64) *Client {
	cp := *c
	cp.maxUpload = n
	return &cp
}

// MaxUploadBytes is the largest file this client will upload.
func (c *Client) MaxUploadBytes() int64 { return c.maxUpload }

// BaseURL returns a copy of the forge's root URL.
func (c *Client) BaseURL() *url.URL {
	u := *c.base
	return &u
}

// SDK returns a forgejo-sdk client bound to ctx, so cancellation and
// deadlines reach the HTTP request. The SDK keeps the context on the client
// rather than per call, so each call gets its own light client; creating one
// does no I/O.
func (c *Client) SDK(ctx context.Context) *sdk.Client {
	opts := []sdk.ClientOption{
		sdk.SetHTTPClient(c.http),
		sdk.SetForgejoVersion(""),
		sdk.SetContext(ctx),
		sdk.SetUserAgent(c.userAgent),
	}
	if c.token != "" {
		opts = append(opts, sdk.SetToken(c.token))
	}
	cl, err := sdk.NewClient(c.base.String(), opts...)
	if err != nil {
		// Unreachable with these options: none of them fails and the
		// version probe is disabled.
		panic(fmt.Sprintf("forgejo: building SDK client: %v", err))
	}
	return cl
}

// Redact replaces every occurrence of the token in s. It is the last line of
// defence before text leaves the process.
func (c *Client) Redact(s string) string {
	if c == nil || len(c.token) < 4 {
		return s
	}
	return strings.ReplaceAll(s, c.token, "[REDACTED]")
}
