package httpserver

import (
	"context"
	"encoding/base64"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// jwt builds an unsigned token with the given claims JSON, shaped as the
// forge's OAuth2 access tokens are (header.payload.signature).
func jwt(claims string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc([]byte(claims)) + ".c2lnbmF0dXJl"
}

func TestTokenExpiry(t *testing.T) {
	tests := []struct {
		name  string
		token string
		want  int64 // unix seconds; 0: none
	}{
		{"the forge's OAuth2 access token", jwt(`{"gnt":3,"tt":0,"exp":1767225600,"iat":1767222000}`), 1767225600},
		{"exp as a float", jwt(`{"exp":1767225600.5}`), 1767225600},
		{"padded payload", "e30." + base64.URLEncoding.EncodeToString([]byte(`{"exp":1767225600}`)) + ".x", 1767225600},
		{"a forge access token (40 hex digits)", "0123456789abcdef0123456789abcdef01234567", 0},
		{"no exp", jwt(`{"iat":1767222000}`), 0},
		{"exp as a quoted number (read too: it can only shorten)", jwt(`{"exp":"1767225600"}`), 1767225600},
		{"exp as a word", jwt(`{"exp":"soon"}`), 0},
		{"negative exp", jwt(`{"exp":-5}`), 0},
		{"absurd exp", jwt(`{"exp":1e300}`), 0},
		{"payload not JSON", "a.bm90IGpzb24.c", 0},
		{"payload not base64", "a.!!!.c", 0},
		{"two parts", "a.b", 0},
		{"four parts", jwt(`{"exp":1767225600}`) + ".d", 0},
		{"empty header", "." + base64.RawURLEncoding.EncodeToString([]byte(`{"exp":1767225600}`)) + ".c", 0},
		{"empty", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exp, ok := tokenExpiry(tt.token)
			assert.Equal(t, tt.want != 0, ok)
			if ok {
				assert.Equal(t, tt.want, exp.Unix())
			}
		})
	}
}

// TestCacheTTLNeverOutlivesTheToken: a JWT's exp shortens how long its
// check is remembered, never lengthens it; a token past its exp is not
// remembered at all.
func TestCacheTTLNeverOutlivesTheToken(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	at := func(d time.Duration) string { return jwt(fmt.Sprintf(`{"exp":%d}`, now.Add(d).Unix())) }
	assert.Equal(t, 60*time.Second, cacheTTL(at(time.Minute), 5*time.Minute, now), "expires before the TTL")
	assert.Equal(t, 5*time.Minute, cacheTTL(at(time.Hour), 5*time.Minute, now), "a later exp does not lengthen it")
	assert.LessOrEqual(t, cacheTTL(at(-time.Second), 5*time.Minute, now), time.Duration(0), "already expired")
	assert.Equal(t, 5*time.Minute, cacheTTL("0123456789abcdef0123456789abcdef01234567", 5*time.Minute, now), "no expiry known")
}

// TestIdentityCacheEndsWithTheToken: a checked JWT is asked about again
// once its exp passes, though the cache's TTL is longer.
func TestIdentityCacheEndsWithTheToken(t *testing.T) {
	clock := time.Unix(1_800_000_000, 0)
	token := jwt(fmt.Sprintf(`{"exp":%d}`, clock.Add(30*time.Second).Unix()))
	checks := 0
	c := newIdentityCache(func(tok string, _ func()) *forgejo.Client { return forgejo.NewClient(nil, nil, tok, "") },
		func(context.Context, *forgejo.Client) (string, error) { checks++; return "alice", nil }, 10, 5*time.Minute, 30*time.Second)
	c.now = func() time.Time { return clock }
	for range 2 {
		_, err := c.get(t.Context(), token, "127.0.0.1")
		assert.NoError(t, err)
	}
	assert.Equal(t, 1, checks, "cached while the token lives")
	clock = clock.Add(31 * time.Second)
	_, err := c.get(t.Context(), token, "127.0.0.1")
	assert.NoError(t, err)
	assert.Equal(t, 2, checks, "checked again once its exp passed, 4.5 minutes before the cache's TTL")
}

func FuzzTokenExpiry(f *testing.F) {
	f.Add(jwt(`{"exp":1767225600}`))
	f.Add("a.b.c")
	f.Add("0123456789abcdef0123456789abcdef01234567")
	f.Add(jwt(`{"exp":1e400}`))
	f.Fuzz(func(t *testing.T, token string) {
		exp, ok := tokenExpiry(token)
		if ok && (exp.Unix() < 0 || exp.Unix() > 1<<40) {
			t.Fatalf("expiry %v out of range", exp)
		}
		now := time.Unix(1_800_000_000, 0)
		if ttl := cacheTTL(token, time.Minute, now); ttl > time.Minute {
			t.Fatalf("ttl %v lengthened", ttl)
		}
	})
}
