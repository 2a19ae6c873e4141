package oauthproxy

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startAtForge runs a flow up to the forge and returns the browser and the
// state the proxy sent there.
func startAtForge(t *testing.T, h *harness, client, redirect string) (*browser, string) {
	t.Helper()
	_, ch := pkce("c")
	b := h.browser()
	request := b.authorize(authParams(client, redirect, ch))
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+ConsentPath, strings.NewReader(url.Values{"request": {request}, "decision": {"allow"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	stop := *b.http
	stop.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := stop.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	loc, _ := resp.Location()
	return b, loc.Query().Get("state")
}

// TestCallbackRefusals: the forge's answer counts only with a state the
// proxy sealed after consent, in the browser that consented, in time; a
// refusal is a page, never a redirect to anywhere.
func TestCallbackRefusals(t *testing.T) {
	h := newHarness(t, nil)
	client := h.register("https://client.example/cb")
	b, state := startAtForge(t, h, client, "https://client.example/cb")
	callback := func(q url.Values, cookies bool) (*http.Response, string) {
		return h.do(http.MethodGet, CallbackPath+"?"+q.Encode(), "", "", func(r *http.Request) {
			if cookies {
				for _, c := range b.http.Jar.Cookies(mustURL(h.srv.URL)) {
					r.AddCookie(c)
				}
			}
		})
	}
	var f flow
	require.NoError(t, h.p.seal.open(purposeState, state, &f))
	consentBlob, _ := h.p.seal.seal(purposeConsent, f)
	tests := []struct {
		name    string
		q       url.Values
		cookies bool
		want    string
	}{
		{"no state", url.Values{"code": {"forgecode"}}, true, "does not belong"},
		{"tampered state", url.Values{"code": {"c"}, "state": {state[:len(state)-2] + "AA"}}, true, "does not belong"},
		{"a consent as state", url.Values{"code": {"c"}, "state": {consentBlob}}, true, "does not belong"},
		{"two states", url.Values{"code": {"c"}, "state": {state, state}}, true, "does not belong"},
		{"another browser (login CSRF)", url.Values{"code": {"attackers-code"}, "state": {state}}, false, "another browser"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := callback(tt.q, tt.cookies)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Empty(t, resp.Header.Get("Location"))
			assert.Contains(t, body, tt.want)
		})
	}
	t.Run("expired", func(t *testing.T) {
		h.advance(stateTTL + time.Second)
		defer h.advance(-stateTTL - time.Second)
		resp, _ := callback(url.Values{"code": {"c"}, "state": {state}}, true)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	})
	back := func(q url.Values) url.Values {
		t.Helper()
		resp, _ := callback(q, true)
		require.Contains(t, []int{http.StatusFound, http.StatusSeeOther}, resp.StatusCode)
		loc, _ := resp.Location()
		require.Equal(t, "client.example", loc.Host)
		return loc.Query()
	}
	t.Run("the forge's refusal goes back in the proxy's words", func(t *testing.T) {
		got := back(url.Values{"state": {state}, "error": {"server_error"}, "error_description": {"<script>x</script> at https://evil.example"}})
		assert.Equal(t, "server_error", got.Get("error"))
		assert.Equal(t, "the forge refused the sign-in", got.Get("error_description"))
		assert.Equal(t, "client-state-1", got.Get("state"))
	})
	t.Run("denied at the forge", func(t *testing.T) {
		got := back(url.Values{"state": {state}, "error": {"access_denied"}, "error_description": {"the request is denied"}})
		assert.Equal(t, "access_denied", got.Get("error"))
	})
	t.Run("a grant with another scope", func(t *testing.T) {
		got := back(url.Values{"state": {state}, "error": {"server_error"}, "error_description": {knownGrantClash}})
		assert.Contains(t, got.Get("error_description"), "revoke it in the forge's settings")
	})
	t.Run("no code", func(t *testing.T) {
		got := back(url.Values{"state": {state}})
		assert.Equal(t, "server_error", got.Get("error"))
	})
	t.Run("a code with a newline", func(t *testing.T) {
		got := back(url.Values{"state": {state}, "code": {"a\nb"}})
		assert.Equal(t, "server_error", got.Get("error"))
	})
	t.Run("a code", func(t *testing.T) {
		got := back(url.Values{"state": {state}, "code": {"forgecode9999"}})
		assert.Equal(t, "client-state-1", got.Get("state"))
		var c issued
		require.NoError(t, h.p.seal.open(purposeCode, got.Get("code"), &c))
		assert.Equal(t, "forgecode9999", c.ForgeCode)
		assert.Equal(t, clientHash(client), c.Client)
		assert.Equal(t, h.now().Add(codeTTL).Unix(), c.Exp)
	})
	resp, _ := h.do(http.MethodPost, CallbackPath, "", "", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

// TestGrantClashFromForge: the forge's "a grant exists with different
// scope" reaches the client as advice, through the whole flow.
func TestGrantClashFromForge(t *testing.T) {
	h := newHarness(t, nil)
	h.forge.authError, h.forge.authErrorDesc = "server_error", knownGrantClash
	client := h.register("https://client.example/cb")
	_, ch := pkce("a")
	b := h.browser()
	resp := b.consent(b.authorize(authParams(client, "https://client.example/cb", ch)), "allow")
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	loc, _ := resp.Location()
	assert.Equal(t, "server_error", loc.Query().Get("error"))
	assert.Contains(t, loc.Query().Get("error_description"), "earlier grant")
}
