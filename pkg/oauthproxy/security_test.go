package oauthproxy

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNothingSecretIsLogged: through a whole flow (registration, consent,
// sign-in, code exchange, refresh) the log names steps and clients, never
// a code, a state, a token, the client secret or the sealing key.
func TestNothingSecretIsLogged(t *testing.T) {
	h := newHarness(t, nil)
	client := h.register(clientRedirect)
	verifier, challenge := pkce("s")
	code := h.signIn(client, clientRedirect, challenge)
	status, tok := h.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {clientRedirect}, "client_id": {client}, "code_verifier": {verifier}})
	require.Equal(t, http.StatusOK, status)
	status, tok2 := h.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {client}})
	require.Equal(t, http.StatusOK, status)
	h.forge.tokenStatus, h.forge.tokenBody = 400, `{"error":"unauthorized_client","error_description":"invalid client secret"}`
	h.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok2["refresh_token"].(string)}, "client_id": {client}})

	log := h.log()
	for _, secret := range []string{appSecret, testKey, code, verifier, client, tok["access_token"].(string), tok["refresh_token"].(string),
		tok2["access_token"].(string), "forge-refresh", "forgecode", "client-state-1"} {
		assert.NotContains(t, log, secret)
	}
	assert.Contains(t, log, "oauth: issued tokens for a sign-in")
	assert.Contains(t, log, "oauth: refreshed tokens")
	assert.Contains(t, log, "check --oauth-client-id")
}

// TestNoOpenRedirect: no request makes the proxy send a browser anywhere
// but to a client's registered redirect URI or the forge.
func TestNoOpenRedirect(t *testing.T) {
	h := newHarness(t, nil)
	client := h.register("https://client.example/cb")
	_, ch := pkce("o")
	attempts := []string{
		AuthorizePath + "?" + authParams(client, "https://evil.example/cb", ch).Encode(),
		AuthorizePath + "?" + authParams(client, "https://client.example/cb/../../evil", ch).Encode(),
		AuthorizePath + "?" + authParams(client, "https://client.example.evil.example/cb", ch).Encode(),
		AuthorizePath + "?" + authParams(client, "//evil.example/cb", ch).Encode(),
		AuthorizePath + "?" + authParams("nobody", "https://evil.example/cb", ch).Encode(),
		CallbackPath + "?state=x&code=y&redirect_uri=https://evil.example/",
		CallbackPath + "?error=access_denied&redirect_uri=https://evil.example/",
	}
	for _, a := range attempts {
		resp, _ := h.do(http.MethodGet, a, "", "", nil)
		loc := resp.Header.Get("Location")
		assert.False(t, strings.Contains(loc, "evil"), "%s redirected to %q", a, loc)
		assert.NotContains(t, []int{301, 302, 303, 307, 308}, resp.StatusCode, a)
	}
}

// TestCodeInjection: a client's name and redirect URI reach the consent
// page only escaped, and a CRLF cannot reach a Location header.
func TestCodeInjection(t *testing.T) {
	h := newHarness(t, nil)
	b, _ := jsonBody(map[string]any{"client_name": `</strong><script>alert(document.cookie)</script>`, "redirect_uris": []string{`https://client.example/cb?a="><svg/onload=alert(1)>`}})
	_, body := h.do(http.MethodPost, RegisterPath, "application/json", b, nil)
	client := decodeField(t, body, "client_id")
	require.NotEmpty(t, client, body)
	_, ch := pkce("i")
	_, page := h.do(http.MethodGet, AuthorizePath+"?"+authParams(client, `https://client.example/cb?a="><svg/onload=alert(1)>`, ch).Encode(), "", "", nil)
	assert.NotContains(t, page, "<script>")
	assert.NotContains(t, page, "<svg")
	assert.Contains(t, page, "&lt;script&gt;")
	assert.Equal(t, 1, bytes.Count([]byte(page), []byte("<form")), "no form but the proxy's")

	q := authParams(client, `https://client.example/cb?a="><svg/onload=alert(1)>`, ch)
	q.Set("state", "x\r\nSet-Cookie: pwned=1")
	resp, _ := h.do(http.MethodGet, AuthorizePath+"?"+q.Encode(), "", "", nil)
	assert.Empty(t, resp.Header.Values("Set-Cookie"), "no header from the state")
	assert.NotContains(t, resp.Header.Get("Location"), "\n")
}
