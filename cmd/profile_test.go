package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// TestLoginProfiles: login checks the token with the forge and stores the
// forge (config.json) and its token (a 0600 file in a 0700 directory);
// then calls need neither URL nor token; --profile picks another; the
// environment still wins; a token without a URL never reaches a profile's
// forge; logout forgets.
func TestLoginProfiles(t *testing.T) {
	alice := fakeforge.New(t)
	alice.JSON("GET /api/v1/user", 200, map[string]any{"login": "alice"})
	other := fakeforge.New(t)
	other.JSON("GET /api/v1/user", 200, map[string]any{"login": "bob"})
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	dir := filepath.Join(home, ".config", "forgejo-mcp")

	r := runMain(t, env, fakeforge.Token+"\n", "login", "--url", alice.URL)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Equal(t, "Logged in to "+alice.URL+" as alice: profile 127.0.0.1 (the default), stored in "+dir+"\n", r.err)
	assert.Equal(t, "token "+fakeforge.Token, alice.Requests()[0].Auth)
	for path, mode := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, filepath.Join(dir, "config.json"): 0o600,
		filepath.Join(dir, "tokens"): 0o700 | os.ModeDir, filepath.Join(dir, "tokens", "127.0.0.1"): 0o600} {
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, mode, st.Mode(), path)
	}
	config, err := os.ReadFile(filepath.Join(dir, "config.json"))
	require.NoError(t, err)
	assert.NotContains(t, string(config), fakeforge.Token, "the configuration holds no token")

	r = runMain(t, env, "", "--cli", "get_my_user_info", "--output", "json")
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Contains(t, r.out, `"login": "alice"`)

	// A second profile whose token comes from a command.
	r = runMain(t, env, "", "login", "--url", other.URL, "--profile", "work", "--token-command", "echo "+fakeforge.Token)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Contains(t, r.err, "as bob: profile work, stored in")
	_, err = os.Stat(filepath.Join(dir, "tokens", "work"))
	assert.ErrorIs(t, err, os.ErrNotExist, "a token command's token is not stored")
	r = runMain(t, env, "", "login", "--list")
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Regexp(t, `^PROFILE +URL +TOKEN\n`+
		`127\.0\.0\.1 +`+alice.URL+` +stored \(0600 file\) +default\n`+
		`work +`+other.URL+` +command: echo `+fakeforge.Token+`\n$`, r.out)

	for _, tt := range []struct {
		name  string
		env   map[string]string
		args  []string
		login string
		err   string
	}{
		{"--profile", nil, []string{"--profile", "work"}, "bob", ""},
		{"FORGEJO_MCP_PROFILE", map[string]string{"FORGEJO_MCP_PROFILE": "work"}, nil, "bob", ""},
		{"the environment wins", map[string]string{"FORGEJO_URL": other.URL, "FORGEJO_ACCESS_TOKEN": fakeforge.Token}, []string{"--profile", "127.0.0.1"},
			"bob", "profile 127.0.0.1 is not used: the forge is set by --url or FORGEJO_URL"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := map[string]string{"HOME": home}
			for k, v := range tt.env {
				e[k] = v
			}
			r := runMain(t, e, "", append([]string{"--cli", "get_my_user_info", "--output", "json"}, tt.args...)...)
			require.Equal(t, ExitOK, r.code, r.err)
			assert.Contains(t, r.out, `"login": "`+tt.login+`"`)
			assert.Contains(t, r.err, tt.err)
		})
	}

	before := len(alice.Requests())
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
		err  string
	}{
		{"a token without a URL", map[string]string{"FORGEJO_ACCESS_TOKEN": "someone-elses-token"}, nil,
			"a token is set (FORGEJO_ACCESS_TOKEN or --token-file) but no forge URL: set FORGEJO_URL or --url for it, or unset it to use profile 127.0.0.1"},
		{"an unknown profile", nil, []string{"--profile", "wrok"}, `no profile "wrok"; did you mean "work"?`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := map[string]string{"HOME": home}
			for k, v := range tt.env {
				e[k] = v
			}
			r := runMain(t, e, "", append([]string{"--cli", "get_my_user_info"}, tt.args...)...)
			assert.Equal(t, ExitUsage, r.code, r.err)
			assert.Contains(t, r.err, tt.err)
			assert.NotContains(t, r.err, "someone-elses-token")
		})
	}
	assert.Len(t, alice.Requests(), before, "nothing was sent")

	// A token file others can read is refused, as ssh refuses a key.
	token := filepath.Join(dir, "tokens", "127.0.0.1")
	require.NoError(t, os.Chmod(token, 0o644))
	r = runMain(t, env, "", "--cli", "get_my_user_info")
	assert.Equal(t, ExitUsage, r.code)
	assert.Contains(t, r.err, token+" has mode 0644: others can read the token; run chmod 600 "+token)
	require.NoError(t, os.Chmod(token, 0o600))

	// The server (stdio) uses the default profile too.
	r = runMain(t, env, "", "--version")
	assert.Equal(t, ExitOK, r.code)

	r = runMain(t, env, "", "logout", "--profile", "127.0.0.1")
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Contains(t, r.err, "Forgot profile 127.0.0.1")
	_, err = os.Stat(token)
	assert.ErrorIs(t, err, os.ErrNotExist)
	r = runMain(t, env, "", "--cli", "get_my_user_info")
	assert.Equal(t, ExitUsage, r.code, "no default any more")
	assert.Contains(t, r.err, "no forge configured: set --url or FORGEJO_URL (e.g. https://codeberg.org), or store one with forgejo-mcp login")
}

// TestLoginRefusals: a token the forge refuses, a missing token, a token
// in argv and a bad name store nothing.
func TestLoginRefusals(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 401, map[string]any{"message": "invalid token"})
	home := t.TempDir()
	env := map[string]string{"HOME": home}
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		err   string
	}{
		{"refused by the forge", "wrong-token\n", []string{"--url", f.URL}, ExitToolError, "the forge rejected the token (401 Unauthorized)"},
		{"no token", "", []string{"--url", f.URL}, ExitUsage, "no token: pipe it on standard input"},
		{"a token in argv", "", []string{"--url", f.URL, fakeforge.Token}, ExitUsage, "never from the command line"},
		{"no URL", "t\n", nil, ExitUsage, "--url is required"},
		{"a bad name", "t\n", []string{"--url", f.URL, "--profile", "../x"}, ExitUsage, `profile name "../x": use up to 64 letters`},
		{"a failing token command", "", []string{"--url", f.URL, "--token-command", "echo oops >&2; exit 3"}, ExitUsage, `the token command "echo oops >&2; exit 3" failed (exit status 3): oops`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runMain(t, env, tt.stdin, append([]string{"login"}, tt.args...)...)
			assert.Equal(t, tt.code, r.code, r.err)
			assert.Contains(t, r.err, tt.err)
			assert.NotContains(t, r.err+r.out, fakeforge.Token)
			_, err := os.Stat(filepath.Join(home, ".config", "forgejo-mcp", "config.json"))
			assert.ErrorIs(t, err, os.ErrNotExist, "nothing stored")
		})
	}
	// A configuration others can change is refused: it names a command.
	dir := filepath.Join(home, ".config", "forgejo-mcp")
	require.NoError(t, os.MkdirAll(dir, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"profiles":{}}`), 0o666))
	require.NoError(t, os.Chmod(filepath.Join(dir, "config.json"), 0o666))
	r := runMain(t, env, "", "--cli", "get_my_user_info")
	assert.Equal(t, ExitUsage, r.code)
	assert.True(t, strings.Contains(r.err, "has mode 0666: others can change it"), r.err)
}
