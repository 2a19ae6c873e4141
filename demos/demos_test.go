// Package demos replays the Showboat documents in this directory against a
// live forge, so a demo that no longer matches what forgejo-mcp does fails
// the build instead of misleading a reader.
//
// Showboat itself is not installable here, and its verify runs each block
// in a fresh shell; these demos carry variables (an issue number, an
// attachment id) from block to block. So the runner is this test: for each
// demos/*.md it builds the binary, creates a fresh private repository, runs
// every ```bash block in order in one bash session, and compares what it
// printed (stdout and stderr together) with the ```output block after it.
// UPDATE_DEMOS=1 rewrites the output blocks instead. See demos/README.md.
package demos

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// blockTimeout bounds one block; the slowest reads a few MiB in windows.
const blockTimeout = 3 * time.Minute

func TestDemos(t *testing.T) {
	docs, err := filepath.Glob("*.md")
	require.NoError(t, err)
	var demos []string
	for _, d := range docs {
		if d != "README.md" {
			demos = append(demos, d)
		}
	}
	require.NotEmpty(t, demos)
	f := testforge.Get(t)
	for _, tool := range []string{"bash", "python3", "sha256sum", "sed", "curl"} {
		_, err := exec.LookPath(tool)
		require.NoError(t, err, "the demos need %s", tool)
	}
	bin := filepath.Join(t.TempDir(), "forgejo-mcp")
	out, err := exec.Command("go", "build", "-o", bin, "codeberg.org/forgejo-mcp/forgejo-mcp").CombinedOutput()
	require.NoError(t, err, "building the binary: %s", out)
	update := os.Getenv("UPDATE_DEMOS") != ""
	for _, doc := range demos {
		t.Run(strings.TrimSuffix(doc, ".md"), func(t *testing.T) {
			owner, repo := f.NewRepo(t)
			src, err := os.ReadFile(doc)
			require.NoError(t, err)
			d, err := parse(string(src))
			require.NoError(t, err)
			require.Contains(t, d.lines[:min(len(d.lines), 5)], "<!-- showboat-id: "+d.id+" -->", "a Showboat header")
			work := t.TempDir()
			require.NoError(t, os.Link(bin, filepath.Join(work, "forgejo-mcp")))
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + work, "LC_ALL=C.UTF-8", "TZ=UTC",
				"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token,
				"DEMO_OWNER=" + owner, "DEMO_REPO=" + repo}
			sh := startShell(t, work, env)
			for i, b := range d.blocks {
				start := time.Now()
				got, err := sh.run(b.code)
				require.NoError(t, err, "%s block %d", doc, i+1)
				t.Logf("block %d: %s", i+1, time.Since(start).Round(time.Millisecond))
				if update {
					b.output = got
					continue
				}
				require.True(t, b.hasOutput, "%s block %d has no ```output block after it", doc, i+1)
				assert.Equal(t, b.output, got, "%s block %d:\n%s", doc, i+1, b.code)
			}
			sh.close(t)
			if update {
				require.NoError(t, os.WriteFile(doc, []byte(d.render()), 0o644))
			}
		})
	}
}

// doc is a parsed Showboat document: its lines, and the bash blocks with
// the output block after each.
type doc struct {
	id     string
	lines  []string
	blocks []*block
}

type block struct {
	code      string
	output    string
	hasOutput bool
	// codeEnd is the index of the bash block's closing fence; outStart and
	// outEnd those of the output block's fences, when it has one.
	codeEnd, outStart, outEnd int
}

func parse(src string) (*doc, error) {
	d := &doc{lines: strings.Split(strings.TrimSuffix(src, "\n"), "\n")}
	for _, l := range d.lines {
		if rest, ok := strings.CutPrefix(l, "<!-- showboat-id: "); ok {
			d.id = strings.TrimSuffix(rest, " -->")
			break
		}
	}
	fenceEnd := func(from int) (int, error) {
		for j := from; j < len(d.lines); j++ {
			if d.lines[j] == "```" {
				return j, nil
			}
		}
		return 0, fmt.Errorf("line %d: unclosed fence", from)
	}
	for i := 0; i < len(d.lines); i++ {
		if d.lines[i] != "```bash" {
			continue
		}
		end, err := fenceEnd(i + 1)
		if err != nil {
			return nil, err
		}
		b := &block{code: strings.Join(d.lines[i+1:end], "\n"), codeEnd: end}
		next := end + 1
		for next < len(d.lines) && d.lines[next] == "" {
			next++
		}
		if next < len(d.lines) && d.lines[next] == "```output" {
			oend, err := fenceEnd(next + 1)
			if err != nil {
				return nil, err
			}
			b.hasOutput, b.outStart, b.outEnd = true, next, oend
			if oend > next+1 {
				b.output = strings.Join(d.lines[next+1:oend], "\n") + "\n"
			}
			end = oend
		}
		d.blocks = append(d.blocks, b)
		i = end
	}
	return d, nil
}

// render writes the document back with each block's output, adding an
// output block where one was missing.
func (d *doc) render() string {
	var out []string
	pos := 0
	for _, b := range d.blocks {
		outBlock := append([]string{"```output"}, strings.Split(strings.TrimSuffix(b.output, "\n"), "\n")...)
		if b.output == "" {
			outBlock = []string{"```output"}
		}
		outBlock = append(outBlock, "```")
		if b.hasOutput {
			out = append(out, d.lines[pos:b.outStart]...)
			out = append(out, outBlock...)
			pos = b.outEnd + 1
		} else {
			out = append(out, d.lines[pos:b.codeEnd+1]...)
			out = append(out, "")
			out = append(out, outBlock...)
			pos = b.codeEnd + 1
		}
	}
	out = append(out, d.lines[pos:]...)
	return strings.Join(out, "\n") + "\n"
}

// shell is one bash session, so variables and functions carry over from
// block to block.
type shell struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	marker string
}

func startShell(t *testing.T, dir string, env []string) *shell {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	cmd := exec.Command("bash", "--noprofile", "--norc")
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, w, w
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	_ = w.Close() // the shell holds its own copy
	buf := make([]byte, 8)
	_, _ = rand.Read(buf)
	sh := &shell{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(r, 1<<16), marker: "__demo_block_done_" + hex.EncodeToString(buf) + "__"}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = r.Close() })
	return sh
}

// run sends code to the shell and returns what it printed. The block reads
// /dev/null, not the session's script, and a marker line ends its output.
func (s *shell) run(code string) (string, error) {
	script := "{\n" + code + "\n} </dev/null\nprintf '\\n%s\\n' '" + s.marker + "'\n"
	if _, err := io.WriteString(s.stdin, script); err != nil {
		return "", fmt.Errorf("writing to bash: %w", err)
	}
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		var b bytes.Buffer
		end := "\n" + s.marker + "\n"
		for {
			line, err := s.out.ReadString('\n')
			b.WriteString(line)
			if strings.HasSuffix(b.String(), end) {
				done <- result{strings.TrimSuffix(b.String(), end), nil}
				return
			}
			if err != nil {
				done <- result{b.String(), fmt.Errorf("bash ended before the block did: %w", err)}
				return
			}
		}
	}()
	select {
	case r := <-done:
		if r.out != "" && !strings.HasSuffix(r.out, "\n") {
			r.out += "\n"
		}
		return r.out, r.err
	case <-time.After(blockTimeout):
		_ = s.cmd.Process.Kill()
		return "", fmt.Errorf("block still running after %s", blockTimeout)
	}
}

func (s *shell) close(t *testing.T) {
	t.Helper()
	_ = s.stdin.Close()
	assert.NoError(t, s.cmd.Wait(), "bash exited cleanly")
}
