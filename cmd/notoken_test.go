package cmd

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// TestNoTokenWarnsOnce: with a forge but no token, --cli and stdio warn
// once on stderr, and a call the forge refuses says that no token is set
// rather than that the forge rejected one.
func TestNoTokenWarnsOnce(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 401, map[string]string{"message": "token is required"})
	f.JSON("GET /api/v1/repos/o/r/issues/3", 404, nil)
	const warning = "no access token: set FORGEJO_ACCESS_TOKEN or --token-file"
	tests := []struct {
		name     string
		env      map[string]string
		args     []string
		warnings int
		code     int
		text     string // substring of stdout+stderr
	}{
		{name: "cli write without token", env: map[string]string{"FORGEJO_URL": f.URL}, args: []string{"--cli", "get_my_user_info"},
			warnings: 1, code: ExitToolError, text: "get the token's user: no access token is set, and the forge needs one for this (401 Unauthorized); set FORGEJO_ACCESS_TOKEN or --token-file"},
		{name: "cli private read without token", env: map[string]string{"FORGEJO_URL": f.URL}, args: []string{"--cli", "get_issue_by_index", "--owner", "o", "--repo", "r", "--index", "3"},
			warnings: 1, code: ExitToolError, text: "issue o/r#3 not found (404): no access token is set, so only public data is visible"},
		{name: "cli with token does not warn", env: fakeEnv(f), args: []string{"--cli", "get_my_user_info"},
			warnings: 0, code: ExitToolError, text: "the forge rejected the token (401 Unauthorized)"},
		{name: "offline tool without a forge does not warn", args: []string{"--cli", "get_forgejo_mcp_server_version"},
			warnings: 0, code: ExitOK, text: `"version"`},
		{name: "stdio without token", env: map[string]string{"FORGEJO_URL": f.URL}, args: nil,
			warnings: 1, code: ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runMain(t, tt.env, "", tt.args...)
			assert.Equal(t, tt.code, r.code, "stdout: %s\nstderr: %s", r.out, r.err)
			assert.Equal(t, tt.warnings, strings.Count(r.err, warning), "stderr: %s", r.err)
			assert.Contains(t, r.out+r.err, tt.text)
		})
	}
}
