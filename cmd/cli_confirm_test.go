//go:build linux

package cmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// openPTY opens a pseudo-terminal: what a person types goes into master,
// the program reads it from the terminal tty.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close(); _ = m.Close() })
	return m, s
}

// TestConfirmDestructive: on a terminal a destructive tool asks first and
// sends nothing unless the answer is yes; --yes skips the question; a
// script (standard input not a terminal, /dev/null included) is never
// asked, as before; a tool that only reads or adds is never asked.
func TestConfirmDestructive(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("DELETE /api/v1/repos/o/r/releases/5", 204, nil)
	f.JSON("GET /api/v1/repos/o/r/releases/5", 200, map[string]any{"id": 5, "tag_name": "v1"})
	f.JSON("GET /api/v1/repos/o/r/issues/3", 200, map[string]any{"number": 3, "title": "t", "state": "open", "user": map[string]any{"login": "a"}})
	env := fakeEnv(f)
	deletes := func() int {
		n := 0
		for _, r := range f.Requests() {
			if r.Method == "DELETE" {
				n++
			}
		}
		return n
	}
	call := func(in *os.File, args ...string) run {
		var out, errb bytes.Buffer
		code := Main(context.Background(), append([]string{"--cli", "delete_release", "-R", "o/r", "--release-id", "5"}, args...),
			IO{In: in, Out: &out, Err: &errb}, func(k string) string { return env[k] })
		return run{code, out.String(), errb.String()}
	}

	for _, answer := range []string{"n\n", "\n", "whatever\n", "no\n"} {
		master, tty := openPTY(t)
		_, err := master.WriteString(answer)
		require.NoError(t, err)
		r := call(tty)
		assert.Equal(t, ExitToolError, r.code, "answer %q", answer)
		assert.Contains(t, r.err, "delete_release changes or deletes what exists on the forge: o/r release_id=5\nDelete a release? [y/N] ")
		assert.Contains(t, r.err, "not confirmed; nothing was sent (--yes skips the question)")
		assert.Zero(t, deletes(), "answer %q", answer)
	}
	for _, answer := range []string{"y\n", "YES\n"} {
		master, tty := openPTY(t)
		_, err := master.WriteString(answer)
		require.NoError(t, err)
		before := deletes()
		r := call(tty)
		assert.Equal(t, ExitOK, r.code, r.err)
		assert.Equal(t, before+1, deletes())
	}

	_, tty := openPTY(t)
	before := deletes()
	r := call(tty, "--yes")
	assert.Equal(t, ExitOK, r.code, r.err)
	assert.NotContains(t, r.err, "[y/N]")
	assert.Equal(t, before+1, deletes())

	devNull, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer devNull.Close()
	r = call(devNull)
	assert.Equal(t, ExitOK, r.code, r.err)
	assert.NotContains(t, r.err, "[y/N]", "a script is not asked")
	assert.Equal(t, before+2, deletes())

	_, tty = openPTY(t)
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"--cli", "get_issue_by_index", "-R", "o/r", "--index", "3"},
		IO{In: tty, Out: &out, Err: &errb}, func(k string) string { return env[k] })
	assert.Equal(t, ExitOK, code, errb.String())
	assert.False(t, strings.Contains(errb.String(), "[y/N]"), "a read is never asked")
}

// TestConfirmThroughCallTool: call_tool asks what the tool it calls would
// ask: a destructive call is confirmed first, a read is not.
func TestConfirmThroughCallTool(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("DELETE /api/v1/repos/o/r/releases/5", 204, nil)
	f.JSON("GET /api/v1/repos/o/r/issues/3", 200, map[string]any{"number": 3, "title": "t", "state": "open", "user": map[string]any{"login": "a"}})
	env := fakeEnv(f)
	call := func(answer, name, arguments string) run {
		master, tty := openPTY(t)
		_, err := master.WriteString(answer)
		require.NoError(t, err)
		var out, errb bytes.Buffer
		code := Main(context.Background(), []string{"--cli", "call_tool", "--name", name, "--arguments", arguments},
			IO{In: tty, Out: &out, Err: &errb}, func(k string) string { return env[k] })
		return run{code, out.String(), errb.String()}
	}
	r := call("n\n", "delete_release", `{"owner":"o","repo":"r","release_id":5}`)
	assert.Equal(t, ExitToolError, r.code, r.err)
	assert.Contains(t, r.err, "delete_release changes or deletes what exists on the forge: o/r release_id=5\nDelete a release? [y/N] ")
	assert.Empty(t, f.Requests(), "nothing was sent")

	r = call("y\n", "delete_release", `{"owner":"o","repo":"r","release_id":5}`)
	assert.Equal(t, ExitOK, r.code, r.err)
	require.Len(t, f.Requests(), 1)
	assert.Equal(t, "DELETE", f.Requests()[0].Method)

	r = call("", "get_issue_by_index", `{"owner":"o","repo":"r","index":3}`)
	assert.Equal(t, ExitOK, r.code, r.err)
	assert.NotContains(t, r.err, "[y/N]", "a read is never asked")
	assert.Contains(t, r.out, `"title"`)

	r = call("", "get_issue_by_index", `not json`)
	assert.Equal(t, ExitUsage, r.code, r.err)
	assert.Contains(t, r.err, "must be a JSON object")
}
