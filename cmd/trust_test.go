package cmd

import (
	"context"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

func TestReposAndLockdownFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		err  string
		want string // the scope, as given
		lock bool
	}{
		{name: "defaults"},
		{name: "flags", args: []string{"--repos", "alice/site, acme/*", "--lockdown"}, want: "alice/site,acme/*", lock: true},
		{name: "environment", env: map[string]string{"FORGEJO_MCP_REPOS": "alice/site", "FORGEJO_MCP_LOCKDOWN": "true"}, want: "alice/site", lock: true},
		{name: "flag over environment", env: map[string]string{"FORGEJO_MCP_REPOS": "alice/site"}, args: []string{"--repos", "bob/x"}, want: "bob/x"},
		{name: "not a repository", args: []string{"--repos", "alice"}, err: `--repos: "alice" is not OWNER/REPO or OWNER/*`},
		{name: "a climbing name", args: []string{"--repos", "alice/.."}, err: "the repository must be a name"},
		{name: "only commas", args: []string{"--repos", ","}, err: "--repos is blank"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := parseHardeningConfig(t, tc.env, tc.args...)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, cfg.Scope.String())
			assert.Equal(t, tc.lock, cfg.Lockdown)
			r := cfg.runner(slog.New(slog.DiscardHandler))
			assert.Equal(t, tc.want, r.Repos.String())
			assert.Equal(t, tc.lock, r.Lockdown)
			assert.True(t, r.Marks, "every server marks authors")
		})
	}
}

// TestCompletionHonoursTheScope: with --repos (or its variable) the shell
// is offered only owners and repositories inside, looks nothing up outside,
// and never gets what an unscoped completion left in the cache.
func TestCompletionHonoursTheScope(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user/repos", 200, []map[string]any{
		{"name": "r", "owner": map[string]any{"login": "alice"}}, {"name": "s", "owner": map[string]any{"login": "team"}}})
	f.JSON("GET /api/v1/users/alice/repos", 200, []map[string]any{{"name": "rocket"}, {"name": "radar"}, {"name": "web"}})
	f.JSON("GET /api/v1/repos/alice/rocket/git/refs/heads", 200, []map[string]any{{"ref": "refs/heads/main"}})
	home := t.TempDir() // one cache for every call below
	env := func(scope string) func(string) string {
		m := fakeEnv(f)
		m["HOME"] = home
		if scope != "" {
			m["FORGEJO_MCP_REPOS"] = scope
		}
		return func(k string) string { return m[k] }
	}
	complete := func(scope string, words ...string) []string {
		return values(completions(context.Background(), append([]string{"--cli"}, words...), env(scope)))
	}
	// Unscoped first, so the cache holds every owner and repository.
	assert.Equal(t, []string{"alice/", "team/"}, complete("", "get_issue_by_index", "-R", ""))
	assert.Equal(t, []string{"alice/radar", "alice/rocket"}, complete("", "get_issue_by_index", "-R", "alice/r"))

	assert.Equal(t, []string{"alice/"}, complete("alice/rocket", "get_issue_by_index", "-R", ""))
	assert.Equal(t, []string{"alice/rocket"}, complete("alice/rocket", "get_issue_by_index", "-R", "alice/r"))
	assert.Equal(t, []string{"alice/rocket"}, values(completions(context.Background(),
		[]string{"--repos", "alice/rocket", "--cli", "get_issue_by_index", "-R", "alice/r"}, env(""))), "--repos as a flag")
	before := len(f.Requests())
	assert.Empty(t, complete("alice/radar", "create_branch", "-R", "alice/rocket", "--from", ""), "a repository outside")
	assert.Len(t, f.Requests(), before, "nothing is looked up outside the scope")
}
