package cmd

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// values are the candidates without their descriptions.
func values(cands []string) []string {
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i], _, _ = strings.Cut(c, "\t")
	}
	return out
}

// TestCompletions: what __complete answers after given words, from the
// inventory (tools, flags, enum values) and, with a forge configured,
// from the forge (owners, repositories, branches, issue numbers).
func TestCompletions(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user/repos", 200, []map[string]any{
		{"name": "r", "owner": map[string]any{"login": "alice"}}, {"name": "s", "owner": map[string]any{"login": "team"}}})
	f.JSON("GET /api/v1/users/alice/repos", 200, []map[string]any{{"name": "rocket"}, {"name": "radar"}, {"name": "web"}})
	f.JSON("GET /api/v1/repos/alice/rocket/git/refs/heads", 200, []map[string]any{{"ref": "refs/heads/main"}, {"ref": "refs/heads/feature/x"}})
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "alice"})
	f.JSON("GET /api/v1/repos/alice/rocket/issues", 200, []map[string]any{{"number": 12}, {"number": 3}})
	forge := fakeEnv(f)
	tests := []struct {
		name  string
		env   map[string]string
		words []string
		want  []string // exactly these values
		has   []string // among the values
	}{
		{name: "subcommands", words: []string{"lo"}, want: []string{"login", "logout"}},
		{name: "server flags", words: []string{"--read"}, want: []string{"--read-only"}},
		{name: "--cli is offered", words: []string{"--cl"}, want: []string{"--cli"}},
		{name: "server flag values", words: []string{"--transport", ""}, want: []string{"stdio", "http"}},
		{name: "toolsets, comma-separated", words: []string{"--toolsets", "issue,wi"}, want: []string{"issue,wiki"}},
		{name: "file flags", words: []string{"--token-file", ""}, want: []string{":files"}},
		{name: "completion shells", words: []string{"completion", ""}, want: []string{"bash", "zsh", "fish"}},
		{name: "login flags", words: []string{"login", "--tok"}, want: []string{"--token-command"}},
		{name: "tool names", words: []string{"--cli", "get_issue_b"}, want: []string{"get_issue_by_index"}},
		{name: "list and help", words: []string{"--cli", "l"}, has: []string{"list", "list_repo_issues"}},
		{name: "tool names after server flags", words: []string{"--cli", "--read-only", "get_my_u"}, want: []string{"get_my_user_info"}},
		{name: "help topics", words: []string{"--cli", "help", "get_issue_b"}, want: []string{"get_issue_by_index"}},
		{name: "tool flags", words: []string{"--cli", "get_issue_by_index", "--ind"}, want: []string{"--index"}},
		{name: "given flags are not offered again", words: []string{"--cli", "get_issue_by_index", "--index", "3", "--ind"}, want: nil},
		{name: "cli flags", words: []string{"--cli", "list_repo_issues", "--al"}, want: []string{"--all"}},
		{name: "text file flags", words: []string{"--cli", "create_issue", "--body"}, want: []string{"--body", "--body-file"}},
		{name: "enum values", words: []string{"--cli", "list_repo_issues", "--state", ""}, want: []string{"open", "closed", "all"}},
		{name: "output values", words: []string{"--cli", "get_my_user_info", "--output", "t"}, want: []string{"table", "text"}},
		{name: "--body-file takes a file", words: []string{"--cli", "create_issue", "--body-file", ""}, want: []string{":files"}},
		{name: "no forge: no owners", words: []string{"--cli", "get_issue_by_index", "--owner", ""}, want: nil},
		{name: "owners", env: forge, words: []string{"--cli", "get_issue_by_index", "--owner", ""}, want: []string{"alice", "team"}},
		{name: "repositories of the owner", env: forge, words: []string{"--cli", "get_issue_by_index", "--owner", "alice", "--repo", "r"}, want: []string{"radar", "rocket"}},
		{name: "-R: owners first", env: forge, words: []string{"--cli", "get_issue_by_index", "-R", "a"}, want: []string{"alice/"}},
		{name: "-R: then repositories", env: forge, words: []string{"--cli", "get_issue_by_index", "-R", "alice/ro"}, want: []string{"alice/rocket"}},
		{name: "branches", env: forge, words: []string{"--cli", "create_branch", "-R", "alice/rocket", "--from", "f"}, want: []string{"feature/x"}},
		{name: "issue numbers", env: forge, words: []string{"--cli", "get_issue_by_index", "-R", "alice/rocket", "--index", "1"}, want: []string{"12"}},
		{name: "free text: nothing", env: forge, words: []string{"--cli", "create_issue", "-R", "alice/rocket", "--title", ""}, want: nil},
		{name: "a tool's own flags first", words: []string{"--cli", "get_issue_by_index", "--"}, want: []string{
			"--all", "--args", "--help", "--index", "--jq", "--max-out-bytes", "--out", "--output", "--owner", "--repo", "--yes"}},
		{name: "server flags when no own flag matches", words: []string{"--cli", "get_issue_by_index", "--pro"}, want: []string{"--profile"}},
		{name: "own flags win a shared prefix", words: []string{"--cli", "get_issue_by_index", "--re"}, want: []string{"--repo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"HOME": t.TempDir()}
			for k, v := range tt.env {
				env[k] = v
			}
			got := values(completions(context.Background(), tt.words, func(k string) string { return env[k] }))
			if tt.has != nil {
				for _, h := range tt.has {
					assert.Contains(t, got, h)
				}
				return
			}
			if tt.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}

	// Candidates carry a description after a tab, for zsh and fish.
	got := completions(context.Background(), []string{"--cli", "get_issue_by_ind"}, func(string) string { return "" })
	if assert.Len(t, got, 1) {
		assert.True(t, strings.HasPrefix(got[0], "get_issue_by_index\tGet an issue or PR by number"), got[0])
	}

	// The repository of the current directory's git remote counts.
	dir := t.TempDir()
	writeGitConfig(t, dir, "[remote \"origin\"]\n\turl = "+f.URL+"/alice/rocket.git\n")
	t.Chdir(dir)
	got = values(completions(context.Background(), []string{"--cli", "create_branch", "--from", ""}, func(k string) string { return forge[k] }))
	assert.Equal(t, []string{"main", "feature/x"}, got)
	// -R still offers OWNER/REPO there: a bare name is no value for it.
	got = values(completions(context.Background(), []string{"--cli", "get_issue_by_index", "-R", "alice/r"}, func(k string) string { return forge[k] }))
	assert.Equal(t, []string{"alice/radar", "alice/rocket"}, got)

	// Profiles complete by name.
	home := t.TempDir()
	r := runMain(t, map[string]string{"HOME": home}, "", "login", "--url", f.URL, "--profile", "work", "--token-command", "echo "+fakeforge.Token)
	assert.Equal(t, ExitOK, r.code, r.err)
	got = values(completions(context.Background(), []string{"--cli", "list", "--profile", "w"}, func(k string) string { return map[string]string{"HOME": home}[k] }))
	assert.Equal(t, []string{"work"}, got)
}

// TestDequote: the words a shell passes are read as the text they stand
// for.
func TestDequote(t *testing.T) {
	for in, want := range map[string]string{
		"plain":        "plain",
		`'x$(touch`:    "x$(touch",
		`x\$\(a\)`:     "x$(a)",
		`"a b"c`:       "a bc",
		`'it'\''s'`:    "it's",
		`"open`:        "open",
		`back\`:        "back",
		`"say \"hi\""`: `say "hi"`,
	} {
		assert.Equal(t, want, dequote(in), in)
	}
}

// TestCompleteDropsControlCharacters: __complete prints no candidate that
// is not one line of plain text, and no description that is either.
func TestCompleteDropsControlCharacters(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/git/refs/heads", 200, []map[string]any{{"ref": "refs/heads/ok"}, {"ref": "refs/heads/two\nlines"},
		{"ref": "refs/heads/esc\x1b[2J"}, {"ref": "refs/heads/bidi\u202e"}, {"ref": "refs/heads/x$(y)"}})
	var out bytes.Buffer
	env := fakeEnv(f)
	code := runComplete(context.Background(), []string{"--cli", "create_branch", "-R", "o/r", "--from", ""}, IO{Out: &out}, func(k string) string { return env[k] })
	assert.Equal(t, ExitOK, code)
	assert.Equal(t, "ok\nx$(y)\n", out.String())
	assert.True(t, plainText("naïve-ü"))
	assert.False(t, plainText("a\u200fb"))
}
