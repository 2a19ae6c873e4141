package cmd_test

// Tests of the built binary over the wire: raw JSON-RPC lines on its
// stdin, against a fake forge on loopback, as hostile or careless clients
// would send them.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// binaryPath builds the binary once per test process.
var binaryPath = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "forgejo-mcp-wire")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "forgejo-mcp")
	out, err := exec.Command("go", "build", "-o", bin, "codeberg.org/forgejo-mcp/forgejo-mcp").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// proc is the running binary.
type proc struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan map[string]any
	stdout *fakeforge.SyncBuffer
	stderr *fakeforge.SyncBuffer
	exited chan error
}

// start runs the binary against forgeURL with the fake's token in its
// environment (never in argv) and extra flags (--toolsets all unless
// they give --toolsets).
func start(t *testing.T, forgeURL string, args ...string) *proc {
	t.Helper()
	bin, err := binaryPath()
	require.NoError(t, err)
	// all,admin: every tool, site administration too (all leaves it out),
	// unless the test names its own --toolsets.
	head := []string{"--url", forgeURL, "--toolsets", "all,admin"}
	if slices.Contains(args, "--toolsets") {
		head = head[:2]
	}
	cmd := exec.Command(bin, append(head, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "FORGEJO_ACCESS_TOKEN=" + fakeforge.Token}
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	p := &proc{t: t, cmd: cmd, stdin: stdin, lines: make(chan map[string]any, 4096),
		stdout: &fakeforge.SyncBuffer{}, stderr: &fakeforge.SyncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	require.NoError(t, cmd.Start())
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(io.TeeReader(stdout, p.stdout))
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("stdout line is not JSON: %q", sc.Text())
				continue
			}
			p.lines <- m
		}
	}()
	go func() {
		<-readDone
		p.exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("the server did not exit after stdin closed")
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", p.stderr.String())
		}
	})
	return p
}

func (p *proc) send(line string) {
	p.t.Helper()
	_, err := io.WriteString(p.stdin, line+"\n")
	require.NoError(p.t, err)
}

func (p *proc) sendJSON(v any) {
	p.t.Helper()
	b, err := json.Marshal(v)
	require.NoError(p.t, err)
	p.send(string(b))
}

func (p *proc) recv() map[string]any {
	p.t.Helper()
	select {
	case m := <-p.lines:
		return m
	case <-time.After(15 * time.Second):
		p.t.Fatalf("no reply within 15s; stderr:\n%s", p.stderr.String())
		return nil
	}
}

func (p *proc) initialize() {
	p.t.Helper()
	p.sendJSON(map[string]any{"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "wire", "version": "1"}}})
	m := p.recv()
	require.Equal(p.t, "init", m["id"])
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func toolCall(id any, name string, args map[string]any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": name, "arguments": args}}
}

func resultText(t *testing.T, m map[string]any) (bool, string) {
	t.Helper()
	res, ok := m["result"].(map[string]any)
	require.True(t, ok, "a tool result, got %v", m)
	isErr, _ := res["isError"].(bool)
	return isErr, res["content"].([]any)[0].(map[string]any)["text"].(string)
}

// blockingForge answers /api/v1/user only when the request is aborted,
// reporting starts and aborts.
func blockingForge(t *testing.T) (*fakeforge.Server, chan struct{}, chan struct{}) {
	f := fakeforge.New(t)
	started, aborted := f.Blocking("GET /api/v1/user")
	return f, started, aborted
}

func waitN(t *testing.T, ch chan struct{}, n int, what string) {
	t.Helper()
	for i := range n {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: %d of %d", what, i, n)
		}
	}
}

// TestWireSIGTERM: SIGTERM cancels in-flight calls (their forge requests
// are aborted) and the process exits cleanly within a few seconds.
func TestWireSIGTERM(t *testing.T) {
	f, started, aborted := blockingForge(t)
	p := start(t, f.URL)
	p.initialize()
	for i := range 3 {
		p.sendJSON(toolCall(i, "get_my_user_info", nil))
	}
	waitN(t, started, 3, "calls reaching the forge")
	begin := time.Now()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	waitN(t, aborted, 3, "forge requests aborted")
	select {
	case err := <-p.exited:
		require.NoError(t, err, "exit code 0")
		p.exited <- err
	case <-time.After(5 * time.Second):
		t.Fatal("the process did not exit within 5s of SIGTERM")
	}
	assert.Less(t, time.Since(begin), 5*time.Second)
	assert.Contains(t, p.stdout.String(), "cancelled (server shutting down)")
}

// TestWireBusyAndCancel: with the default --max-concurrent-per-user 4 (on
// stdio every call is the one user's), a fifth call is refused at once; notifications/cancelled aborts the forge
// request and the cancelled call gets no reply.
func TestWireBusyAndCancel(t *testing.T) {
	f, started, aborted := blockingForge(t)
	p := start(t, f.URL)
	p.initialize()
	for i := 1; i <= 4; i++ {
		p.sendJSON(toolCall(i, "get_my_user_info", nil))
	}
	waitN(t, started, 4, "calls reaching the forge")
	begin := time.Now()
	p.sendJSON(toolCall(5, "get_my_user_info", nil))
	m := p.recv()
	assert.EqualValues(t, 5, m["id"])
	isErr, text := resultText(t, m)
	assert.True(t, isErr)
	assert.Contains(t, text, "busy: you already have 4 tool calls running, the limit per user")
	assert.Less(t, time.Since(begin), 2*time.Second)

	for i := 1; i <= 4; i++ {
		p.sendJSON(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{"requestId": i}})
	}
	waitN(t, aborted, 4, "forge requests aborted by cancellation")
	p.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	m = p.recv()
	assert.Equal(t, "after", m["id"], "no reply for the cancelled calls")
	select {
	case m := <-p.lines:
		t.Fatalf("unexpected message after cancellation: %v", m)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestWireFrameAndArgumentLimits: with the default limits, a frame past
// 16 MiB is refused unread with a JSON-RPC error, a non-upload tool's
// arguments past 256 KiB get an isError result, an upload of the largest
// default size (10 MiB in base64) fits, and the server keeps serving.
func TestWireFrameAndArgumentLimits(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("/", func(w http.ResponseWriter, r *http.Request) {
		fakeforge.WriteJSON(w, http.StatusNotFound, map[string]string{"message": "not here"})
	})
	p := start(t, f.URL)
	p.initialize()

	big := `{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"get_my_user_info","arguments":{"x":"` +
		strings.Repeat("A", 16<<20) + `"}}}`
	p.send(big)
	m := p.recv()
	assert.Equal(t, "huge", m["id"])
	e := m["error"].(map[string]any)
	assert.EqualValues(t, -32600, e["code"])
	assert.Contains(t, e["message"], "larger than the")

	p.sendJSON(toolCall("args", "create_issue", map[string]any{"owner": "o", "repo": "r", "title": "t", "body": strings.Repeat("b", 300<<10)}))
	isErr, text := resultText(t, p.recv())
	assert.True(t, isErr)
	assert.Contains(t, text, "over this tool's limit of 256 KiB")

	upload := make([]byte, 10<<20)
	p.sendJSON(toolCall("upload", "create_issue_attachment", map[string]any{"owner": "o", "repo": "r", "index": 1,
		"filename": "big.bin", "content": upload}))
	m = p.recv()
	assert.Equal(t, "upload", m["id"])
	isErr, text = resultText(t, m)
	assert.True(t, isErr, "the fake forge has no such issue")
	assert.NotContains(t, text, "limit", "a 10 MiB upload is within every bound: %s", text)
	assert.Contains(t, text, "not found")

	p.send(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`)
	assert.Equal(t, "ping", p.recv()["id"])
}
