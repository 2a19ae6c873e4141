//go:build unix

package cmd_test

// Standard input and signals, with the built binary as a real process: a
// --cli call reads standard input only when asked, and SIGINT or SIGTERM
// end it promptly with the status a shell expects.

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// promptly bounds how long a signalled call may take to exit: the
// command's cleanup grace (2 s) and a loaded machine's scheduling.
const promptly = 6 * time.Second

// TestCLIDoesNotReadStdinUnasked: with standard input a pipe nobody
// closes, a call without --args - answers at once; in a shell loop that
// reads a list, each call leaves the list to the loop.
func TestCLIDoesNotReadStdinUnasked(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", 200, map[string]any{"login": "alice"})
	bin, err := binaryPath()
	require.NoError(t, err)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + fakeforge.Token}

	t.Run("open pipe", func(t *testing.T) {
		cmd := exec.Command(bin, "--cli", "get_my_user_info")
		cmd.Env = env
		stdin, err := cmd.StdinPipe() // never written, never closed until the end
		require.NoError(t, err)
		defer stdin.Close()
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		require.NoError(t, cmd.Start())
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			require.NoError(t, err, errb.String())
			assert.Contains(t, out.String(), `"login": "alice"`)
		case <-time.After(promptly):
			_ = cmd.Process.Kill()
			t.Fatal("the call waited for standard input it was not asked to read")
		}
	})

	t.Run("shell loop", func(t *testing.T) {
		sh, err := exec.LookPath("sh")
		require.NoError(t, err)
		list := filepath.Join(t.TempDir(), "list")
		require.NoError(t, os.WriteFile(list, []byte("one\ntwo\nthree\n"), 0o600))
		cmd := exec.Command(sh, "-c", `while read -r w; do "$0" --cli get_my_user_info >/dev/null || exit 1; echo "$w"; done < "$1"`, bin, list)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		assert.Equal(t, "one\ntwo\nthree\n", string(out))
	})

	t.Run("piped JSON without --args - is named", func(t *testing.T) {
		cmd := exec.Command(bin, "--cli", "get_issue_by_index")
		cmd.Env = env
		cmd.Stdin = strings.NewReader(`{"owner":"o","repo":"r","index":1}`)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit)
		assert.Equal(t, 2, exit.ExitCode())
		assert.Contains(t, errb.String(), "standard input is read for arguments only with --args -")
	})

	t.Run("--args - reads it", func(t *testing.T) {
		f.JSON("GET /api/v1/repos/o/r/issues/1", 200, map[string]any{"number": 1, "title": "from stdin"})
		cmd := exec.Command(bin, "--cli", "get_issue_by_index", "--args", "-")
		cmd.Env = env
		cmd.Stdin = strings.NewReader(`{"owner":"o","repo":"r","index":1}`)
		out, err := cmd.Output()
		require.NoError(t, err)
		assert.Contains(t, string(out), "from stdin")
	})
}

// startSignalled starts bin with args and a token file that is a FIFO:
// the process opening it to read the token is past its start-up, its
// signal handlers in place, so a signal sent then tests the handling, not
// a race with the runtime's start. It returns the command and its exit.
func startSignalled(t *testing.T, forgeURL string, args ...string) (*exec.Cmd, <-chan error, *bytes.Buffer) {
	t.Helper()
	bin, err := binaryPath()
	require.NoError(t, err)
	fifo := filepath.Join(t.TempDir(), "token")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "FORGEJO_URL=" + forgeURL, "FORGEJO_TOKEN_FILE=" + fifo}
	stdin, err := cmd.StdinPipe() // open, never closed: nothing to read
	require.NoError(t, err)
	t.Cleanup(func() { _ = stdin.Close() })
	var errb bytes.Buffer
	cmd.Stderr = &errb
	require.NoError(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
		}
	})
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // blocks until the process reads its token
	require.NoError(t, err)
	_, err = fmt.Fprintln(w, fakeforge.Token)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return cmd, done, &errb
}

// TestCLISignals: SIGINT ends a call with 130 and SIGTERM with 143, both
// while it waits on standard input (--args - or --body-file - on a pipe
// that stays open, which no read can be interrupted from) and while it
// waits on a forge that does not answer.
func TestCLISignals(t *testing.T) {
	f := fakeforge.New(t)
	arrived := make(chan struct{}, 4)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	tests := []struct {
		name     string
		args     []string
		waitHTTP bool
	}{
		{"--args - on an open pipe", []string{"--cli", "get_issue_by_index", "--args", "-"}, false},
		{"--body-file - on an open pipe", []string{"--cli", "create_issue", "-R", "o/r", "--title", "t", "--body-file", "-"}, false},
		{"a forge that does not answer", []string{"--cli", "get_my_user_info"}, true},
	}
	for _, tt := range tests {
		for _, sig := range []struct {
			sig  syscall.Signal
			code int
		}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
			t.Run(fmt.Sprintf("%s %v", tt.name, sig.sig), func(t *testing.T) {
				cmd, done, errb := startSignalled(t, f.URL, tt.args...)
				if tt.waitHTTP {
					select {
					case <-arrived:
					case err := <-done:
						t.Fatalf("exited before calling the forge: %v: %s", err, errb)
					}
				}
				sent := time.Now()
				require.NoError(t, cmd.Process.Signal(sig.sig))
				select {
				case err := <-done:
					var exit *exec.ExitError
					require.True(t, errors.As(err, &exit), "exit: %v; stderr: %s", err, errb)
					assert.Equal(t, sig.code, exit.ExitCode(), "stderr: %s", errb)
					t.Logf("exited %d after %v", exit.ExitCode(), time.Since(sent).Round(time.Millisecond))
				case <-time.After(promptly):
					t.Fatalf("still running %v after %v", promptly, sig.sig)
				}
			})
		}
	}
}
