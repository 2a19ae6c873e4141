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

// TestAuthorizeRefusedOnAPage: until the client and its redirect URI are
// known good, a refusal is a page of the proxy's own, never a redirect,
// and quotes nothing the request carried.
func TestAuthorizeRefusedOnAPage(t *testing.T) {
	h := newHarness(t, nil)
	client := h.register("https://client.example/cb", "http://127.0.0.1/callback")
	_, ch := pkce("a")
	good := authParams(client, "https://client.example/cb", ch)
	with := func(k, v string) url.Values {
		q := url.Values{}
		for kk, vv := range good {
			q[kk] = vv
		}
		q.Set(k, v)
		return q
	}
	tests := []struct {
		name string
		q    url.Values
		want string
	}{
		{"no client_id", with("client_id", ""), "client_id is missing"},
		{"unknown client_id", with("client_id", "evil-<b>client</b>"), "not one this server issued"},
		{"tampered client_id", with("client_id", client[:len(client)-2]+"AA"), "not one this server issued"},
		{"two client_ids", func() url.Values { q := with("x", ""); q.Add("client_id", "other"); return q }(), "more than one"},
		{"unregistered redirect", with("redirect_uri", "https://evil.example/cb"), "not one the client registered"},
		{"registered host, other path", with("redirect_uri", "https://client.example/cb2"), "not one the client registered"},
		{"loopback, other path", with("redirect_uri", "http://127.0.0.1:5000/evil"), "not one the client registered"},
		{"loopback, other host", with("redirect_uri", "http://localhost:5000/callback"), "not one the client registered"},
		{"no redirect with two registered", with("redirect_uri", ""), "not one the client registered"},
		{"two redirects", func() url.Values { q := with("x", ""); q.Add("redirect_uri", "https://evil.example/cb"); return q }(), "more than one"},
		{"a document URL over http", with("client_id", "http://client.example/doc.json"), "must use https"},
		{"the server's own application", with("client_id", appID), "own application at the forge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := h.do(http.MethodGet, AuthorizePath+"?"+tt.q.Encode(), "", "", nil)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Empty(t, resp.Header.Get("Location"), "never a redirect")
			assert.Contains(t, body, tt.want)
			assert.NotContains(t, body, "evil")
			assert.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"))
			assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
		})
	}
	resp, _ := h.do(http.MethodPost, AuthorizePath, "", "", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

// TestAuthorizeErrorsGoBack: once the redirect URI is the client's own,
// refusals go back to it with an error of the proxy's and the client's
// state (only when that state is well-formed).
func TestAuthorizeErrorsGoBack(t *testing.T) {
	h := newHarness(t, nil)
	client := h.register("https://client.example/cb")
	_, ch := pkce("a")
	good := authParams(client, "https://client.example/cb", ch)
	with := func(edit func(url.Values)) url.Values {
		q := url.Values{}
		for k, v := range good {
			q[k] = append([]string(nil), v...)
		}
		edit(q)
		return q
	}
	tests := []struct {
		name, code, state string
		q                 url.Values
	}{
		{"implicit grant", "unsupported_response_type", "client-state-1", with(func(q url.Values) { q.Set("response_type", "token") })},
		{"no PKCE", "invalid_request", "client-state-1", with(func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") })},
		{"plain PKCE", "invalid_request", "client-state-1", with(func(q url.Values) { q.Set("code_challenge_method", "plain") })},
		{"short challenge", "invalid_request", "client-state-1", with(func(q url.Values) { q.Set("code_challenge", "abc") })},
		{"challenge not base64url", "invalid_request", "client-state-1", with(func(q url.Values) { q.Set("code_challenge", strings.Repeat("+", 43)) })},
		{"another resource", "invalid_target", "client-state-1", with(func(q url.Values) { q.Set("resource", "https://other.example/mcp") })},
		{"a parameter twice", "invalid_request", "client-state-1", with(func(q url.Values) { q.Add("scope", "a"); q.Add("scope", "b") })},
		{"state with a newline", "invalid_request", "", with(func(q url.Values) { q.Set("state", "a\r\nLocation: https://evil.example/") })},
		{"state too long", "invalid_request", "", with(func(q url.Values) { q.Set("state", strings.Repeat("s", 513)) })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, _ := h.do(http.MethodGet, AuthorizePath+"?"+tt.q.Encode(), "", "", nil)
			require.Equal(t, http.StatusSeeOther, resp.StatusCode)
			loc, err := resp.Location()
			require.NoError(t, err)
			assert.Equal(t, "client.example", loc.Host)
			assert.Equal(t, tt.code, loc.Query().Get("error"))
			assert.Equal(t, tt.state, loc.Query().Get("state"))
			assert.NotContains(t, loc.String(), "evil")
		})
	}
}

// TestConsentPage: the page names the client, where the access goes and
// what it allows, escapes everything, cannot be framed or cached, and
// sets the binding cookie.
func TestConsentPage(t *testing.T) {
	h := newHarness(t, nil)
	b, _ := jsonBody(map[string]any{"client_name": `<img src=x onerror=alert(1)> "Claude"`, "redirect_uris": []string{"http://localhost/callback", "https://client.example/cb?x=<y>"}})
	resp, body := h.do(http.MethodPost, RegisterPath, "application/json", b, nil)
	require.Equal(t, http.StatusCreated, resp.StatusCode, body)
	client := decodeField(t, body, "client_id")
	_, ch := pkce("a")
	q := authParams(client, "http://localhost:8765/callback", ch)
	resp, page := h.do(http.MethodGet, AuthorizePath+"?"+q.Encode(), "", "", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, page, "&lt;img src=x onerror=alert(1)&gt; &#34;Claude&#34;", "the name, escaped")
	assert.NotContains(t, page, "<img")
	assert.Contains(t, page, "http://localhost:8765/callback")
	assert.Contains(t, page, "this computer (localhost:8765)")
	assert.Contains(t, page, "program on this computer", "the loopback warning")
	assert.Contains(t, page, "nobody has checked its name")
	assert.Contains(t, page, "everything you can do on 127.0.0.1")
	assert.NotContains(t, page, "<script")
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	assert.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"))
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'none'")
	assert.Equal(t, "no-referrer", resp.Header.Get("Referrer-Policy"))
	cookies := resp.Cookies()
	require.Len(t, cookies, 1)
	assert.Equal(t, bindCookie, cookies[0].Name, "http: no __Host- prefix, which browsers refuse there")
	assert.True(t, cookies[0].HttpOnly)
	assert.Equal(t, http.SameSiteLaxMode, cookies[0].SameSite)
	assert.Equal(t, "/", cookies[0].Path)

	q2 := authParams(client, "https://client.example/cb?x=<y>", ch)
	_, page = h.do(http.MethodGet, AuthorizePath+"?"+q2.Encode(), "", "", nil)
	assert.Contains(t, page, "https://client.example/cb?x=&lt;y&gt;")
	assert.NotContains(t, page, "program on this computer")
}

// TestConsentPageOverHTTPS: the binding cookie is __Host- and Secure.
func TestConsentPageOverHTTPS(t *testing.T) {
	h := newHarness(t, func(c *Config) {
		c.Base = func(r *http.Request) *url.URL { return &url.URL{Scheme: "https", Host: r.Host} }
	})
	client := h.register("https://client.example/cb")
	_, ch := pkce("a")
	resp, _ := h.do(http.MethodGet, AuthorizePath+"?"+authParams(client, "https://client.example/cb", ch).Encode(), "", "", nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	c := resp.Cookies()[0]
	assert.Equal(t, "__Host-fmcp-oauth", c.Name)
	assert.True(t, c.Secure)
}

// TestConsentRefusals: an approval counts only from the proxy's page, in
// the browser the page was made for, before it expires.
func TestConsentRefusals(t *testing.T) {
	h := newHarness(t, nil)
	client := h.register("https://client.example/cb")
	_, ch := pkce("a")
	b := h.browser()
	request := b.authorize(authParams(client, "https://client.example/cb", ch))
	post := func(form url.Values, edit func(*http.Request)) (*http.Response, string) {
		return h.do(http.MethodPost, ConsentPath, "application/x-www-form-urlencoded", form.Encode(), func(r *http.Request) {
			for _, c := range b.http.Jar.Cookies(mustURL(h.srv.URL)) {
				r.AddCookie(c)
			}
			if edit != nil {
				edit(r)
			}
		})
	}
	allow := url.Values{"request": {request}, "decision": {"allow"}}
	tests := []struct {
		name   string
		form   url.Values
		edit   func(*http.Request)
		status int
		want   string
	}{
		{"from another site's page", allow, func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, http.StatusForbidden, "did not come from this server"},
		{"Origin null", allow, func(r *http.Request) { r.Header.Set("Origin", "null") }, http.StatusForbidden, "did not come from this server"},
		{"cross-site fetch", allow, func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }, http.StatusForbidden, "did not come from this server"},
		{"in another browser", allow, func(r *http.Request) { r.Header.Del("Cookie") }, http.StatusBadRequest, "another browser"},
		{"with another browser's cookie", allow, func(r *http.Request) {
			r.Header.Del("Cookie")
			r.AddCookie(&http.Cookie{Name: bindCookie, Value: randomString(16)})
		}, http.StatusBadRequest, "another browser"},
		{"tampered", url.Values{"request": {request[:len(request)-3] + "AAA"}, "decision": {"allow"}}, nil, http.StatusBadRequest, "not valid or has expired"},
		{"no request", url.Values{"decision": {"allow"}}, nil, http.StatusBadRequest, "not valid or has expired"},
		{"unknown decision", url.Values{"request": {request}, "decision": {"maybe"}}, nil, http.StatusBadRequest, "could not be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(tt.form, tt.edit)
			assert.Equal(t, tt.status, resp.StatusCode, body)
			assert.Empty(t, resp.Header.Get("Location"))
			assert.Contains(t, body, tt.want)
		})
	}
	t.Run("a state is not an approval", func(t *testing.T) {
		var f flow
		require.NoError(t, h.p.seal.open(purposeConsent, request, &f))
		state, _ := h.p.seal.seal(purposeState, f)
		resp, body := post(url.Values{"request": {state}, "decision": {"allow"}}, nil)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
	})
	t.Run("expired", func(t *testing.T) {
		h.advance(consentTTL + time.Second)
		defer h.advance(-consentTTL - time.Second)
		resp, body := post(allow, nil)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		assert.Contains(t, body, "expired")
	})
	resp, _ := h.do(http.MethodGet, ConsentPath, "", "", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Empty(t, h.forge.scopes, "nothing reached the forge")

	t.Run("deny goes back to the client", func(t *testing.T) {
		resp, _ := post(url.Values{"request": {request}, "decision": {"deny"}}, nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		loc, _ := resp.Location()
		assert.Equal(t, "client.example", loc.Host)
		assert.Equal(t, "access_denied", loc.Query().Get("error"))
		assert.Equal(t, "client-state-1", loc.Query().Get("state"))
	})
	t.Run("allow goes to the forge", func(t *testing.T) {
		resp, _ := post(allow, nil)
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		loc, _ := resp.Location()
		assert.True(t, strings.HasPrefix(loc.String(), h.forge.URL+"/login/oauth/authorize?"))
		assert.Equal(t, appID, loc.Query().Get("client_id"))
		assert.NotContains(t, loc.RawQuery, "client.example", "the client's redirect is sealed inside the state")
	})
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
