package httpserver

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// cacheFixture is an identityCache whose verifier accepts the tokens in
// valid, counting its calls, with a clock the test moves.
type cacheFixture struct {
	cache  *identityCache
	calls  atomic.Int64
	tokens sync.Map // *forgejo.Client -> token, since a client does not expose its token
	mu     sync.Mutex
	clock  time.Time
}

func newCacheFixture(max int, valid map[string]bool) *cacheFixture {
	f := &cacheFixture{clock: time.Unix(1_000_000, 0)}
	newClient := func(token string, _ func()) *forgejo.Client {
		c := forgejo.NewClient(nil, nil, token, "")
		f.tokens.Store(c, token)
		return c
	}
	verify := func(_ context.Context, c *forgejo.Client) (string, error) {
		f.calls.Add(1)
		tok, _ := f.tokens.Load(c)
		if valid[tok.(string)] {
			return "user-" + tok.(string), nil
		}
		return "", ErrInvalidToken
	}
	f.cache = newIdentityCache(newClient, verify, max, time.Minute, 10*time.Second)
	f.cache.now = func() time.Time {
		f.mu.Lock()
		defer f.mu.Unlock()
		return f.clock
	}
	return f
}

func (f *cacheFixture) advance(d time.Duration) {
	f.mu.Lock()
	f.clock = f.clock.Add(d)
	f.mu.Unlock()
}

func TestIdentityCache(t *testing.T) {
	valid := map[string]bool{"good-1": true, "good-2": true, "good-3": true}
	tests := []struct {
		name      string
		steps     func(t *testing.T, f *cacheFixture)
		wantCalls int64
	}{
		{name: "valid token is verified once", wantCalls: 1, steps: func(t *testing.T, f *cacheFixture) {
			for range 3 {
				id, err := f.cache.get(t.Context(), "good-1", "192.0.2.1")
				require.NoError(t, err)
				assert.Equal(t, "user-good-1", id.Login)
			}
		}},
		{name: "entry expires", wantCalls: 2, steps: func(t *testing.T, f *cacheFixture) {
			_, err := f.cache.get(t.Context(), "good-1", "192.0.2.1")
			require.NoError(t, err)
			f.advance(59 * time.Second)
			_, err = f.cache.get(t.Context(), "good-1", "192.0.2.1")
			require.NoError(t, err)
			f.advance(2 * time.Second)
			_, err = f.cache.get(t.Context(), "good-1", "192.0.2.1")
			require.NoError(t, err)
		}},
		{name: "rejected token is remembered briefly", wantCalls: 2, steps: func(t *testing.T, f *cacheFixture) {
			for range 3 {
				_, err := f.cache.get(t.Context(), "bad", "192.0.2.1")
				assert.ErrorIs(t, err, ErrInvalidToken)
			}
			f.advance(11 * time.Second)
			_, err := f.cache.get(t.Context(), "bad", "192.0.2.1")
			assert.ErrorIs(t, err, ErrInvalidToken)
		}},
		{name: "least recently used goes first", wantCalls: 4, steps: func(t *testing.T, f *cacheFixture) {
			// good-1 stays in use; good-2 is evicted by good-3 and checked again.
			for _, tok := range []string{"good-1", "good-2", "good-1", "good-3", "good-1", "good-2"} {
				_, err := f.cache.get(t.Context(), tok, "192.0.2.1")
				require.NoError(t, err)
			}
			assert.Equal(t, 2, f.cache.len())
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newCacheFixture(2, valid)
			tt.steps(t, f)
			assert.Equal(t, tt.wantCalls, f.calls.Load())
		})
	}
}

func TestIdentityCacheSharesOneVerification(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int64
	verify := func(context.Context, *forgejo.Client) (string, error) {
		calls.Add(1)
		<-release
		return "alice", nil
	}
	c := newIdentityCache(func(tok string, _ func()) *forgejo.Client { return forgejo.NewClient(nil, nil, tok, "") }, verify, 10, time.Minute, time.Second)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			id, err := c.get(t.Context(), "same-token", "192.0.2.1")
			assert.NoError(t, err)
			assert.Equal(t, "alice", id.Login)
		})
	}
	time.Sleep(20 * time.Millisecond)
	close(release)
	wg.Wait()
	assert.Equal(t, int64(1), calls.Load())
}

func TestIdentityCacheDoesNotRememberOutages(t *testing.T) {
	var calls atomic.Int64
	verify := func(context.Context, *forgejo.Client) (string, error) {
		if calls.Add(1) == 1 {
			return "", errors.Join(ErrForgeUnavailable, errors.New("connection refused"))
		}
		return "alice", nil
	}
	c := newIdentityCache(func(tok string, _ func()) *forgejo.Client { return forgejo.NewClient(nil, nil, tok, "") }, verify, 10, time.Minute, time.Second)
	_, err := c.get(t.Context(), "tok", "192.0.2.1")
	assert.ErrorIs(t, err, ErrForgeUnavailable)
	id, err := c.get(t.Context(), "tok", "192.0.2.1")
	require.NoError(t, err)
	assert.Equal(t, "alice", id.Login)
}

func TestVerifyWithForge(t *testing.T) {
	tests := []struct {
		name      string
		token     string
		wantLogin string
		wantErr   error
	}{
		{name: "valid", token: tokAlice, wantLogin: "alice"},
		{name: "valid without read:user", token: tokNoScope},
		{name: "rejected", token: "nope", wantErr: ErrInvalidToken},
	}
	f := fakeforge.New(t)
	fakeUsers(f)
	hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: f.BaseURL()})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			login, err := VerifyWithForge(t.Context(), forgejo.NewClient(hc, f.BaseURL(), tt.token, "test"))
			assert.ErrorIs(t, err, tt.wantErr)
			assert.Equal(t, tt.wantLogin, login)
		})
	}
	t.Run("forge down", func(t *testing.T) {
		down := fakeforge.New(t)
		base := down.BaseURL()
		down.Close()
		_, err := VerifyWithForge(t.Context(), forgejo.NewClient(forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base}), base, "x", "test"))
		assert.ErrorIs(t, err, ErrForgeUnavailable)
	})
}

func TestBearerToken(t *testing.T) {
	tests := []struct {
		name    string
		headers []string
		want    string
		present bool
		wantErr bool
	}{
		{name: "absent"},
		{name: "bearer", headers: []string{"Bearer abc"}, want: "abc", present: true},
		{name: "token", headers: []string{"token abc"}, want: "abc", present: true},
		{name: "extra spaces", headers: []string{"  Bearer   abc  "}, want: "abc", present: true},
		{name: "jwt", headers: []string{"Bearer eyJhbGciOi.eyJzdWIi.c2ln"}, want: "eyJhbGciOi.eyJzdWIi.c2ln", present: true},
		{name: "basic", headers: []string{"Basic abc"}, present: true, wantErr: true},
		{name: "no scheme", headers: []string{"abc"}, present: true, wantErr: true},
		{name: "empty token", headers: []string{"Bearer "}, present: true, wantErr: true},
		{name: "inner space", headers: []string{"Bearer a b"}, present: true, wantErr: true},
		{name: "two headers", headers: []string{"Bearer a", "Bearer b"}, present: true, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.headers {
				h.Add("Authorization", v)
			}
			got, present, err := bearerToken(h)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.present, present)
			assert.Equal(t, tt.wantErr, err != nil, err)
		})
	}
}

func TestIdentityCacheSurvivesAPanickingVerifier(t *testing.T) {
	verify := func(context.Context, *forgejo.Client) (string, error) { panic("boom") }
	c := newIdentityCache(func(tok string, _ func()) *forgejo.Client { return forgejo.NewClient(nil, nil, tok, "") }, verify, 10, time.Minute, time.Second)
	_, err := c.get(t.Context(), "tok", "192.0.2.1")
	assert.ErrorIs(t, err, ErrForgeUnavailable)
	assert.Contains(t, err.Error(), "this is a bug")
	assert.Zero(t, c.len(), "nothing cached")
}

// TestCallerKey: the per-user limits count a user's tokens together (the
// login, case-insensitively) and tokens whose user the forge does not name
// by the client's address, never per token; the key never holds a token.
func TestCallerKey(t *testing.T) {
	alice, alice2, unnamed := &Identity{Login: "Alice"}, &Identity{Login: "alice"}, &Identity{}
	assert.Equal(t, alice.Caller("192.0.2.1"), alice2.Caller("198.51.100.7"))
	assert.Equal(t, unnamed.Caller("192.0.2.1"), (&Identity{}).Caller("192.0.2.1"), "two unnamed tokens from one address")
	assert.NotEqual(t, unnamed.Caller("192.0.2.1"), unnamed.Caller("192.0.2.2"))
	assert.NotEqual(t, unnamed.Caller("192.0.2.1"), alice.Caller("192.0.2.1"))
}
