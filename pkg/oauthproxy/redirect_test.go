package oauthproxy

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckRedirectURI(t *testing.T) {
	good := []string{
		"https://claude.ai/api/mcp/auth_callback",
		"https://vscode.dev/redirect",
		"http://127.0.0.1/",
		"http://127.0.0.1:33418/",
		"http://localhost:8765/callback",
		"http://[::1]:9000/cb?x=1",
		"cursor://anysphere.cursor-retrieval/oauth/user-mcp/callback",
		"com.example.app:/oauth2redirect",
		"com.example.app:callback",
	}
	for _, u := range good {
		assert.NoError(t, checkRedirectURI(u), u)
	}
	bad := []string{
		"", "/cb", "http://example.org/cb", "http://127.0.0.2/cb", "http://localhost.evil.example/cb",
		"javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:text/html,x", "file:///etc/passwd", "vbscript:x",
		"https://a.example/cb#frag", "https://a.example/cb#", "https://u:p@a.example/cb", "https://a.example/ cb",
		"https://a.example/cb\r\n", "https://a.example/é", "myapp:callback", "https://",
	}
	for _, u := range bad {
		assert.Error(t, checkRedirectURI(u), u)
	}
}

// TestRedirectMatches: exact, except for the port of a loopback URI (RFC
// 8252 section 7.3), registered with a port or without.
func TestRedirectMatches(t *testing.T) {
	tests := []struct {
		registered, requested string
		want                  bool
	}{
		{"https://a.example/cb", "https://a.example/cb", true},
		{"https://a.example/cb", "https://a.example/cb/", false},
		{"https://a.example/cb", "https://a.example:443/cb", false},
		{"https://a.example/cb", "https://A.example/cb", false},
		{"https://a.example/cb", "https://a.example/cb?x=1", false},
		{"https://a.example:8443/cb", "https://a.example:9443/cb", false},
		{"http://127.0.0.1/callback", "http://127.0.0.1:51234/callback", true},
		{"http://127.0.0.1:3000/callback", "http://127.0.0.1:51234/callback", true},
		{"http://127.0.0.1:3000/callback", "http://127.0.0.1/callback", true},
		{"http://localhost:8765/callback", "http://localhost:9999/callback", true},
		{"http://[::1]/cb", "http://[::1]:8080/cb", true},
		{"http://127.0.0.1/callback", "http://localhost:51234/callback", false},
		{"http://127.0.0.1/callback", "http://127.0.0.1:51234/other", false},
		{"http://127.0.0.1/callback", "http://127.0.0.1:51234/callback?x", false},
		{"http://127.0.0.1/callback?a=1", "http://127.0.0.1:5/callback?a=1", true},
		{"http://127.0.0.1/callback", "https://127.0.0.1:51234/callback", false},
		{"http://127.0.0.1/callback", "http://127.0.0.1:0/callback", false},
		{"http://127.0.0.1/callback", "http://127.0.0.1:65536/callback", false},
		{"http://127.0.0.1/callback", "http://127.0.0.1:051/callback", false},
		{"http://127.0.0.1/callback", "http://evil@127.0.0.1:5/callback", false},
		{"http://127.0.0.1/callback", "http://127.0.0.1:5/callback#x", false},
		{"http://127.0.0.1/callback", "http://127.0.0.1:5/%63allback", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, redirectMatches(tt.registered, tt.requested), "%s vs %s", tt.registered, tt.requested)
	}
}

func TestWithParams(t *testing.T) {
	q := url.Values{"code": {"c d"}, "state": {"s&t"}}
	assert.Equal(t, "https://a.example/cb?code=c+d&state=s%26t", withParams("https://a.example/cb", q))
	assert.Equal(t, "https://a.example/cb?b=2&a=1&code=c+d&state=s%26t", withParams("https://a.example/cb?b=2&a=1", q), "the registered query stays as it is")
	assert.Equal(t, "https://a.example/cb?code=c+d&state=s%26t", withParams("https://a.example/cb?", q))
}
