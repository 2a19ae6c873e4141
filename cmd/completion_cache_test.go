package cmd

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// TestCompletionRunsTheTokenCommandOnlyWhenItMust: with a profile whose
// token comes from a command, completing names known offline (tools,
// flags, enum values, profiles) never runs it; a forge lookup runs it
// once, and the next TABs within a minute are answered from the cache
// (private files in the user's cache folder) without asking the forge.
func TestCompletionRunsTheTokenCommandOnlyWhenItMust(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the token command is a sh script")
	}
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "alice"})
	asked := 0
	f.Handle("GET /api/v1/users/alice/repos", func(w http.ResponseWriter, _ *http.Request) {
		asked++
		fakeforge.WriteJSON(w, 200, []map[string]any{{"name": "rocket"}, {"name": "radar"}})
	})
	home := t.TempDir()
	runs := filepath.Join(home, "runs")
	env := map[string]string{"HOME": home}
	r := runMain(t, env, "", "login", "--url", f.URL, "--profile", "work", "--token-command", "echo run >>"+runs+"; echo "+fakeforge.Token)
	require.Equal(t, ExitOK, r.code, r.err)
	require.NoError(t, os.Remove(runs)) // login checked the token
	getenv := func(k string) string { return env[k] }
	ran := func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "run")
	}

	for _, words := range [][]string{
		{"--cli", "get_issue_b"}, {"--cli", "list_repo_issues", "--st"}, {"--cli", "list_repo_issues", "--state", ""},
		{"--cli", "list", "--profile", "w"}, {"--tool"},
	} {
		assert.NotEmpty(t, completions(context.Background(), words, getenv), words)
	}
	assert.Equal(t, 0, ran(), "names known offline need no token")

	first := values(completions(context.Background(), []string{"--cli", "get_issue_by_index", "-R", "alice/r"}, getenv))
	assert.Equal(t, []string{"alice/radar", "alice/rocket"}, first)
	assert.Equal(t, 1, ran())
	again := values(completions(context.Background(), []string{"--cli", "get_issue_by_index", "-R", "alice/ra"}, getenv))
	assert.Equal(t, []string{"alice/radar"}, again, "a longer prefix, from the whole list kept")
	assert.Equal(t, 1, ran(), "the token command ran once")
	assert.Equal(t, 1, asked, "the forge was asked once")

	dir := filepath.Join(home, ".cache", "forgejo-mcp", "completion")
	st, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.NotEmpty(t, ents)
	for _, e := range ents {
		info, err := e.Info()
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), e.Name())
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		assert.NotContains(t, string(b), fakeforge.Token)
	}

	// Another token is another identity: its lookups are its own.
	env2 := map[string]string{"HOME": home, "FORGEJO_URL": f.URL, "FORGEJO_ACCESS_TOKEN": fakeforge.Token + "x"}
	values(completions(context.Background(), []string{"--cli", "get_issue_by_index", "-R", "alice/r"}, func(k string) string { return env2[k] }))
	assert.Equal(t, 2, asked, "not answered from another identity's entry")

	// A cache file someone else could read is not trusted.
	for _, e := range ents {
		require.NoError(t, os.Chmod(filepath.Join(dir, e.Name()), 0o644))
	}
	values(completions(context.Background(), []string{"--cli", "get_issue_by_index", "-R", "alice/r"}, getenv))
	assert.Equal(t, 3, asked)
}
