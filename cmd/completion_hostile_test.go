//go:build linux

package cmd_test

// Completion against hostile names, in real interactive shells on a
// pseudo-terminal: a person presses TAB after `--from `, the one candidate
// (a branch the forge lists, named by a stranger) is inserted as the shell
// inserts it, and Enter runs the line. The name must arrive as one
// argument, exactly, and nothing in it may run.

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pty"
)

// hostileNames are branch names a stranger can push (git allows all but
// the last three) or a hostile forge can list. dropped are left out of
// the candidates; the others must be inserted as themselves.
var hostileNames = []struct {
	name    string
	dropped bool
}{
	{"x$(touch${IFS}PWNED1)", false},
	{"b`touch PWNED2`", false},
	{"c;touch PWNED3", false},
	{"d|touch PWNED4", false},
	{"e&touch PWNED5&", false},
	{"f>PWNED6", false},
	{`g'q"uote`, false},
	{"h with space", false},
	{"i*", false},
	{"~j", false},
	{"-k", false},
	{"$HOME", false},
	{"l\nm", true},
	{"n\x1b[2Jo", true},
	{"p\u202eq", true},
}

// shellDrivers start each shell interactive with the completion loaded.
var shellDrivers = map[string]struct {
	args []string
	load string
}{
	"bash": {[]string{"--norc", "--noprofile", "-i"}, "PS1='$ '; source <(forgejo-mcp completion bash)"},
	"zsh":  {[]string{"-f", "-i"}, "PS1='$ '; autoload -U compinit && compinit -u && source <(forgejo-mcp completion zsh)"},
	"fish": {[]string{"--no-config", "-i"}, "function fish_prompt; echo '$ '; end; forgejo-mcp completion fish | source"},
}

// TestCompletionHostileNames: in bash, zsh and fish, TAB then Enter on
// `forgejo-mcp --cli create_branch -R o/r --from ` with the forge listing
// one hostile branch runs forgejo-mcp with that name as the --from value,
// byte for byte, and runs nothing the name holds; a name with a newline
// or a control character is never offered.
func TestCompletionHostileNames(t *testing.T) {
	bin, err := binaryPath()
	require.NoError(t, err)
	var mu sync.Mutex
	current := ""
	f := fakeforge.New(t)
	// Each name is another repository's branch: completion keeps what it
	// looked up for a minute, per repository.
	f.Handle("GET /api/v1/repos/o/{repo}/git/refs/heads", func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		fakeforge.WriteJSON(w, 200, []map[string]any{{"ref": "refs/heads/" + current}})
	})
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			sh := requireShell(t, shell)
			dir := t.TempDir()
			stubs := filepath.Join(dir, "bin")
			require.NoError(t, os.Mkdir(stubs, 0o755))
			// forgejo-mcp on PATH: the real binary for __complete (it
			// then leaves a mark), else a recorder of its arguments.
			stub := fmt.Sprintf("#!/bin/sh\nif [ \"$1\" = __complete ]; then %q \"$@\"; s=$?; : >%q; exit $s; fi\nif [ \"$1\" = completion ]; then exec %q \"$@\"; fi\nprintf '%%s\\0' \"$@\" >%q.tmp && mv %q.tmp %q\n",
				bin, filepath.Join(dir, "completed"), bin, filepath.Join(dir, "argv"), filepath.Join(dir, "argv"), filepath.Join(dir, "argv"))
			require.NoError(t, os.WriteFile(filepath.Join(stubs, "forgejo-mcp"), []byte(stub), 0o755))
			work := filepath.Join(dir, "work")
			require.NoError(t, os.Mkdir(work, 0o755))

			drv := shellDrivers[shell]
			cmd := exec.Command(sh, drv.args...)
			cmd.Dir = work
			cmd.Env = []string{"PATH=" + stubs + ":" + os.Getenv("PATH"), "HOME=" + dir, "TERM=xterm", "LC_ALL=C.UTF-8",
				"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + fakeforge.Token, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
				"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"), "XDG_DATA_HOME=" + filepath.Join(dir, "data")}
			term, err := pty.Start(cmd)
			require.NoError(t, err)
			var screen bytes.Buffer
			var screenMu sync.Mutex
			go func() {
				buf := make([]byte, 4096)
				for {
					n, err := term.Read(buf)
					screenMu.Lock()
					screen.Write(buf[:n])
					screenMu.Unlock()
					if err != nil {
						return
					}
				}
			}()
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				_ = term.Close()
			})
			dump := func() string {
				screenMu.Lock()
				defer screenMu.Unlock()
				s := screen.String()
				if len(s) > 3000 {
					s = s[len(s)-3000:]
				}
				return s
			}
			waitFile := func(path string) bool {
				deadline := time.Now().Add(15 * time.Second)
				for time.Now().Before(deadline) {
					if _, err := os.Stat(path); err == nil {
						return true
					}
					time.Sleep(20 * time.Millisecond)
				}
				return false
			}
			_, err = io.WriteString(term, drv.load+"\r")
			require.NoError(t, err)
			// The shell is ready when a first line runs.
			_, err = io.WriteString(term, "forgejo-mcp ready\r")
			require.NoError(t, err)
			require.True(t, waitFile(filepath.Join(dir, "argv")), "the shell did not start: %q", dump())
			require.NoError(t, os.Remove(filepath.Join(dir, "argv")))

			for i, h := range hostileNames {
				repo := fmt.Sprintf("o/r%d", i)
				mu.Lock()
				current = h.name
				mu.Unlock()
				_ = os.Remove(filepath.Join(dir, "completed"))
				_, err := io.WriteString(term, "forgejo-mcp --cli create_branch -R "+repo+" --from \t")
				require.NoError(t, err)
				require.True(t, waitFile(filepath.Join(dir, "completed")), "%q: no completion ran: %q", h.name, dump())
				time.Sleep(300 * time.Millisecond) // the shell inserts what it read
				_, err = io.WriteString(term, "\r")
				require.NoError(t, err)
				require.True(t, waitFile(filepath.Join(dir, "argv")), "%q: the line did not run: %q", h.name, dump())
				b, err := os.ReadFile(filepath.Join(dir, "argv"))
				require.NoError(t, err)
				require.NoError(t, os.Remove(filepath.Join(dir, "argv")))
				argv := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
				want := []string{"--cli", "create_branch", "-R", repo, "--from", h.name}
				if h.dropped {
					want = want[:5] // nothing was offered
				}
				assert.Equal(t, want, argv, "%s: %q", shell, h.name)
				pwned, _ := filepath.Glob(filepath.Join(work, "PWNED*"))
				assert.Empty(t, pwned, "%s ran a command held in %q", shell, h.name)
			}
		})
	}
}
