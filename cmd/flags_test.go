package cmd

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFlagErrors: every flag mistake, in server mode as in --cli, is
// printed on standard error with the flag probably meant and where the
// help is, and exits 2; a scalar flag given twice is one of them, a list
// parameter repeated is not.
func TestFlagErrors(t *testing.T) {
	env := map[string]string{"FORGEJO_URL": "https://x.example"}
	tests := []struct {
		name string
		args []string
		err  string
	}{
		{"misspelt flag", []string{"--toolset", "issue"}, "unknown flag: --toolset; did you mean --toolsets? see forgejo-mcp --help"},
		{"misspelt flag with underscore", []string{"--read_onl"}, "did you mean --read-only?"},
		{"unknown shorthand", []string{"-v"}, "unknown shorthand flag: 'v' in -v; did you mean --version?"},
		{"nothing close", []string{"--zzzzzzzz"}, "unknown flag: --zzzzzzzz; see forgejo-mcp --help"},
		{"missing value", []string{"--url"}, "flag needs an argument: --url; see forgejo-mcp --help"},
		{"bad value", []string{"--max-concurrent", "many"}, `invalid argument "many" for "--max-concurrent" flag`},
		{"repeated scalar", []string{"--url", "https://a.example", "--url", "https://b.example"}, `--url is given twice ("https://a.example", then "https://b.example"): give it once`},
		{"repeated boolean", []string{"--read-only", "--read-only"}, "--read-only is given twice"},
		{"unknown tool in --tools", []string{"--tools", "get_isue_by_index"}, `unknown tool "get_isue_by_index"; did you mean "get_issue_by_index"?`},
		{"unknown toolset", []string{"--toolsets", "issues"}, `unknown toolset "issues"; did you mean "issue"?`},
		{"a tool name as an argument", []string{"get_my_user_info"}, `unexpected argument "get_my_user_info" (did you mean --cli get_my_user_info?)`},
		{"a misspelt subcommand", []string{"logn"}, `(did you mean forgejo-mcp login?)`},
		{"cli: misspelt parameter", []string{"--cli", "get_issue_by_index", "--indx", "3"}, "unknown flag: --indx; did you mean --index? see forgejo-mcp --cli get_issue_by_index --help"},
		{"cli: repeated parameter", []string{"--cli", "get_issue_by_index", "--index", "3", "--index", "4"}, `--index is given twice ("3", then "4")`},
		{"cli: repeated server flag around --cli", []string{"--log-level", "warn", "--cli", "get_my_user_info", "--log-level", "error"}, "--log-level is given twice"},
		{"cli: -R for a tool without a repository", []string{"--cli", "get_my_user_info", "-R", "o/r"}, "-R OWNER/REPO: get_my_user_info takes no repository"},
		{"cli: bad output", []string{"--cli", "get_my_user_info", "--output", "yaml"}, `unknown --output "yaml": use table, text, json or mcp`},
		{"cli: --all on a tool that is no list", []string{"--cli", "get_my_user_info", "--all"}, "--all is for list tools"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runMain(t, env, "", tt.args...)
			assert.Equal(t, ExitUsage, r.code, r.err)
			assert.Contains(t, r.err, tt.err)
			assert.Empty(t, r.out)
		})
	}

	f := newFakeWithIssue(t)
	r := runMain(t, fakeEnv(f), "", "--cli", "add_issue_labels", "--owner", "o", "--repo", "r", "--index", "3", "--labels", "bug", "--labels", "ui")
	assert.NotContains(t, r.err, "given twice", "a list parameter may be repeated")
}

// TestHelp: --help lists the ways to run forgejo-mcp, where the forge and
// token come from, every flag and every environment variable a flag reads
// (learnt from the registration itself), on standard output; --cli help,
// --cli --help and --cli help TOOL explain --cli.
func TestHelp(t *testing.T) {
	r := runMain(t, nil, "", "--help")
	require.Equal(t, ExitOK, r.code, r.err)
	for _, want := range []string{"forgejo-mcp --cli TOOL", "forgejo-mcp login --url URL", "forgejo-mcp completion bash|zsh|fish",
		"--profile NAME (or FORGEJO_MCP_PROFILE)", "The token is never a flag value", "FORGEJO_ACCESS_TOKEN", "  issue ", "(default)"} {
		assert.Contains(t, r.out, want)
	}
	var keys []string
	var cfg Config
	cfg.registerFlags(pflag.NewFlagSet("x", pflag.ContinueOnError), func(k string) string { keys = append(keys, k); return "" })
	require.NotEmpty(t, keys)
	for _, k := range keys {
		assert.Regexp(t, `(?m)^  `+k+` +--[a-z-]+$`, r.out, "%s is listed with its flag", k)
	}

	for _, args := range [][]string{{"--cli", "help"}, {"--cli", "--help"}, {"--cli", "-h"}} {
		r := runMain(t, nil, "", args...)
		require.Equal(t, ExitOK, r.code, r.err)
		for _, want := range []string{"forgejo-mcp --cli help [TOOL]", "--output string", "--all", "-R, --repo string", "--NAME-file", "--yes",
			"the git remote of the current directory's repository", "Exit status: 0 success"} {
			assert.Contains(t, r.out, want, strings.Join(args, " "))
		}
	}
	r = runMain(t, nil, "", "--cli", "help", "create_issue")
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Contains(t, r.out, "create_issue (issue toolset, write)")
	assert.Contains(t, r.out, "or --body-file FILE ('-': standard input)")
	assert.Contains(t, r.out, "-R OWNER/REPO gives both")

	r = runMain(t, nil, "", "--cli", "delete_release", "--help")
	assert.Contains(t, r.out, "--yes (do not ask on a terminal)")
	r = runMain(t, nil, "", "--cli", "list_repo_issues", "--help")
	assert.Contains(t, r.out, "--all (every page, up to 1000 items)")
}
