package httpserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"
)

// tokenExpiry reads the expiry a token carries, when it is a JWT (the
// forge's OAuth2 access tokens are) with a numeric exp claim. The
// signature is not checked, and need not be: the expiry is only ever used
// to remember a token's check for less time (cacheTTL), never for more, so
// a forged exp can only cost its sender an extra check. An access token
// the forge issued (40 hex digits) is not a JWT and has no expiry here.
func tokenExpiry(token string) (time.Time, bool) {
	header, rest, ok := strings.Cut(token, ".")
	if !ok || header == "" {
		return time.Time{}, false
	}
	payload, sig, ok := strings.Cut(rest, ".")
	if !ok || payload == "" || strings.Contains(sig, ".") {
		return time.Time{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(payload, "="))
	if err != nil {
		return time.Time{}, false
	}
	var claims struct {
		Exp json.Number `json:"exp"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&claims) != nil || claims.Exp == "" {
		return time.Time{}, false
	}
	exp, err := claims.Exp.Float64()
	if err != nil || exp < 0 || exp > 1<<40 {
		return time.Time{}, false
	}
	return time.Unix(int64(exp), 0), true
}

// cacheTTL is how long the check of token is remembered: ttl, but never
// past the token's own expiry. A token past it is not remembered at all,
// so its next request asks the forge, which refuses it.
func cacheTTL(token string, ttl time.Duration, now time.Time) time.Duration {
	if exp, ok := tokenExpiry(token); ok {
		return min(ttl, exp.Sub(now))
	}
	return ttl
}
