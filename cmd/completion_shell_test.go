package cmd_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// bashComplete loads the script forgejo-mcp completion bash prints into a
// bash, finds the function it registered for forgejo-mcp (complete -p),
// and calls it the way bash's programmable completion does for the words
// typed so far (the last being completed); it returns COMPREPLY.
func bashComplete(t *testing.T, dir string, env []string, words ...string) []string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	require.NoError(t, err, "bash drives the completion test")
	bin, err := binaryPath()
	require.NoError(t, err)
	script := `source <(forgejo-mcp completion bash) || exit 3
spec=$(complete -p forgejo-mcp) || exit 4
fn=${spec#*-F }; fn=${fn%% *}
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
"$fn" forgejo-mcp "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"`
	cmd := exec.Command(bash, append([]string{"--norc", "--noprofile", "-c", script, "bash", "forgejo-mcp"}, words...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Run(), errb.String())
	return strings.Fields(out.String())
}

// TestBashCompletion drives the generated script in bash: tool names,
// flags, enum values, file names, and owners and repositories from the
// forge.
func TestBashCompletion(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user/repos", 200, []map[string]any{{"name": "r", "owner": map[string]any{"login": "alice"}}})
	f.JSON("GET /api/v1/users/alice/repos", 200, []map[string]any{{"name": "rocket"}, {"name": "radar"}})
	forge := []string{"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + fakeforge.Token}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "body.md"), []byte("text"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "build.log"), []byte("text"), 0o644))
	tests := []struct {
		name  string
		env   []string
		words []string
		want  []string
	}{
		{"subcommands", nil, []string{"comp"}, []string{"completion"}},
		{"shells", nil, []string{"completion", "f"}, []string{"fish"}},
		{"tool names", nil, []string{"--cli", "get_issue_b"}, []string{"get_issue_by_index"}},
		{"tool flags", nil, []string{"--cli", "create_issue", "--bo"}, []string{"--body", "--body-file"}},
		{"enum values", nil, []string{"--cli", "merge_pull_request", "--style", "re"}, []string{"rebase", "rebase-merge"}},
		{"file names", nil, []string{"--cli", "create_issue", "--body-file", "b"}, []string{"body.md", "build.log"}},
		{"owners from the forge", forge, []string{"--cli", "list_repo_issues", "-R", ""}, []string{"alice/"}},
		{"repositories from the forge", forge, []string{"--cli", "list_repo_issues", "-R", "alice/ra"}, []string{"alice/radar"}},
		{"nothing for free text", forge, []string{"--cli", "create_issue", "--title", ""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bashComplete(t, dir, tt.env, tt.words...)
			if tt.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.ElementsMatch(t, tt.want, got)
		})
	}
}

// TestOtherShellScripts: the zsh and fish scripts complete too, where the
// shell is installed (bash is the one the suite needs): fish through its
// own complete -C, zsh by calling the function with compadd and _files
// standing in for the completion system's.
func TestOtherShellScripts(t *testing.T) {
	bin, err := binaryPath()
	require.NoError(t, err)
	path := "PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH")
	drivers := map[string]string{
		"fish": `forgejo-mcp completion fish | source
complete -C "forgejo-mcp --cli get_issue_b"
complete -C "forgejo-mcp --cli list_repo_issues --state "`,
		"zsh": `source <(forgejo-mcp completion zsh) || exit 3
compadd() { local -a a; a=("$@"); print -rl -- "${(@)a[$(( ${a[(i)--]} + 1 )),-1]}" }
_files() { print ":files" }
words=(forgejo-mcp --cli get_issue_b); CURRENT=3; _forgejo_mcp
words=(forgejo-mcp --cli list_repo_issues --state ""); CURRENT=5; _forgejo_mcp`,
	}
	for shell, driver := range drivers {
		t.Run(shell, func(t *testing.T) {
			script, err := exec.Command(bin, "completion", shell).Output()
			require.NoError(t, err)
			assert.Contains(t, string(script), "__complete")
			sh := requireShell(t, shell)
			args := []string{"-c", driver}
			if shell == "zsh" {
				args = []string{"-f", "-c", driver}
			}
			cmd := exec.Command(sh, args...)
			cmd.Env = []string{path, "HOME=" + t.TempDir()}
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			require.Len(t, lines, 4, "%s", out)
			assert.True(t, strings.HasPrefix(lines[0], "get_issue_by_index"), lines[0])
			assert.ElementsMatch(t, []string{"open", "closed", "all"}, lines[1:])
		})
	}
	out, err := exec.Command(bin, "completion", "tcsh").CombinedOutput()
	assert.Error(t, err)
	assert.Contains(t, string(out), `unknown shell "tcsh"`)
}

// requireShell finds a shell the completion tests drive: missing, it is a
// failure where the suite must be whole (FORGEJO_TEST_REQUIRE=1: CI,
// where scripts/shells installs them), else a skip.
func requireShell(t *testing.T, name string) string {
	t.Helper()
	sh, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("FORGEJO_TEST_REQUIRE") == "1" {
			t.Fatalf("%s is not installed: scripts/shells installs bash, zsh and fish", name)
		}
		t.Skipf("%s is not installed (scripts/shells installs it)", name)
	}
	return sh
}
