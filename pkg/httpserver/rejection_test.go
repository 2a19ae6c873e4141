package httpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// rejectionDefs adds to testDefs a tool calling a route that answers 401
// to any token (as the forge's basic-auth-only routes do), and one that
// reports progress before its forge call.
func rejectionDefs(f *fakeforge.Server) func(*Options) {
	f.JSON("GET /api/v1/needs-basic-auth", http.StatusUnauthorized, map[string]string{"message": "basic auth required"})
	return func(o *Options) {
		o.Defs = append(o.Defs,
			tool.Def{Name: "other_credential", Toolset: tool.Toolset{ID: "user"}, Description: "a route wanting a password", Annotations: tool.Read(),
				Handler: func(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
					if err := c.DoJSON(ctx, http.MethodGet, "/needs-basic-auth", nil, nil, nil); err != nil {
						return nil, err
					}
					return tool.JSON("unreachable")
				}},
			tool.Def{Name: "progress_then_whoami", Toolset: tool.Toolset{ID: "user"}, Description: "progress, then the user", Annotations: tool.Read(),
				Handler: func(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
					tool.Progress(ctx, 1, 2)
					u, resp, err := c.SDK(ctx).GetMyUserInfo()
					if err := forgejo.Fail(resp, err, "get", "user"); err != nil {
						return nil, err
					}
					tool.Progress(ctx, 2, 2)
					return tool.JSON(map[string]string{"login": u.UserName})
				}},
		)
		o.DefaultToolsets = nil
	}
}

// TestOtherCredentialIsAToolError: a 401 from a route that wants another
// kind of credential, with a token the forge still accepts, stays the
// tool's error (one more check tells them apart), not a 401 that would
// send the client to sign in again for nothing.
func TestOtherCredentialIsAToolError(t *testing.T) {
	forge := fakeforge.New(t)
	fx := newFixtureOn(t, forge, rejectionDefs(forge))
	auth := "Bearer " + tokAlice
	assert.Contains(t, fx.callText(t, auth, "other_credential", nil), "the forge rejected the token (401 Unauthorized)")
	assert.EqualValues(t, 2, fx.checks.Load(), "the first check and the second one after the 401")
	assert.Equal(t, `{"login":"alice"}`, fx.callText(t, auth, "whoami", nil))
}

// TestRejectedDuringStreamedCall: a call that sent a progress notification
// before meeting the forge's 401 is still answered 401 (what was held back
// is dropped); with a good token the held notification goes out first.
func TestRejectedDuringStreamedCall(t *testing.T) {
	forge := fakeforge.New(t)
	fx := newFixtureOn(t, forge, rejectionDefs(forge))
	call := func(auth string) (*http.Response, string) {
		return fx.post(t, rpc{Method: "tools/call", Auth: auth, Params: map[string]any{
			"name": "progress_then_whoami", "arguments": map[string]any{}, "_meta": map[string]any{"progressToken": "p1"}}})
	}
	resp, body := call("Bearer " + tokAlice)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	first, last := strings.Index(body, `"progress":1`), strings.Index(body, `\"login\":\"alice\"`)
	assert.True(t, first >= 0 && last > first, "the progress notification, then the result: %s", body)

	fx.revoked.Store(tokAlice, true)
	resp, body = call("Bearer " + tokAlice)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, body)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`)
	assert.NotContains(t, body, "progress")
}

// TestExpiredTokenIsNotServedFromCache: once a JWT's exp passes, its check
// is no longer remembered, so even a request that never reaches the forge
// (tools/list) is checked and refused with 401, where before it was served
// from the cache for the rest of its 5 minutes.
func TestExpiredTokenIsNotServedFromCache(t *testing.T) {
	fx := newFixture(t, nil)
	clock := time.Unix(1_800_000_000, 0)
	var expired atomic.Bool
	token := jwt(fmt.Sprintf(`{"gnt":1,"tt":0,"exp":%d}`, clock.Add(60*time.Second).Unix()))
	fx.srv.identities.now = func() time.Time { return clock }
	fx.srv.identities.verify = func(ctx context.Context, c *forgejo.Client) (string, error) {
		if expired.Load() {
			return "", ErrInvalidToken
		}
		return "alice", nil
	}
	resp, body := fx.post(t, rpc{Method: "tools/list", Params: map[string]any{}, Auth: "Bearer " + token})
	require.Equal(t, http.StatusOK, resp.StatusCode, body)

	clock = clock.Add(61 * time.Second)
	expired.Store(true)
	resp, body = fx.post(t, rpc{Method: "tools/list", Params: map[string]any{}, Auth: "Bearer " + token})
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, body)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `resource_metadata="`)
}

// TestHoldWriter: what is written waits until the forge accepted the
// token, then passes at once; a request that ends with the token refused
// drops what was held.
func TestHoldWriter(t *testing.T) {
	t.Run("passes once the forge accepted the token", func(t *testing.T) {
		rec := httptest.NewRecorder()
		v := &forgeVerdict{}
		h := newHoldWriter(rec, v)
		h.Header().Set("Content-Type", "text/event-stream")
		h.WriteHeader(http.StatusOK)
		_, _ = h.Write([]byte("event: message\n\n"))
		h.Flush()
		assert.Empty(t, rec.Body.String(), "held before any forge answer")
		v.record(http.StatusOK)
		_, _ = h.Write([]byte("more"))
		assert.Equal(t, "event: message\n\nmore", rec.Body.String())
		assert.Equal(t, "text/event-stream", rec.Header().Get("Content-Type"))
		assert.False(t, h.finish(func() bool { t.Fatal("no second check without a rejection"); return false }))
	})
	t.Run("a 5xx proves nothing", func(t *testing.T) {
		rec := httptest.NewRecorder()
		v := &forgeVerdict{}
		h := newHoldWriter(rec, v)
		v.record(http.StatusBadGateway)
		_, _ = h.Write([]byte("x"))
		assert.Empty(t, rec.Body.String())
		assert.False(t, h.finish(func() bool { return true }), "no rejection seen: sent")
		assert.Equal(t, "x", rec.Body.String())
	})
	t.Run("dropped when the token is refused", func(t *testing.T) {
		rec := httptest.NewRecorder()
		v := &forgeVerdict{}
		h := newHoldWriter(rec, v)
		h.Header().Set("Content-Type", "application/json")
		_, _ = h.Write([]byte(`{"isError":true}`))
		v.record(http.StatusUnauthorized)
		assert.True(t, h.finish(func() bool { return true }))
		assert.Empty(t, rec.Body.String())
		assert.Empty(t, rec.Header().Get("Content-Type"), "the held headers are not sent either")
		_, err := h.Write([]byte("late"))
		assert.NoError(t, err)
		assert.Empty(t, rec.Body.String())
	})
	t.Run("kept when the second check accepts the token", func(t *testing.T) {
		rec := httptest.NewRecorder()
		v := &forgeVerdict{}
		h := newHoldWriter(rec, v)
		_, _ = h.Write([]byte(`{"isError":true}`))
		v.record(http.StatusUnauthorized)
		assert.False(t, h.finish(func() bool { return false }))
		assert.Equal(t, `{"isError":true}`, rec.Body.String())
	})
	t.Run("kept when the forge accepted the token earlier in the request", func(t *testing.T) {
		rec := httptest.NewRecorder()
		v := &forgeVerdict{}
		h := newHoldWriter(rec, v)
		v.record(http.StatusCreated) // a write went through
		v.record(http.StatusUnauthorized)
		_, _ = h.Write([]byte(`{"isError":true}`))
		assert.False(t, h.finish(func() bool { t.Fatal("no second check: a 401 would make the client repeat the write"); return true }))
		assert.Equal(t, `{"isError":true}`, rec.Body.String())
	})
	t.Run("bounded", func(t *testing.T) {
		rec := httptest.NewRecorder()
		h := newHoldWriter(rec, &forgeVerdict{})
		_, _ = h.Write(make([]byte, maxHeld+1))
		assert.Equal(t, maxHeld+1, rec.Body.Len(), "past the bound it is sent")
	})
}

// TestTokenRejectedNeedsAToken: the second check is only for a request's
// own (or the shared) token.
func TestTokenRejectedNeedsAToken(t *testing.T) {
	fx := newFixture(t, nil)
	r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	assert.False(t, fx.srv.tokenRejected(r, "127.0.0.1"), "no token at all")
	r.Header.Set("Authorization", "Basic x")
	assert.False(t, fx.srv.tokenRejected(r, "127.0.0.1"), "a malformed Authorization")
	r.Header.Set("Authorization", "Bearer tok-unknown-0123456789")
	assert.True(t, fx.srv.tokenRejected(r, "127.0.0.1"))
	assert.False(t, errors.Is(nil, ErrInvalidToken))
}
