package httpserver

import (
	"container/list"
	"context"
	"crypto/sha256"
	"errors"
	"net/http"
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
	case err != nil:
		return "", errors.Join(ErrForgeUnavailable, err)
	case u == nil:
		return "", nil
	}
	return u.UserName, nil
}

// identityCache maps tokens to verified identities, so a token costs the
// forge one round trip per TTL rather than one per request. It is bounded
// (least recently used entries go first) and keyed by the token's SHA-256,
// so a heap dump of the map alone shows no token. Rejected tokens are
// remembered for a shorter time, so a client retrying a bad token does not
// turn into a stream of forge requests. Concurrent first requests with the
// same token share one verification.
type identityCache struct {
	newClient  func(token string) *forgejo.Client
	verify     Verifier
	max        int
	ttl        time.Duration
	invalidTTL time.Duration
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

func newIdentityCache(newClient func(string) *forgejo.Client, verify Verifier, max int, ttl, invalidTTL time.Duration) *identityCache {
	return &identityCache{
		newClient: newClient, verify: verify, max: max, ttl: ttl, invalidTTL: invalidTTL,
		now: time.Now, lru: list.New(),
		entries: map[[32]byte]*list.Element{}, inflight: map[[32]byte]*verification{},
	}
}

// get returns the identity of token, verifying it with the forge when it
// is not cached or its entry expired.
func (c *identityCache) get(ctx context.Context, token string) (*Identity, error) {
	key := sha256.Sum256([]byte(token))
	c.mu.Lock()
	if el, ok := c.entries[key]; ok {
		e := el.Value.(*cacheEntry)
		if c.now().Before(e.expires) {
			c.lru.MoveToFront(el)
			c.mu.Unlock()
			if e.id == nil {
				return nil, ErrInvalidToken
			}
			return e.id, nil
		}
		c.lru.Remove(el)
		delete(c.entries, key)
	}
	if v, ok := c.inflight[key]; ok {
		c.mu.Unlock()
		select {
		case <-v.done:
			return v.id, v.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	v := &verification{done: make(chan struct{})}
	c.inflight[key] = v
	c.mu.Unlock()

	// The verification outlives a caller that gives up, since others may
	// be waiting on it; it is still bounded by the forge client's timeout.
	client := c.newClient(token)
	login, err := c.verify(context.WithoutCancel(ctx), client)
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
		c.store(key, v.id, c.ttl)
	case errors.Is(v.err, ErrInvalidToken):
		c.store(key, nil, c.invalidTTL)
	}
	c.mu.Unlock()
	close(v.done)
	return v.id, v.err
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
