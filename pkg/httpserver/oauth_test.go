package httpserver

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/oauthproxy"
)

const proxySecret = "gto_proxy_secret_0123456789abcdefghij"

func withProxy(o *Options) {
	o.OAuthProxy = &oauthproxy.Config{ClientID: "0c6e1f6a-3a42-4b1e-9d61-2f1e8b7a9c10", ClientSecret: proxySecret,
		Keys: [][]byte{[]byte("0123456789abcdef0123456789abcdef-key")}}
}

// TestProxyMounted: with the proxy on, the protected resource metadata
// names this server as the authorization server, whose metadata and
// endpoints are served behind the same host guard; without it, the forge.
func TestProxyMounted(t *testing.T) {
	fx := newFixture(t, withProxy)
	get := func(path string, edit func(*http.Request)) (*http.Response, string) {
		req, err := http.NewRequest(http.MethodGet, fx.http.URL+path, nil)
		require.NoError(t, err)
		if edit != nil {
			edit(req)
		}
		return do(t, req)
	}
	_, body := get(MetadataPath+EndpointPath, nil)
	var prm struct {
		AuthorizationServers []string `json:"authorization_servers"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &prm))
	assert.Equal(t, []string{fx.http.URL}, prm.AuthorizationServers)

	resp, body := get(oauthproxy.MetadataPath, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `"registration_endpoint":"`+fx.http.URL+`/oauth/register"`)

	resp, _ = get(oauthproxy.MetadataPath, func(r *http.Request) { r.Host = "evil.example" })
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "the DNS-rebinding guard covers the proxy")
	resp, _ = get(oauthproxy.AuthorizePath, func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") })
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	plain := newFixture(t, nil)
	resp, _ = do(t, mustRequest(t, plain.http.URL+oauthproxy.MetadataPath))
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "off by default")
	_, body = do(t, mustRequest(t, plain.http.URL+MetadataPath+EndpointPath))
	assert.Contains(t, body, `"authorization_servers":["`+plain.forge.URL+`"]`)
}

// TestProxySecretMasked: the forge application's secret is masked in what
// the server writes, like a request's own token.
func TestProxySecretMasked(t *testing.T) {
	fx := newFixture(t, withProxy)
	fx.srv.log.Info("a line quoting " + proxySecret)
	assert.NotContains(t, fx.logs.String(), proxySecret)
	resp, body := fx.post(t, rpc{Method: "tools/call", Params: map[string]any{"name": proxySecret, "arguments": map[string]any{}}, Auth: "Bearer " + tokAlice})
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.NotContains(t, body, proxySecret, "an answer echoing it")
}

func mustRequest(t *testing.T, u string) *http.Request {
	req, err := http.NewRequest(http.MethodGet, u, nil)
	require.NoError(t, err)
	return req
}

// TestAppRegistrationDescribed: the confidential application docs/http.md
// tells an operator to register through the API can be registered on
// every forge version described here: the route and its members.
func TestAppRegistrationDescribed(t *testing.T) {
	specs, err := filepath.Glob("../../internal/fakeforge/specs/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, specs)
	for _, path := range specs {
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		var spec struct {
			Routes      map[string]json.RawMessage `json:"routes"`
			Definitions map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"definitions"`
		}
		require.NoError(t, json.Unmarshal(raw, &spec), path)
		name := filepath.Base(path)
		assert.Contains(t, spec.Routes, "POST /user/applications/oauth2", name)
		for _, member := range []string{"name", "redirect_uris", "confidential_client"} {
			assert.Contains(t, spec.Definitions["CreateOAuth2ApplicationOptions"].Properties, member, name)
		}
		for _, member := range []string{"client_id", "client_secret"} {
			assert.Contains(t, spec.Definitions["OAuth2Application"].Properties, member, name)
		}
	}
}
