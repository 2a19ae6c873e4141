package oauthproxy

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docServer serves client metadata documents; doc edits the document of
// its own URL, or answers itself when it returns false.
type docServer struct {
	*httptest.Server
	fetches atomic.Int32
	answer  atomic.Pointer[func(w http.ResponseWriter, self string) bool]
}

func newDocServer(t *testing.T, tlsServer bool) *docServer {
	d := &docServer{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.fetches.Add(1)
		self := d.URL + r.URL.Path
		if a := d.answer.Load(); a != nil && (*a)(w, self) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"client_id": self, "client_name": "Doc Client",
			"redirect_uris": []string{"http://127.0.0.1/callback"}, "token_endpoint_auth_method": "none",
			"grant_types": []string{"authorization_code", "refresh_token"}})
	})
	if tlsServer {
		d.Server = httptest.NewTLSServer(h)
	} else {
		d.Server = httptest.NewServer(h)
	}
	t.Cleanup(d.Close)
	return d
}

func (d *docServer) set(f func(w http.ResponseWriter, self string) bool) { d.answer.Store(&f) }

// TestDocumentFlow: a client whose id is its metadata document's URL signs
// in and gets tokens; the consent page names the document's host.
func TestDocumentFlow(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.CIMD.AllowPrivate = true })
	docs := newDocServer(t, false)
	id := docs.URL + "/client.json"
	verifier, challenge := pkce("d")
	b := h.browser()
	resp, page := b.get(h.srv.URL + AuthorizePath + "?" + authParams(id, "http://127.0.0.1:4000/callback", challenge).Encode())
	require.Equal(t, http.StatusOK, resp.StatusCode, page)
	assert.Contains(t, page, "The application at <strong>"+strings.TrimPrefix(docs.URL, "http://")+"</strong>, which calls itself <strong>Doc Client</strong>")
	request := requestField.FindStringSubmatch(page)[1]
	resp = b.consent(request, "allow")
	require.Equal(t, http.StatusFound, resp.StatusCode)
	loc, _ := resp.Location()
	status, tok := h.token(url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "redirect_uri": {"http://127.0.0.1:4000/callback"},
		"client_id": {id}, "code_verifier": {verifier}})
	require.Equal(t, http.StatusOK, status, tok)
	assert.EqualValues(t, 1, docs.fetches.Load(), "fetched once; the token request trusts the code's binding")
}

// TestDocumentRefusals: each way a document can be unusable, refused on
// the proxy's page with its reason, which never quotes the document.
func TestDocumentRefusals(t *testing.T) {
	tests := []struct {
		name   string
		answer func(w http.ResponseWriter, self string) bool
		want   string
	}{
		{"not found", func(w http.ResponseWriter, _ string) bool { http.NotFound(w, nil); return true }, "answered 404"},
		{"redirects", func(w http.ResponseWriter, _ string) bool {
			w.Header().Set("Location", "http://169.254.169.254/latest/meta-data/")
			w.WriteHeader(http.StatusFound)
			return true
		}, "it redirects"},
		{"HTML", func(w http.ResponseWriter, _ string) bool {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html>evil</html>"))
			return true
		}, "not served as application/json"},
		{"too large", func(w http.ResponseWriter, self string) bool {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"client_id": self, "redirect_uris": []string{"http://127.0.0.1/cb"}, "x": strings.Repeat("a", DocumentMaxBytes)})
			return true
		}, "larger than 5120 bytes"},
		{"another client's id", func(w http.ResponseWriter, _ string) bool {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"client_id":"https://evil.example/c.json","redirect_uris":["http://127.0.0.1/cb"]}`))
			return true
		}, "not its own URL"},
		{"a client secret", func(w http.ResponseWriter, self string) bool {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"client_id":"` + self + `","redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"client_secret_basic"}`))
			return true
		}, "other than none"},
		{"private_key_jwt", func(w http.ResponseWriter, self string) bool {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"client_id":"` + self + `","redirect_uris":["http://127.0.0.1/cb"],"token_endpoint_auth_method":"private_key_jwt"}`))
			return true
		}, "other than none"},
		{"a bad redirect", func(w http.ResponseWriter, self string) bool {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"client_id":"` + self + `","redirect_uris":["http://evil.example/cb"]}`))
			return true
		}, "redirect_uris[0]"},
		{"not an object", func(w http.ResponseWriter, _ string) bool {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`["evil"]`))
			return true
		}, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(c *Config) { c.CIMD.AllowPrivate = true })
			docs := newDocServer(t, false)
			docs.set(tt.answer)
			_, ch := pkce("r")
			resp, body := h.do(http.MethodGet, AuthorizePath+"?"+authParams(docs.URL+"/c.json", "http://127.0.0.1:5/cb", ch).Encode(), "", "", nil)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Empty(t, resp.Header.Get("Location"))
			assert.Contains(t, body, tt.want)
			assert.NotContains(t, body, "evil")
			assert.NotContains(t, body, "169.254")
		})
	}
}

// TestDocumentAddresses: without AllowPrivate a document on a loopback or
// private address is refused at dial time, and http is refused outright.
func TestDocumentAddresses(t *testing.T) {
	h := newHarness(t, nil)
	docs := newDocServer(t, true)
	_, ch := pkce("p")
	resp, body := h.do(http.MethodGet, AuthorizePath+"?"+authParams(docs.URL+"/c.json", "http://127.0.0.1:5/cb", ch).Encode(), "", "", nil)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, body, "private or local address")
	assert.Zero(t, docs.fetches.Load(), "nothing was sent to it")

	plain := newDocServer(t, false)
	resp, body = h.do(http.MethodGet, AuthorizePath+"?"+authParams(plain.URL+"/c.json", "http://127.0.0.1:5/cb", ch).Encode(), "", "", nil)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, body, "must use https")

	// Allowed, the same https server is fetched (its test CA trusted).
	h2 := newHarness(t, func(c *Config) {
		c.CIMD = CIMDOptions{AllowPrivate: true, RootCAs: docs.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs}
	})
	resp, body = h2.do(http.MethodGet, AuthorizePath+"?"+authParams(docs.URL+"/c.json", "http://127.0.0.1:5/callback", ch).Encode(), "", "", nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode, body)
}

// TestDocumentCache: a document is used for its max-age (5 minutes
// without one), not at all with no-store; a failure is remembered briefly.
func TestDocumentCache(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.CIMD.AllowPrivate = true })
	docs := newDocServer(t, false)
	get := func(path string) error {
		_, err := h.p.documents.get(t.Context(), docs.URL+path)
		return err
	}
	require.NoError(t, get("/a.json"))
	require.NoError(t, get("/a.json"))
	assert.EqualValues(t, 1, docs.fetches.Load())
	h.advance(documentTTL + time.Second)
	require.NoError(t, get("/a.json"))
	assert.EqualValues(t, 2, docs.fetches.Load(), "fetched again after 5 minutes")

	var cc atomic.Value
	cc.Store("no-store")
	docs.set(func(w http.ResponseWriter, _ string) bool {
		w.Header().Set("Cache-Control", cc.Load().(string))
		return false
	})
	require.NoError(t, get("/b.json"))
	require.NoError(t, get("/b.json"))
	assert.EqualValues(t, 4, docs.fetches.Load(), "no-store: fetched each time")

	cc.Store("public, max-age=60")
	require.NoError(t, get("/c.json"))
	h.advance(59 * time.Second)
	require.NoError(t, get("/c.json"))
	assert.EqualValues(t, 5, docs.fetches.Load())
	h.advance(2 * time.Second)
	require.NoError(t, get("/c.json"))
	assert.EqualValues(t, 6, docs.fetches.Load(), "max-age honoured")

	docs.set(func(w http.ResponseWriter, _ string) bool { http.NotFound(w, nil); return true })
	assert.Error(t, get("/d.json"))
	assert.Error(t, get("/d.json"))
	assert.EqualValues(t, 7, docs.fetches.Load(), "a failure is remembered")
	h.advance(documentFailTTL + time.Second)
	assert.Error(t, get("/d.json"))
	assert.EqualValues(t, 8, docs.fetches.Load(), "briefly")

	for range documentFetches {
		h.p.documents.slots <- struct{}{}
	}
	assert.ErrorContains(t, get("/e.json"), "too many client metadata documents")
}

func TestCacheTTL(t *testing.T) {
	assert.Equal(t, documentTTL, cacheTTL(""))
	assert.Equal(t, time.Duration(0), cacheTTL("no-cache"))
	assert.Equal(t, 30*time.Second, cacheTTL("max-age=30"))
	assert.Equal(t, documentMaxTTL, cacheTTL("max-age=99999999"))
	assert.Equal(t, documentTTL, cacheTTL("max-age=x, private"))
}

func TestCheckDocumentURL(t *testing.T) {
	d := newDocuments(CIMDOptions{}, time.Now)
	allowed := newDocuments(CIMDOptions{AllowPrivate: true}, time.Now)
	good := []string{"https://claude.ai/oauth/claude-code-client-metadata", "https://a.example/c.json?v=2"}
	for _, u := range good {
		_, err := d.checkDocumentURL(u)
		assert.NoError(t, err, u)
	}
	bad := []string{"https://a.example", "https://a.example/", "https://a.example/./c.json", "https://a.example/x/../c.json",
		"https://a.example/c.json#x", "https://u@a.example/c.json", "http://a.example/c.json", "http://127.0.0.1/c.json",
		"https://a.example/" + strings.Repeat("a", 600), "https://a.example/é", "https:///c.json"}
	for _, u := range bad {
		_, err := d.checkDocumentURL(u)
		assert.Error(t, err, u)
	}
	_, err := allowed.checkDocumentURL("http://127.0.0.1:9/c.json")
	assert.NoError(t, err, "plain http on loopback when private addresses are allowed")
	_, err = allowed.checkDocumentURL("http://a.example/c.json")
	assert.Error(t, err, "but only on loopback")
}

func TestPublicAddr(t *testing.T) {
	public := []string{"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "::ffff:93.184.216.34", "64:ff9b::5db8:d822", "2002:5db8:d822::1"}
	for _, a := range public {
		assert.True(t, publicAddr(netip.MustParseAddr(a)), a)
	}
	private := []string{"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "0.1.2.3",
		"::1", "::", "fe80::1", "fc00::1", "fd12::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:a00:1::1",
		"192.0.2.1", "198.18.0.1", "240.0.0.1", "255.255.255.255", "224.0.0.1", "ff02::1", "2001:db8::1", "2001::1"}
	for _, a := range private {
		assert.False(t, publicAddr(netip.MustParseAddr(a)), a)
	}
}
