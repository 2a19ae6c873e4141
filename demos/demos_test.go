// Package demos replays the Showboat documents in this directory against a
// live forge, so a demo that no longer matches what forgejo-mcp does fails
// the build instead of misleading a reader.
//
// The contract (demos/README.md) is Showboat's own: from the repository
// root, with ./forgejo-mcp built and FORGEJO_URL, FORGEJO_ACCESS_TOKEN,
// DEMO_OWNER and DEMO_REPO (a fresh auto-initialised repository) set,
// `showboat verify demos/DOC.md` passes. Showboat is not on a fresh
// machine, so this test follows the same rules itself: every code block
// runs as its own `bash -c` (a fresh process: nothing carries over but
// files), with the same workdir and environment for all, and what it
// printed, stdout and stderr together, must equal the output block after
// it byte for byte. When a `showboat` is on PATH it runs that as well.
// UPDATE_DEMOS=1 rewrites the output blocks instead.
package demos

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// blockTimeout bounds one block; the slowest reads a few MiB in windows.
const blockTimeout = 3 * time.Minute

// tools are what the documents run besides forgejo-mcp.
var tools = []string{"bash", "sed", "awk", "sha256sum", "base64", "head", "seq", "curl", "python3", "git", "script", "column", "stat", "tr"}

func TestDemos(t *testing.T) {
	docs, err := filepath.Glob("*.md")
	require.NoError(t, err)
	docs = slices.DeleteFunc(docs, func(n string) bool { return n == "README.md" })
	require.NotEmpty(t, docs)
	f := testforge.Get(t)
	for _, tool := range tools {
		_, err := exec.LookPath(tool)
		require.NoError(t, err, "the demos need %s", tool)
	}
	root := fakeRoot(t)
	update := os.Getenv("UPDATE_DEMOS") != ""
	showboat, _ := exec.LookPath("showboat")
	for _, name := range docs {
		t.Run(strings.TrimSuffix(name, ".md"), func(t *testing.T) {
			src, err := os.ReadFile(name)
			require.NoError(t, err)
			d, err := parse(string(src))
			require.NoError(t, err)
			require.Contains(t, d.lines[:min(len(d.lines), 5)], "<!-- showboat-id: "+d.id+" -->", "a Showboat header")
			require.True(t, strings.HasPrefix(d.lines[0], "# "), "a Showboat document starts with its title")
			require.NotEmpty(t, d.blocks)

			owner, repo := f.NewRepo(t)
			env := demoEnv(t, f.URL, f.Token, owner, repo)
			diffs := forgeDiffs(t, f, owner, repo, d)
			start := time.Now()
			for i, b := range d.blocks {
				require.True(t, update || b.hasOutput, "%s:%d: block %d has no output block after it", name, b.line, i+1)
				got, err := runBlock(root, env, b)
				require.NoError(t, err, "%s:%d: block %d", name, b.line, i+1)
				require.Empty(t, representable(got), "%s:%d: block %d printed %q", name, b.line, i+1, got)
				if update {
					b.output = got
					continue
				}
				want := b.output
				if alt, ok := diffs[i]; ok {
					want = alt
				}
				assert.Equal(t, want, got, "%s:%d: block %d:\n%s", name, b.line, i+1, b.code)
			}
			t.Logf("%s: %d blocks in %s", name, len(d.blocks), time.Since(start).Round(time.Millisecond))
			if update {
				require.NoError(t, os.WriteFile(name, []byte(d.render()), 0o644))
				return
			}
			if showboat == "" || t.Failed() {
				return
			}
			// The real thing, on a repository of its own: the documents
			// expect a fresh one.
			owner, repo = f.NewRepo(t)
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(len(d.blocks))*blockTimeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, showboat, "verify", filepath.Join("demos", name))
			cmd.Dir, cmd.Env = root, demoEnv(t, f.URL, f.Token, owner, repo)
			start = time.Now()
			out, err := cmd.CombinedOutput()
			if len(diffs) > 0 {
				// Showboat knows no forges: it must report exactly the known differences.
				assert.Error(t, err)
				assert.Equal(t, len(diffs), strings.Count(string(out), "\nblock ")+strings.Count(string(out[:min(len(out), 6)]), "block "), "%s", out)
				assert.Contains(t, string(out), "Actions runs are not shown", "%s", out)
				return
			}
			assert.NoError(t, err, "%s verify %s:\n%s", showboat, name, out)
			t.Logf("%s: showboat verify passed in %s", name, time.Since(start).Round(time.Millisecond))
		})
	}
}

// fakeRoot makes the workdir the documents run in: a folder that looks like
// the repository root to them (./forgejo-mcp, freshly built, and demos/, a
// link to this directory), so the test neither needs nor overwrites a
// ./forgejo-mcp in the checkout, and the scratch folder .demo/ lands in a
// temporary directory.
func fakeRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	out, err := exec.Command("go", "build", "-o", filepath.Join(root, "forgejo-mcp"), "codeberg.org/forgejo-mcp/forgejo-mcp").CombinedOutput()
	require.NoError(t, err, "building the binary: %s", out)
	here, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Symlink(here, filepath.Join(root, "demos")))
	return root
}

// demoEnv is the whole environment of a block: the four documented
// variables, plus PATH to find bash and the tools, and HOME, which no
// document uses (a temporary one, so nothing of the user's leaks in).
func demoEnv(t *testing.T, url, token, owner, repo string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(),
		"FORGEJO_URL=" + url, "FORGEJO_ACCESS_TOKEN=" + token,
		"DEMO_OWNER=" + owner, "DEMO_REPO=" + repo,
	}
}

// runBlock runs one code block as `showboat verify` does: `LANG -c CODE` in
// a new process in dir, standard input empty, standard output and error
// into one buffer in the order written. A non-zero exit is not a failure:
// only the output counts.
func runBlock(dir string, env []string, b *block) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), blockTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.lang, "-c", b.code)
	var buf bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, &buf, &buf
	// A background process left holding the output would otherwise keep
	// Wait waiting after the block itself ended.
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return buf.String(), errors.New("still running after " + blockTimeout.String())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return buf.String(), err
	}
	return buf.String(), nil
}
