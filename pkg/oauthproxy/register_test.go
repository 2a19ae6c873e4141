package oauthproxy

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRegister(t *testing.T) {
	h := newHarness(t, nil)
	body := `{"client_name":"Claude Code (forgejo)","redirect_uris":["http://localhost:8765/callback","https://claude.ai/api/mcp/auth_callback"],
		"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"client_secret_basic","scope":"read:user","software_id":"x"}`
	resp, out := h.do(http.MethodPost, RegisterPath, "application/json", body, nil)
	require.Equal(t, http.StatusCreated, resp.StatusCode, out)
	assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "none", got["token_endpoint_auth_method"], "every client is public: a secret asked for is not issued")
	assert.NotContains(t, got, "client_secret")
	assert.Equal(t, "Claude Code (forgejo)", got["client_name"])
	assert.Equal(t, []any{"http://localhost:8765/callback", "https://claude.ai/api/mcp/auth_callback"}, got["redirect_uris"])
	assert.EqualValues(t, h.now().Unix(), got["client_id_issued_at"])

	c, err := h.p.resolveClient(t.Context(), got["client_id"].(string))
	require.NoError(t, err)
	assert.Equal(t, "Claude Code (forgejo)", c.Name)
	assert.False(t, c.Document || c.Forge)
	_, ok := c.redirect("http://localhost:1234/callback")
	assert.True(t, ok)
	assert.Contains(t, h.log(), "oauth: registered a client")
}

// TestRegisterRefusals: each refusal is a 400 with the RFC 7591 code and a
// description of ours that never quotes the client's text.
func TestRegisterRefusals(t *testing.T) {
	h := newHarness(t, nil)
	evil := "<script>alert(1)</script>"
	tests := []struct {
		name, ctype, body, code, desc string
	}{
		{"not JSON content", "text/plain", `{"redirect_uris":["https://a.example/cb"]}`, "invalid_client_metadata", "application/json"},
		{"not JSON", "application/json", `redirect_uris=x`, "invalid_client_metadata", "not a JSON object"},
		{"an array", "application/json", `[1]`, "invalid_client_metadata", "not a JSON object"},
		{"two values", "application/json", `{"redirect_uris":["https://a.example/cb"]} {}`, "invalid_client_metadata", "more than one JSON value"},
		{"wrong type", "application/json", `{"redirect_uris":"https://a.example/cb"}`, "invalid_client_metadata", "must be an array"},
		{"too large", "application/json", `{"client_name":"` + strings.Repeat("x", 20<<10) + `"}`, "invalid_client_metadata", "larger than 16 KiB"},
		{"no redirect", "application/json", `{}`, "invalid_redirect_uri", "redirect_uris is required"},
		{"too many", "application/json", `{"redirect_uris":["https://a.example/1","https://a.example/2","https://a.example/3","https://a.example/4","https://a.example/5","https://a.example/6","https://a.example/7","https://a.example/8","https://a.example/9"]}`, "invalid_redirect_uri", "at most 8"},
		{"http elsewhere", "application/json", `{"redirect_uris":["http://evil.example/cb"]}`, "invalid_redirect_uri", "use https"},
		{"javascript", "application/json", `{"redirect_uris":["javascript:alert(1)//` + "" + `"]}`, "invalid_redirect_uri", "must not use"},
		{"data", "application/json", `{"redirect_uris":["data:text/html,` + evil + `"]}`, "invalid_redirect_uri", "redirect_uris[0]"},
		{"fragment", "application/json", `{"redirect_uris":["https://a.example/cb#x"]}`, "invalid_redirect_uri", "fragment"},
		{"user info", "application/json", `{"redirect_uris":["https://evil.example@a.example/cb"]}`, "invalid_redirect_uri", "user information"},
		{"second one bad", "application/json", `{"redirect_uris":["https://a.example/cb","https://a.example/c b"]}`, "invalid_redirect_uri", "redirect_uris[1]"},
		{"CRLF", "application/json", `{"redirect_uris":["https://a.example/cb\r\nSet-Cookie: x=y"]}`, "invalid_redirect_uri", "control character"},
		{"relative", "application/json", `{"redirect_uris":["/cb"]}`, "invalid_redirect_uri", "not an absolute URI"},
		{"scheme in capitals", "application/json", `{"redirect_uris":["HTTPS://a.example/cb"]}`, "invalid_redirect_uri", "lower case"},
		{"no host", "application/json", `{"redirect_uris":["https:///cb"]}`, "invalid_redirect_uri", "no host"},
		{"opaque", "application/json", `{"redirect_uris":["myapp:callback"]}`, "invalid_redirect_uri", "native app"},
		{"too long", "application/json", `{"redirect_uris":["https://a.example/` + strings.Repeat("a", 600) + `"]}`, "invalid_redirect_uri", "512 bytes"},
		{"name with a bidi override", "application/json", `{"client_name":"Visual Studio Code\u202e","redirect_uris":["https://a.example/cb"]}`, "invalid_client_metadata", "invisible"},
		{"name with a newline", "application/json", `{"client_name":"a\nb","redirect_uris":["https://a.example/cb"]}`, "invalid_client_metadata", "control"},
		{"name too long", "application/json", `{"client_name":"` + strings.Repeat("n", 101) + `","redirect_uris":["https://a.example/cb"]}`, "invalid_client_metadata", "longer than 100"},
		{"no authorization_code", "application/json", `{"grant_types":["client_credentials"],"redirect_uris":["https://a.example/cb"]}`, "invalid_client_metadata", "authorization_code"},
		{"no code", "application/json", `{"response_types":["token"],"redirect_uris":["https://a.example/cb"]}`, "invalid_client_metadata", "response_types"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, out := h.do(http.MethodPost, RegisterPath, tt.ctype, tt.body, nil)
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, out)
			var e map[string]string
			require.NoError(t, json.Unmarshal([]byte(out), &e), out)
			assert.Equal(t, tt.code, e["error"])
			assert.Contains(t, e["error_description"], tt.desc)
			assert.NotContains(t, out, "evil", "nothing the client sent is quoted")
			assert.NotContains(t, out, "alert")
			assert.NotContains(t, out, "<")
		})
	}
	resp, _ := h.do(http.MethodGet, RegisterPath, "", "", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

// TestRegisteredIDs: a registered id is opaque and tamper-proof; another
// key or a flipped character makes it unknown, and the authorization
// endpoint says so on a page of its own.
func TestRegisteredIDs(t *testing.T) {
	h := newHarness(t, nil)
	id := h.register("https://a.example/cb")
	assert.NotContains(t, id, "a.example", "the metadata is sealed, not readable")
	flipped := id[:10] + string(rune(id[10]^1)) + id[11:]
	_, err := h.p.resolveClient(t.Context(), flipped)
	assert.ErrorContains(t, err, "not one this server issued")

	other := newHarness(t, func(c *Config) { c.Keys = [][]byte{[]byte(strings.Repeat("k", 40))} })
	_, err = other.p.resolveClient(t.Context(), id)
	assert.Error(t, err, "another deployment's key")

	rotated := newHarness(t, func(c *Config) { c.Keys = [][]byte{[]byte(strings.Repeat("k", 40)), []byte(testKey)} })
	_, err = rotated.p.resolveClient(t.Context(), id)
	assert.NoError(t, err, "after a rotation the old key still opens")
}
