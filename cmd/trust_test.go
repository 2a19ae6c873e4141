package cmd

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
