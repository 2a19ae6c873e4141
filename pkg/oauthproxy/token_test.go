package oauthproxy

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTokenRefusals: each way a token request can be wrong, with the RFC
// 6749 code a client acts on; none of them reaches the forge.
func TestTokenRefusals(t *testing.T) {
	h := newHarness(t, nil)
	client := h.register(clientRedirect)
	other := h.register(clientRedirect)
	verifier, challenge := pkce("t")
	code := h.signIn(client, clientRedirect, challenge)
	sent := len(h.forge.tokenReqs)
	good := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {clientRedirect}, "client_id": {client}, "code_verifier": {verifier}}
	with := func(k, v string) url.Values {
		q := url.Values{}
		for kk, vv := range good {
			q[kk] = vv
		}
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
		return q
	}
	tests := []struct {
		name   string
		form   url.Values
		status int
		code   string
	}{
		{"no client_id", with("client_id", ""), http.StatusUnauthorized, "invalid_client"},
		{"unknown client_id", with("client_id", "nobody"), http.StatusUnauthorized, "invalid_client"},
		{"the server's own application", with("client_id", appID), http.StatusUnauthorized, "invalid_client"},
		{"no grant_type", with("grant_type", ""), http.StatusBadRequest, "invalid_request"},
		{"password grant", with("grant_type", "password"), http.StatusBadRequest, "unsupported_grant_type"},
		{"another client's code", with("client_id", other), http.StatusBadRequest, "invalid_grant"},
		{"forged code", with("code", "forgecode0001"), http.StatusBadRequest, "invalid_grant"},
		{"another redirect_uri", with("redirect_uri", "http://127.0.0.1:10/callback"), http.StatusBadRequest, "invalid_grant"},
		{"no redirect_uri", with("redirect_uri", ""), http.StatusBadRequest, "invalid_grant"},
		{"no verifier", with("code_verifier", ""), http.StatusBadRequest, "invalid_request"},
		{"malformed verifier", with("code_verifier", strings.Repeat("!", 43)), http.StatusBadRequest, "invalid_request"},
		{"wrong verifier", with("code_verifier", strings.Repeat("w", 43)), http.StatusBadRequest, "invalid_grant"},
		{"another resource", with("resource", "https://other.example/mcp"), http.StatusBadRequest, "invalid_target"},
		{"a parameter twice", func() url.Values { q := with("x", ""); q.Add("code", "again"); return q }(), http.StatusBadRequest, "invalid_request"},
		{"refresh token not ours", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"forge-refresh-0001"}, "client_id": {client}}, http.StatusBadRequest, "invalid_grant"},
		{"a code as refresh token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {code}, "client_id": {client}}, http.StatusBadRequest, "invalid_grant"},
		{"basic and form disagree", func() url.Values { return with("x", "") }(), http.StatusBadRequest, "invalid_request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := h.do(http.MethodPost, TokenPath, "application/x-www-form-urlencoded", tt.form.Encode(), func(r *http.Request) {
				if tt.name == "basic and form disagree" {
					r.SetBasicAuth(other, "")
				}
			})
			assert.Equal(t, tt.status, resp.StatusCode, body)
			assert.Equal(t, tt.code, decodeField(t, body, "error"), body)
			assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
		})
	}
	resp, body := h.do(http.MethodPost, TokenPath, "application/json", `{}`, nil)
	assert.Equal(t, "invalid_request", decodeField(t, body, "error"), resp.Status)
	resp, _ = h.do(http.MethodGet, TokenPath, "", "", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Len(t, h.forge.tokenReqs, sent, "no refused request reached the forge")

	t.Run("expired code", func(t *testing.T) {
		h.advance(codeTTL + time.Second)
		defer h.advance(-codeTTL - time.Second)
		status, tok := h.token(good)
		assert.Equal(t, http.StatusBadRequest, status)
		assert.Equal(t, "invalid_grant", tok["error"])
	})
	t.Run("client_secret_basic with the client id", func(t *testing.T) {
		resp, body := h.do(http.MethodPost, TokenPath, "application/x-www-form-urlencoded", with("client_id", "").Encode(), func(r *http.Request) {
			r.SetBasicAuth(url.QueryEscape(client), "")
		})
		assert.Equal(t, http.StatusOK, resp.StatusCode, body)
	})
}

// TestRefreshBinding: a refresh token works for the client it was issued
// to only, and a refresh the forge refuses (its grant revoked) is
// invalid_grant, on which clients sign in again.
func TestRefreshBinding(t *testing.T) {
	h := newHarness(t, nil)
	client := h.register(clientRedirect)
	other := h.register(clientRedirect)
	verifier, challenge := pkce("r")
	code := h.signIn(client, clientRedirect, challenge)
	status, tok := h.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {clientRedirect}, "client_id": {client}, "code_verifier": {verifier}})
	require.Equal(t, http.StatusOK, status, tok)
	rt := tok["refresh_token"].(string)

	status, out := h.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}, "client_id": {other}})
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "invalid_grant", out["error"])

	h.forge.mu.Lock()
	h.forge.refreshes = map[string]bool{} // the user revoked the grant
	h.forge.mu.Unlock()
	status, out = h.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}, "client_id": {client}})
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, "invalid_grant", out["error"])
	assert.Contains(t, out["error_description"], "sign in again")
	assert.NotContains(t, out["error_description"], "grant does not exist", "the forge's words stay out")
}

// TestForgeFailures: the forge refusing this server's own application
// credentials, being down, answering garbage, or too many exchanges at
// once, each with its answer; none leaks the forge's text or the secret.
func TestForgeFailures(t *testing.T) {
	tests := []struct {
		name           string
		status         int
		body           string
		wantStatus     int
		wantCode, want string
		log            string
	}{
		{"wrong secret", 400, `{"error":"unauthorized_client","error_description":"invalid client secret"}`, 500, "server_error", "misconfigured", "check --oauth-client-id"},
		{"application deleted", 400, `{"error":"invalid_client","error_description":"cannot load client with client id: 'x'"}`, 500, "server_error", "misconfigured", "check --oauth-client-id"},
		{"forge error page", 500, `<html>boom</html>`, 502, "server_error", "did not answer", "token request at the forge failed"},
		{"token missing", 200, `{"token_type":"bearer"}`, 502, "server_error", "did not answer", "not usable"},
		{"token with a newline", 200, `{"access_token":"a\nb"}`, 502, "server_error", "did not answer", "not usable"},
		{"not JSON", 200, `access_token=x`, 502, "server_error", "did not answer", "not usable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, nil)
			client := h.register(clientRedirect)
			verifier, challenge := pkce("f")
			code := h.signIn(client, clientRedirect, challenge)
			h.forge.tokenStatus, h.forge.tokenBody = tt.status, tt.body
			status, out := h.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {clientRedirect}, "client_id": {client}, "code_verifier": {verifier}})
			assert.Equal(t, tt.wantStatus, status, out)
			assert.Equal(t, tt.wantCode, out["error"])
			assert.Contains(t, out["error_description"], tt.want)
			assert.NotContains(t, out["error_description"], "boom")
			assert.Contains(t, h.log(), tt.log)
			assert.NotContains(t, h.log(), appSecret)
		})
	}
	t.Run("forge unreachable", func(t *testing.T) {
		h := newHarness(t, nil)
		client := h.register(clientRedirect)
		verifier, challenge := pkce("u")
		code := h.signIn(client, clientRedirect, challenge)
		h.forge.Close()
		status, out := h.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {clientRedirect}, "client_id": {client}, "code_verifier": {verifier}})
		assert.Equal(t, http.StatusBadGateway, status)
		assert.Equal(t, "server_error", out["error"])
	})
	t.Run("too many at once", func(t *testing.T) {
		h := newHarness(t, nil)
		client := h.register(clientRedirect)
		verifier, challenge := pkce("b")
		code := h.signIn(client, clientRedirect, challenge)
		for range maxExchanges {
			h.p.exchanges <- struct{}{}
		}
		resp, body := h.do(http.MethodPost, TokenPath, "application/x-www-form-urlencoded", url.Values{"grant_type": {"authorization_code"}, "code": {code},
			"redirect_uri": {clientRedirect}, "client_id": {client}, "code_verifier": {verifier}}.Encode(), nil)
		assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
		assert.Equal(t, "1", resp.Header.Get("Retry-After"))
		assert.Equal(t, "temporarily_unavailable", decodeField(t, body, "error"))
	})
	t.Run("a redirecting token endpoint is not followed", func(t *testing.T) {
		h := newHarness(t, nil)
		client := h.register(clientRedirect)
		verifier, challenge := pkce("d")
		code := h.signIn(client, clientRedirect, challenge)
		var stolen atomic.Int32
		elsewhere := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { stolen.Add(1) }))
		defer elsewhere.Close()
		h.forge.tokenStatus, h.forge.tokenBody, h.forge.tokenLocation = http.StatusTemporaryRedirect, "", elsewhere.URL+"/steal"
		status, _ := h.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {clientRedirect}, "client_id": {client}, "code_verifier": {verifier}})
		assert.Equal(t, http.StatusBadGateway, status)
		assert.Len(t, h.forge.tokenReqs, 1, "the secret was posted once, to the forge's own endpoint")
		assert.Zero(t, stolen.Load(), "the 307 was not followed with the secret")
	})
}
