package httpserver

// Live tests of token revocation and the rate limit of rejected tokens,
// against the throw-away test forge (scripts/test-forge).

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// livePost is one JSON-RPC POST to endpoint with the Authorization value
// auth; it returns the response and its body.
func livePost(t *testing.T, endpoint, auth, method string, params any) (*http.Response, string) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, endpoint, strings.NewReader(string(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", auth)
	return do(t, req)
}

// deleteToken revokes token at the forge through its API, as a user does
// in the forge's settings: the token is found by its last eight characters
// in the user's token list, then deleted (both need basic auth).
func deleteToken(t *testing.T, f *testforge.Forge, token string) {
	t.Helper()
	tokens := f.URL + "/api/v1/users/" + url.PathEscape(f.User) + "/tokens"
	basic := func(method, u string) *http.Response {
		req, err := http.NewRequestWithContext(t.Context(), method, u, nil)
		require.NoError(t, err)
		req.SetBasicAuth(f.User, f.Password)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		return resp
	}
	resp := basic(http.MethodGet, tokens+"?limit=50")
	var list []struct {
		ID        int64  `json:"id"`
		LastEight string `json:"token_last_eight"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	resp.Body.Close()
	for _, tok := range list {
		if tok.LastEight == token[len(token)-8:] {
			resp := basic(http.MethodDelete, fmt.Sprintf("%s/%d", tokens, tok.ID))
			resp.Body.Close()
			require.Equal(t, http.StatusNoContent, resp.StatusCode, "deleting the token")
			return
		}
	}
	t.Fatalf("the token is not in the user's token list")
}

// TestLiveRevokedTokenIsRefused: a token created at the forge works over
// HTTP; once it is deleted at the forge, the very call that meets the
// forge's 401 is answered 401 (invalid_token, with the challenge), never a
// tool error, and every later request is refused too instead of being
// served from the cache for up to 5 minutes, even requests that would not
// reach the forge at all.
func TestLiveRevokedTokenIsRefused(t *testing.T) {
	f := testforge.Get(t)
	endpoint := liveServer(t, f, nil)
	token := f.TokenWithScopes(t, "read:user", "read:repository")
	auth := "Bearer " + token
	call := func(name string) string {
		resp, body := livePost(t, endpoint, auth, "tools/call", map[string]any{"name": name, "arguments": map[string]any{}})
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
		return body
	}
	assert.Contains(t, call("get_my_user_info"), `\"login\":\"`+f.User+`\"`)
	assert.Contains(t, call("get_forgejo_mcp_server_version"), "version", "an offline tool, served from the cached identity")

	deleteToken(t, f, token)
	resp, body := livePost(t, endpoint, auth, "tools/call", map[string]any{"name": "get_my_user_info", "arguments": map[string]any{}})
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the call that meets the forge's 401: %s", body)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `resource_metadata="`)
	assert.NotContains(t, body, "isError")

	for _, method := range []string{"tools/list", "tools/call"} {
		resp, body := livePost(t, endpoint, auth, method, map[string]any{"name": "get_forgejo_mcp_server_version", "arguments": map[string]any{}})
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "%s: %s", method, body)
		assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`, method)
	}
	resp, body = livePost(t, endpoint, "Bearer "+f.Token, "tools/call", map[string]any{"name": "get_my_user_info", "arguments": map[string]any{}})
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `\"login\":\"`+f.User+`\"`, "the user's other token is unaffected")
}

// TestLiveRejectedTokensAreRateLimited: random tokens cost the forge at
// most the burst of checks; past it the server answers 429 itself.
func TestLiveRejectedTokensAreRateLimited(t *testing.T) {
	f := testforge.Get(t)
	endpoint := liveServer(t, f, func(o *Options) { o.RejectBurst = 5 })
	for i := range 5 {
		resp, body := livePost(t, endpoint, fmt.Sprintf("token %040x", i+1), "tools/list", map[string]any{})
		require.Equal(t, http.StatusUnauthorized, resp.StatusCode, "random token %d: %s", i, body)
	}
	resp, body := livePost(t, endpoint, fmt.Sprintf("token %040x", 99), "tools/list", map[string]any{})
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, body)
	assert.NotEmpty(t, resp.Header.Get("Retry-After"))
	resp, body = livePost(t, endpoint, "token "+f.Token, "tools/list", map[string]any{})
	assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "an unchecked token from the same address waits as well: %s", body)
}
