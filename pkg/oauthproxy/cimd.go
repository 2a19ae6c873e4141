package oauthproxy

import (
	"container/list"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Client ID metadata documents (MCP 2025-11-25 authorization, draft
// "OAuth Client ID Metadata Document"): a client_id that is an https URL
// names a JSON document describing the client, which the proxy fetches.
// The URL comes from anyone who can reach the authorization endpoint, so
// the fetch is a request forgery risk and is held tight: https only; the
// address actually dialled, after DNS, must be public (checked at dial
// time, so a name that resolves to a private address, or changes its
// answer between two lookups, is refused all the same); no proxy from the
// environment (it would dial for us); no redirect followed; at most
// DocumentMaxBytes read within DocumentTimeout; a few fetches at once.
// CIMDOptions.AllowPrivate lifts the address rule (and admits plain http
// on loopback) for documents on an internal host, and for tests.

// Bounds of a document fetch.
const (
	DocumentMaxBytes  = 5 << 10 // the draft's suggested limit
	DocumentTimeout   = 5 * time.Second
	documentFetches   = 4 // at once, per process
	documentCacheSize = 1000
	// documentTTL is how long a document is used without asking again
	// when its answer sets no max-age; documentMaxTTL caps a max-age.
	documentTTL    = 5 * time.Minute
	documentMaxTTL = 24 * time.Hour
	// documentFailTTL is how long a failed fetch is remembered, so a
	// client_id that fails is not fetched on every request.
	documentFailTTL = 10 * time.Second
	maxDocumentURL  = 512
)

// CIMDOptions configure fetching client ID metadata documents.
type CIMDOptions struct {
	// AllowPrivate admits documents on loopback, private and other
	// non-public addresses, and over plain http on loopback.
	AllowPrivate bool
	// RootCAs verifies documents' servers; nil uses the system's roots
	// (which SSL_CERT_FILE and SSL_CERT_DIR extend).
	RootCAs *x509.CertPool
}

type documents struct {
	hc           *http.Client
	allowPrivate bool
	slots        chan struct{}
	now          func() time.Time

	mu      sync.Mutex
	lru     *list.List // of *docEntry, most recent first
	entries map[string]*list.Element
}

type docEntry struct {
	url     string
	client  *client
	err     error
	expires time.Time
}

func newDocuments(o CIMDOptions, now func() time.Time) *documents {
	d := &documents{allowPrivate: o.AllowPrivate, slots: make(chan struct{}, documentFetches), now: now,
		lru: list.New(), entries: map[string]*list.Element{}}
	dialer := &net.Dialer{Timeout: DocumentTimeout, Control: d.control}
	d.hc = &http.Client{
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           dialer.DialContext,
			TLSClientConfig:       &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout:   DocumentTimeout,
			ResponseHeaderTimeout: DocumentTimeout,
			MaxIdleConns:          8,
			IdleConnTimeout:       30 * time.Second,
			ForceAttemptHTTP2:     true,
		},
		Timeout: DocumentTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return errRedirected
		},
	}
	return d
}

var (
	errRedirected = errors.New("redirected")
	errPrivate    = errors.New("private address")
)

// control refuses, at dial time, an address that is not public.
func (d *documents) control(_, address string, _ syscall.RawConn) error {
	if d.allowPrivate {
		return nil
	}
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return errPrivate
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !publicAddr(ip) {
		return errPrivate
	}
	return nil
}

// nonPublic lists ranges IsGlobalUnicast lets through that no public
// document lives on: "this network", shared address space (CGNAT), IETF
// protocol assignments, documentation, benchmarking, reserved; IPv6
// documentation and Teredo.
func nonPublic() []string {
	return []string{
		"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15",
		"198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "2001:db8::/32", "2001::/32",
	}
}

// publicAddr reports whether ip is a public unicast address. IPv4 inside
// IPv6 (mapped, NAT64, 6to4) is judged by its IPv4 address.
func publicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if ip.Is6() {
		b := ip.As16()
		switch {
		case netip.MustParsePrefix("64:ff9b::/96").Contains(ip):
			return publicAddr(netip.AddrFrom4([4]byte(b[12:16])))
		case netip.MustParsePrefix("2002::/16").Contains(ip):
			return publicAddr(netip.AddrFrom4([4]byte(b[2:6])))
		}
	}
	if !ip.IsGlobalUnicast() || ip.IsPrivate() {
		return false
	}
	for _, p := range nonPublic() {
		if netip.MustParsePrefix(p).Contains(ip) {
			return false
		}
	}
	return true
}

// checkDocumentURL says why id cannot be a metadata document's URL, or
// returns it parsed.
func (d *documents) checkDocumentURL(id string) (*url.URL, error) {
	if len(id) > maxDocumentURL {
		return nil, &clientError{"the client_id URL is longer than 512 bytes"}
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] >= 0x7f {
			return nil, &clientError{"the client_id URL holds a space, a control character or a non-ASCII byte"}
		}
	}
	u, err := url.Parse(id)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" || strings.Contains(id, "#") {
		return nil, &clientError{"the client_id is not a valid URL"}
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && d.allowPrivate && loopbackHost(u.Hostname()):
	default:
		return nil, &clientError{"a client_id URL must use https"}
	}
	if u.Path == "" || u.Path == "/" {
		return nil, &clientError{"a client_id URL must have a path (https://host/client.json)"}
	}
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if seg == "." || seg == ".." {
			return nil, &clientError{"a client_id URL must not have . or .. path segments"}
		}
	}
	return u, nil
}

// get returns the client the document at id describes, from the cache
// or fetched.
func (d *documents) get(ctx context.Context, id string) (*client, error) {
	if _, err := d.checkDocumentURL(id); err != nil {
		return nil, err
	}
	d.mu.Lock()
	if el, ok := d.entries[id]; ok {
		e := el.Value.(*docEntry)
		if d.now().Before(e.expires) {
			d.lru.MoveToFront(el)
			d.mu.Unlock()
			return e.client, e.err
		}
		d.lru.Remove(el)
		delete(d.entries, id)
	}
	d.mu.Unlock()

	select {
	case d.slots <- struct{}{}:
	default:
		return nil, &clientError{"too many client metadata documents are being fetched at once; retry in a moment"}
	}
	c, ttl, err := d.fetch(ctx, id)
	<-d.slots
	if ctx.Err() != nil {
		return nil, &clientError{"the client metadata document could not be fetched in time"}
	}
	if err != nil {
		ttl = documentFailTTL
	}
	d.store(&docEntry{url: id, client: c, err: err}, ttl)
	return c, err
}

func (d *documents) store(e *docEntry, ttl time.Duration) {
	if ttl <= 0 {
		return
	}
	e.expires = d.now().Add(ttl)
	d.mu.Lock()
	defer d.mu.Unlock()
	if el, ok := d.entries[e.url]; ok {
		d.lru.Remove(el)
	}
	d.entries[e.url] = d.lru.PushFront(e)
	for d.lru.Len() > documentCacheSize {
		old := d.lru.Back()
		d.lru.Remove(old)
		delete(d.entries, old.Value.(*docEntry).url)
	}
}

// fetch reads and checks the document at id; ttl is how long it may be
// used, from its Cache-Control.
func (d *documents) fetch(ctx context.Context, id string) (*client, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, DocumentTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return nil, 0, &clientError{"the client_id is not a valid URL"}
	}
	req.Header.Set("Accept", "application/json")
	resp, err := d.hc.Do(req)
	if err != nil {
		return nil, 0, &clientError{"the client metadata document could not be fetched: " + fetchFailure(err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, 0, &clientError{fmt.Sprintf("the client metadata document could not be fetched: its server answered %d, not 200", resp.StatusCode)}
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" && !(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
		return nil, 0, &clientError{"the client metadata document is not served as application/json"}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, DocumentMaxBytes+1))
	if err != nil {
		return nil, 0, &clientError{"the client metadata document could not be read: " + fetchFailure(err)}
	}
	if len(body) > DocumentMaxBytes {
		return nil, 0, &clientError{fmt.Sprintf("the client metadata document is larger than %d bytes", DocumentMaxBytes)}
	}
	c, err := parseDocument(body, id)
	if err != nil {
		return nil, 0, err
	}
	return c, cacheTTL(resp.Header.Get("Cache-Control")), nil
}

// fetchFailure names the kind of a failed fetch without quoting the
// error, which would carry the URL and the remote server's words.
func fetchFailure(err error) string {
	var netErr net.Error
	switch {
	case errors.Is(err, errRedirected):
		return "it redirects, and a client_id URL must serve its document itself"
	case errors.Is(err, errPrivate):
		return "its host is on a private or local address"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "timed out"
	}
	return "no answer"
}

// parseDocument checks a metadata document fetched from id.
func parseDocument(body []byte, id string) (*client, error) {
	var doc struct {
		ClientID string `json:"client_id"`
		metadata
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, &clientError{"the client metadata document is not a JSON object of client metadata"}
	}
	if doc.ClientID != id {
		return nil, &clientError{"the client metadata document's client_id is not its own URL"}
	}
	switch doc.TokenEndpointAuthMethod {
	case "", "none":
	default:
		return nil, &clientError{"the client metadata document asks for token_endpoint_auth_method other than none; this server serves public clients (PKCE, no client authentication)"}
	}
	if err := doc.metadata.validate(); err != nil {
		return nil, &clientError{"the client metadata document's " + err.Error()}
	}
	return &client{ID: id, Name: doc.ClientName, RedirectURIs: doc.RedirectURIs, Document: true}, nil
}

// cacheTTL reads how long a document may be used from its Cache-Control.
func cacheTTL(cc string) time.Duration {
	ttl := documentTTL
	for _, d := range strings.Split(cc, ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		switch {
		case d == "no-store" || d == "no-cache":
			return 0
		case strings.HasPrefix(d, "max-age="):
			n, err := strconv.Atoi(strings.Trim(strings.TrimPrefix(d, "max-age="), `"`))
			if err != nil || n < 0 {
				continue
			}
			ttl = min(time.Duration(n)*time.Second, documentMaxTTL)
		}
	}
	return ttl
}
