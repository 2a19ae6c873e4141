package main

// The README's shell examples, run as a reader would run them: the --cli
// examples against a forge seeded by scripts/seed-demo (as make run's is),
// and the install lines in a fresh home.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// readmeCommands returns README.md's shell commands: each line of its ```sh
// blocks, with continuation lines joined.
func readmeCommands(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	require.NoError(t, err)
	var out []string
	in, cont := false, ""
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			in = line == "```sh"
			continue
		case !in:
			continue
		}
		if l, ok := strings.CutSuffix(line, "\\"); ok {
			cont += l
			continue
		}
		if line = strings.TrimSpace(cont + line); line != "" {
			out = append(out, line)
		}
		cont = ""
	}
	return out
}

// cliExample matches an example that runs the installed binary (maybe fed
// by echo): a placeholder (<version>), a server (--transport) or a
// set-up line is not one.
var cliExample = regexp.MustCompile(`^(echo '[^']*' \| )?(\./)?forgejo-mcp (--cli|--version|api )`)

// TestReadmeCLIExamples: every forgejo-mcp example in README.md exits 0
// against a forge holding forgeadmin/demo, run by bash with the binary on
// PATH as forgejo-mcp, in a fresh home and an empty folder.
func TestReadmeCLIExamples(t *testing.T) {
	lf := testforge.Get(t)
	require.Equal(t, "forgeadmin", lf.User, "the README's examples name the forge admin of scripts/test-forge")
	env := []string{"FORGEJO_URL=" + lf.URL, "FORGEJO_ACCESS_TOKEN=" + lf.Token}
	seed := exec.Command("scripts/seed-demo", binary)
	seed.Env = append(os.Environ(), env...)
	// As under make run started by an MCP client: a JSON-RPC line waits on
	// standard input, for the server, not for the seed's calls.
	seed.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n")
	out, err := seed.CombinedOutput()
	require.NoError(t, err, "scripts/seed-demo: %s", out)

	bin := t.TempDir()
	require.NoError(t, os.Symlink(binary, filepath.Join(bin, "forgejo-mcp")))
	home, work := t.TempDir(), t.TempDir()
	// ./forgejo-mcp, as make run leaves it in the checkout.
	require.NoError(t, os.Symlink(binary, filepath.Join(work, "forgejo-mcp")))
	var ran int
	for _, cmd := range readmeCommands(t) {
		if !cliExample.MatchString(cmd) || strings.Contains(cmd, "<") {
			continue
		}
		ran++
		t.Run(cmd, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			c := exec.CommandContext(ctx, "bash", "-c", cmd)
			c.Dir = work
			c.Env = append([]string{"PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + home, "LC_ALL=C"}, env...)
			out, err := c.CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.NotContains(t, string(out), lf.Token)
			if strings.Contains(cmd, "--index 3") || strings.Contains(cmd, `"index":3`) {
				assert.Contains(t, string(out), "Crash when the config file is empty", "the seeded issue #3")
			}
		})
	}
	assert.GreaterOrEqual(t, ran, 6, "the README has its examples")
}

// TestReadmeInstallLines: each README line that installs the binary into
// ~/.local/bin works in a home where that folder does not exist yet, and
// the installed binary runs.
func TestReadmeInstallLines(t *testing.T) {
	var ran int
	for _, cmd := range readmeCommands(t) {
		if !strings.Contains(cmd, "install -m 755") {
			continue
		}
		ran++
		t.Run(cmd, func(t *testing.T) {
			home, work := t.TempDir(), t.TempDir()
			// What the line installs: the build (forgejo-mcp) or a release
			// file (forgejo-mcp-<version>-linux-amd64).
			line := strings.ReplaceAll(cmd, "<version>", "v0.0.0-test")
			for _, name := range []string{"forgejo-mcp", "forgejo-mcp-v0.0.0-test-linux-amd64"} {
				b, err := os.ReadFile(binary)
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(work, name), b, 0o644))
			}
			c := exec.Command("bash", "-c", line)
			c.Dir, c.Env = work, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
			out, err := c.CombinedOutput()
			require.NoError(t, err, "%s", out)
			installed := filepath.Join(home, ".local", "bin", "forgejo-mcp")
			fi, err := os.Stat(installed)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o755), fi.Mode().Perm())
			v, err := exec.Command(installed, "--version").CombinedOutput()
			require.NoError(t, err, "%s", v)
			assert.True(t, strings.HasPrefix(string(v), "forgejo-mcp "), "%s", v)
		})
	}
	assert.Equal(t, 2, ran, "the install lines: from source and from a release")
}
