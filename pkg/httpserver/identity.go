package httpserver

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// Identity is who one HTTP request acts as: a forge client holding the
// caller's token and, when the forge told us, the login it belongs to (for
// logs: the login is logged, the token never).
type Identity struct {
	Client *forgejo.Client
	Login  string
}

// Caller is what a request of id from the client address addr counts
// against for the per-user limits (tool.WithCaller, and the HTTP requests
// in flight per user): the login, which every token of the user shares;
// or, for a token whose user the forge does not name (no read:user
// scope), the client's address. A key per such token would let one
// person take a share per token they mint (twelve tokens, twelve shares);
// per address, their tokens share one, as clients behind one address do
// (behind a reverse proxy name it in --http-trusted-proxies, or they all
// share the proxy's). Compared only, never logged.
func (id *Identity) Caller(addr string) string {
	if id.Login != "" {
		return "user:" + strings.ToLower(id.Login)
	}
	return "addr:" + addr
}

// Errors of token verification.
var (
	// ErrInvalidToken means the forge answered 401 for the token.
	ErrInvalidToken = errors.New("the forge rejected the token")
	// ErrForgeUnavailable means the forge could not say whether the token
	// is valid (network failure, 5xx); the request is answered 502 and
	// nothing is cached, so the next request asks again.
	ErrForgeUnavailable = errors.New("the forge did not answer the token check")
)

// Verifier asks the forge whether c's token is valid and returns its login.
// It returns ErrInvalidToken for a rejected token and ErrForgeUnavailable
// (possibly wrapped) when the forge could not answer.
type Verifier func(ctx context.Context, c *forgejo.Client) (login string, err error)

// VerifyWithForge checks a token with one GET /api/v1/user. A 403 still
// proves the token authentic: it only lacks the read:user scope, and the
// tools it does have scopes for must keep working.
//
// Its errors name the status or the kind of failure only: never a forge
// body, an error message of the HTTP client (which quotes URLs, a redirect
// target among them) or anything else the forge chose, since a forge that
// echoes the request would put the token there.
func VerifyWithForge(ctx context.Context, c *forgejo.Client) (string, error) {
	u, resp, err := c.SDK(ctx).GetMyUserInfo()
	status := 0
	if resp != nil && resp.Response != nil {
		status = resp.StatusCode
	}
	switch {
	case status == http.StatusUnauthorized:
		return "", ErrInvalidToken
	case status == http.StatusForbidden:
		return "", nil
	case status != 0 && status/100 != 2:
		return "", fmt.Errorf("%w: it answered %d %s", ErrForgeUnavailable, status, http.StatusText(status))
	case err != nil:
		return "", fmt.Errorf("%w: %s", ErrForgeUnavailable, failure(err))
	case u == nil:
		return "", nil
	}
	return forgejo.Sanitize(u.UserName, 100), nil
}

// failure names the kind of a failed exchange without quoting its error,
// whose text may carry a URL the forge chose.
func failure(err error) string {
	var netErr net.Error
	var opErr *net.OpError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "timed out"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, forgejo.ErrResponseTooLarge):
		return "its answer is too large"
	case errors.As(err, &syn), errors.As(err, &typ), errors.Is(err, io.ErrUnexpectedEOF):
		return "its answer could not be read"
	case errors.As(err, &opErr):
		return "cannot reach it (" + opErr.Op + ")"
	}
	return "no usable answer"
}

// identityCache maps tokens to verified identities, so a token costs the
// forge one round trip per TTL rather than one per request. It is bounded
// (least recently used entries go first) and keyed by the token's SHA-256,
// so a heap dump of the map alone shows no token. Rejected tokens are
// remembered for a shorter time, so a client retrying a bad token does not
// turn into a stream of forge requests, and checks that end in a rejection
// are rate-limited per client address, so random tokens do not either.
// Concurrent first requests with the same token share one verification.
//
// A token the forge rejects on any later call (401) is evicted at once
// (the identity's client reports it, see watchUnauthorized), so a revoked
// token is checked again, and refused, on its next request.
type identityCache struct {
	newClient  func(token string, onUnauthorized func()) *forgejo.Client
	verify     Verifier
	max        int
	ttl        time.Duration
	invalidTTL time.Duration
	limiter    *rejectLimiter // nil: no rate limit
	lookup     func(hit bool) // counts lookups (metrics); nil: none
	now        func() time.Time

	mu       sync.Mutex
	lru      *list.List // of *cacheEntry, most recent first
	entries  map[[32]byte]*list.Element
	inflight map[[32]byte]*verification
}

type cacheEntry struct {
	key     [32]byte
	id      *Identity // nil for a rejected token
	expires time.Time
}

type verification struct {
	done chan struct{}
	id   *Identity
	err  error
}

func newIdentityCache(newClient func(string, func()) *forgejo.Client, verify Verifier, max int, ttl, invalidTTL time.Duration) *identityCache {
	return &identityCache{
		newClient: newClient, verify: verify, max: max, ttl: ttl, invalidTTL: invalidTTL,
		now: time.Now, lru: list.New(),
		entries: map[[32]byte]*list.Element{}, inflight: map[[32]byte]*verification{},
	}
}

// get returns the identity of token, verifying it with the forge when it
// is not cached or its entry expired. addr is the client's address (see
// clientAddr), for the rate limit of rejected checks. It returns when ctx
// ends even if the forge has not answered yet: the verification goes on
// for the others waiting on it and its result is cached.
func (c *identityCache) get(ctx context.Context, token, addr string) (*Identity, error) {
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		e := el.Value.(*cacheEntry)
		if c.now().Before(e.expires) {
			c.lru.MoveToFront(el)
			c.mu.Unlock()
			c.counted(true)
			if e.id == nil {
				return nil, ErrInvalidToken
			}
			return e.id, nil
		}
		c.lru.Remove(el)
		delete(c.entries, key)
	}
	v, ok := c.inflight[key]
	if !ok {
		if c.limiter != nil {
			if wait := c.limiter.take(addr); wait > 0 {
				c.mu.Unlock()
				return nil, &RateLimitedError{RetryAfter: wait}
			}
		}
		v = &verification{done: make(chan struct{})}
		c.inflight[key] = v
		// The verification outlives a caller that gives up, since others
		// may be waiting on it; it is still bounded by the forge client's
		// timeout. It keeps ctx's values: its log lines belong to the
		// request and are redacted of its token.
		go c.run(context.WithoutCancel(ctx), key, token, addr, v)
	}
	c.mu.Unlock()
	c.counted(false)
	select {
	case <-v.done:
		return v.id, v.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// run verifies token and publishes the result to v and the cache.
func (c *identityCache) run(ctx context.Context, key [32]byte, token, addr string, v *verification) {
	client := c.newClient(token, func() { c.evict(key) })
	login, err := c.verifyRecovered(ctx, client)
	switch {
	case err == nil:
		v.id = &Identity{Client: client, Login: login}
	case errors.Is(err, ErrInvalidToken):
		v.err = ErrInvalidToken
	default:
		v.err = err
	}

	c.mu.Lock()
	delete(c.inflight, key)
	switch {
	case v.err == nil:
		// Never remembered past the token's own expiry (a JWT's exp).
		c.store(key, v.id, cacheTTL(token, c.ttl, c.now()))
	case errors.Is(v.err, ErrInvalidToken):
		c.store(key, nil, c.invalidTTL)
	}
	if c.limiter != nil && !errors.Is(v.err, ErrInvalidToken) {
		c.limiter.refund(addr) // only rejections count against the address
	}
	c.mu.Unlock()
	close(v.done)
}

// counted reports a lookup to the metrics, if any.
func (c *identityCache) counted(hit bool) {
	if c.lookup != nil {
		c.lookup(hit)
	}
}

// verifyRecovered runs the verifier, turning a panic into an error: it
// runs on its own goroutine, where a panic would end the process.
func (c *identityCache) verifyRecovered(ctx context.Context, client *forgejo.Client) (login string, err error) {
	defer func() {
		if p := recover(); p != nil {
			login, err = "", fmt.Errorf("%w: the token check failed (internal error; this is a bug in forgejo-mcp, please report it)", ErrForgeUnavailable)
		}
	}()
	return c.verify(ctx, client)
}

// evict forgets the identity of the token whose key is key, so its next
// request is checked with the forge again. It is called when the forge
// answers 401 to a call made with it.
func (c *identityCache) evict(key [32]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok && el.Value.(*cacheEntry).id != nil {
		c.lru.Remove(el)
		delete(c.entries, key)
	}
}

// store adds an entry; the caller holds c.mu.
func (c *identityCache) store(key [32]byte, id *Identity, ttl time.Duration) {
	if ttl <= 0 || c.max <= 0 {
		return
	}
	c.entries[key] = c.lru.PushFront(&cacheEntry{key: key, id: id, expires: c.now().Add(ttl)})
	for c.lru.Len() > c.max {
		oldest := c.lru.Back()
		c.lru.Remove(oldest)
		delete(c.entries, oldest.Value.(*cacheEntry).key)
	}
}

// len returns the number of cached entries, for tests.
func (c *identityCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// watchUnauthorized returns a copy of hc whose transport calls
// onUnauthorized when the forge answers 401 to a request that carried
// credentials: every forge request of an identity, through the SDK or raw,
// goes through its client's transport, so no tool has to report it. The
// underlying transport (and its connection pool) stays shared.
func watchUnauthorized(hc *http.Client, onUnauthorized func()) *http.Client {
	cp := *hc
	next := cp.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	cp.Transport = &unauthorizedTransport{next: next, on: onUnauthorized}
	return &cp
}

type unauthorizedTransport struct {
	next http.RoundTripper
	on   func()
}

func (t *unauthorizedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil && req.Header.Get("Authorization") != "" {
		if resp.StatusCode == http.StatusUnauthorized {
			t.on()
		}
		verdictFrom(req.Context()).record(resp.StatusCode)
	}
	return resp, err
}

// authenticate finds the identity r, from the client address addr, acts
// as. When it cannot, it answers
// the request itself (401, 429, 502 or 504) and returns false. The check
// shares the request's deadline (see withDeadline), so a slow forge cannot
// stretch a request past --call-timeout.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request, addr string) (*Identity, bool) {
	token, present, err := s.requestToken(r)
	switch {
	case err != nil:
		s.unauthorized(w, r, err.Error())
		return nil, false
	case token == "":
		s.unauthorized(w, r, "")
		return nil, false
	}
	ctx := r.Context()
	id, err := s.checkToken(ctx, token, addr)
	var limited *RateLimitedError
	switch {
	case err == nil:
	case errors.As(err, &limited):
		s.log.WarnContext(ctx, "refused a token check: too many rejected tokens from this address", "client", addr)
		w.Header().Set("Retry-After", strconv.Itoa(limited.retryAfterSeconds()))
		http.Error(w, fmt.Sprintf("429 Too Many Requests: the forge rejected too many tokens from this address; retry in %d s", limited.retryAfterSeconds()), http.StatusTooManyRequests)
		return nil, false
	case errors.Is(err, ErrInvalidToken):
		if !present {
			s.log.ErrorContext(ctx, "the forge rejects the shared token (--http-shared-token)")
		}
		s.unauthorized(w, r, "the forge rejected this token (invalid, expired or revoked)")
		return nil, false
	case errors.Is(err, context.DeadlineExceeded):
		s.log.WarnContext(ctx, "token check timed out: the forge did not answer within the request's deadline")
		http.Error(w, "504 Gateway Timeout: the forge did not answer the token check in time; retry later", http.StatusGatewayTimeout)
		return nil, false
	default:
		s.log.WarnContext(ctx, "token check failed", "err", err)
		http.Error(w, "502 Bad Gateway: the forge did not answer the token check; retry later", http.StatusBadGateway)
		return nil, false
	}
	if ri := infoFrom(r.Context()); ri != nil && id.Login != "" {
		ri.user.Store(&id.Login)
	}
	return id, true
}

// requestToken is the token r acts with: its Authorization header's, or
// with none the shared token (--http-shared-token), "" when that is off.
// present says whether r carried one.
func (s *Server) requestToken(r *http.Request) (token string, present bool, err error) {
	token, present, err = bearerToken(r.Header)
	if err == nil && !present {
		token = s.opts.SharedToken
	}
	return token, present, err
}

// checkToken finds token's identity within the request's deadline (see
// withDeadline), so a slow forge cannot stretch a request past
// --call-timeout.
func (s *Server) checkToken(ctx context.Context, token, addr string) (*Identity, error) {
	if dl, ok := deadlineFrom(ctx); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl)
		defer cancel()
	}
	return s.identities.get(ctx, token, addr)
}

// bearerToken extracts the token of an Authorization header. Both
// "Bearer T" (OAuth clients) and "token T" (the forge's own scheme, what
// users already paste) are accepted, case-insensitively. ok is false for a
// missing header; err is set for a header that is present but unusable.
func bearerToken(h http.Header) (token string, ok bool, err error) {
	v := h.Values("Authorization")
	if len(v) == 0 {
		return "", false, nil
	}
	if len(v) > 1 {
		return "", true, errors.New("more than one Authorization header")
	}
	scheme, rest, found := strings.Cut(strings.TrimSpace(v[0]), " ")
	if !found || (!strings.EqualFold(scheme, "bearer") && !strings.EqualFold(scheme, "token")) {
		return "", true, errors.New(`Authorization must be "Bearer <forge token>" or "token <forge token>"`)
	}
	token = strings.TrimSpace(rest)
	if token == "" || len(token) > maxTokenLen || strings.ContainsAny(token, " \t\r\n") {
		return "", true, errors.New("malformed token in Authorization")
	}
	return token, true, nil
}

// maxTokenLen bounds a token: forge access tokens are 40 hex digits and
// OAuth access tokens JWTs of about a kilobyte.
const maxTokenLen = 8 << 10
