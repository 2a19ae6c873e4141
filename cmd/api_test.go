package cmd

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// TestAPI: forgejo-mcp api calls a route below /api/v1 with the
// configured token, JSON in and out, through the same checks as the
// tools, and never shows the token.
func TestAPI(t *testing.T) {
	f := fakeforge.New(t)
	var got struct {
		method, query, body, auth string
	}
	f.Handle("/api/v1/repos/o/r/topics", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.method, got.query, got.body, got.auth = r.Method, r.URL.RawQuery, string(b), r.Header.Get("Authorization")
		fakeforge.WriteJSON(w, 200, map[string]any{"topics": []string{"go", "mcp"}, "echo": "token " + fakeforge.Token, "hidden": "a\u202eb"})
	})
	f.JSON("GET /api/v1/repos/o/nope", 404, map[string]any{"message": "repository does not exist"})
	env := fakeEnv(f)
	input := filepath.Join(t.TempDir(), "body.json")
	require.NoError(t, os.WriteFile(input, []byte(`{"topics":["x"]}`), 0o600))
	tests := []struct {
		name                    string
		args                    []string
		code                    int
		method, query, body, in string
		out, err                string
	}{
		{name: "GET", args: []string{"repos/o/r/topics"}, method: "GET", out: `"go"`},
		{name: "/api/v1 prefix and a query", args: []string{"/api/v1/repos/o/r/topics?page=2"}, method: "GET", query: "page=2"},
		{name: "fields in the query of a GET", args: []string{"GET", "repos/o/r/topics", "-f", "q=a b"}, method: "GET", query: "q=a+b"},
		{name: "fields make a POST", args: []string{"repos/o/r/topics", "-f", "name=x", "-F", "n=3", "-F", "ok=true"}, method: "POST", body: `{"n":3,"name":"x","ok":true}`},
		{name: "method first", args: []string{"PUT", "repos/o/r/topics", "--input", input}, method: "PUT", body: `{"topics":["x"]}`},
		{name: "--input from standard input", args: []string{"-X", "PATCH", "repos/o/r/topics", "--input", "-"}, in: `{"a":1}`, method: "PATCH", body: `{"a":1}`},
		{name: "--jq", args: []string{"repos/o/r/topics", "--jq", ".topics[]"}, method: "GET", out: "go\nmcp\n"},
		{name: "the forge refuses", args: []string{"repos/o/nope"}, code: ExitToolError, err: "repository does not exist"},
		{name: "a climbing route", args: []string{"repos/o/r/%2e%2e/%2e%2e/admin/users"}, code: ExitUsage, err: "not a route below /api/v1"},
		{name: "another host", args: []string{"https://evil.example/api/v1/user"}, code: ExitUsage, err: "not a URL: requests go to the configured forge only"},
		{name: "a bad method", args: []string{"TRACE", "user"}, code: ExitUsage, err: `method "TRACE"`},
		{name: "bad --input", args: []string{"repos/o/r/topics", "--input", "-"}, in: "not json", code: ExitUsage, err: "is not JSON"},
		{name: "no route", args: nil, code: ExitUsage, err: "Usage: forgejo-mcp api"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got.method, got.query, got.body, got.auth = "", "", "", ""
			r := runMain(t, env, tt.in, append([]string{"api"}, tt.args...)...)
			assert.Equal(t, tt.code, r.code, r.err)
			assert.Contains(t, r.out, tt.out)
			assert.Contains(t, r.err, tt.err)
			assert.NotContains(t, r.out+r.err, fakeforge.Token)
			if tt.code != ExitOK {
				return
			}
			assert.Equal(t, tt.method, got.method)
			assert.Equal(t, tt.query, got.query)
			if tt.body != "" {
				assert.JSONEq(t, tt.body, got.body)
			}
			assert.Equal(t, "token "+fakeforge.Token, got.auth)
			if tt.out == "" || tt.out[0] == '"' {
				var v map[string]any
				require.NoError(t, json.Unmarshal([]byte(r.out), &v), r.out)
				assert.Equal(t, "a\u202eb", v["hidden"], "escaped on screen, the same text as JSON")
				assert.NotContains(t, r.out, "\u202e")
			}
		})
	}
}
