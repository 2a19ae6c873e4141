package cmd_test

// The built binary serving streamable HTTP, driven over loopback as a
// client would.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// httpProc is the binary serving --transport http on a free loopback port.
type httpProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:PORT
	stdout *fakeforge.SyncBuffer
	stderr *fakeforge.SyncBuffer
	exited chan error
}

var endpointRe = regexp.MustCompile(`endpoint=(http://[0-9.:]+)/mcp`)

// startHTTP runs the binary against forgeURL with env (PATH and HOME are
// added) and extra flags, and waits until it serves.
func startHTTP(t *testing.T, forgeURL string, env []string, args ...string) *httpProc {
	t.Helper()
	bin, err := binaryPath()
	require.NoError(t, err)
	cmd := exec.Command(bin, append([]string{"--url", forgeURL, "--transport", "http", "--http-addr", "127.0.0.1:0", "--toolsets", "all"}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	p := &httpProc{t: t, cmd: cmd, stdout: &fakeforge.SyncBuffer{}, stderr: &fakeforge.SyncBuffer{}, exited: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = p.stdout, p.stderr
	require.NoError(t, cmd.Start())
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if t.Failed() {
			t.Logf("server stderr:\n%s", p.stderr.String())
		}
	})
	require.Eventually(t, func() bool {
		m := endpointRe.FindStringSubmatch(p.stderr.String())
		if m != nil {
			p.base = m[1]
		}
		return m != nil
	}, 10*time.Second, 10*time.Millisecond, "server start")
	return p
}

// call POSTs one JSON-RPC request to /mcp with the Authorization value
// auth and returns the status and the whole reply (headers and body).
func (p *httpProc) call(auth string, msg map[string]any) (int, string, error) {
	body, err := json.Marshal(msg)
	require.NoError(p.t, err)
	req, err := http.NewRequest(http.MethodPost, p.base+"/mcp", bytes.NewReader(body))
	require.NoError(p.t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var all bytes.Buffer
	_ = resp.Header.Write(&all)
	_, err = io.Copy(&all, resp.Body)
	return resp.StatusCode, all.String(), err
}

// TestHTTPShutdownAnswersInFlight: with the default timeouts, SIGTERM
// while requests are in flight (one whose token check the forge answers
// after 24 s, then its call hangs; one whose call hangs; one whose check
// never gets an answer) still answers each of them, within the shutdown
// window (--call-timeout + 5 s), and the process exits 0. The token check
// used to have its own 25 s on top of the call's 30 s, so the first
// request outlived the window, was cut, and the process exited 1.
func TestHTTPShutdownAnswersInFlight(t *testing.T) {
	t.Parallel() // 30 s of waiting on the default call timeout
	const slowCheck, fastCheck, deadCheck = "slow-check-0123456789abcdef", "fast-check-0123456789abcdef", "dead-check-0123456789abcdef"
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, r *http.Request) {
		switch strings.TrimPrefix(r.Header.Get("Authorization"), "token ") {
		case slowCheck:
			select {
			case <-time.After(24 * time.Second):
			case <-r.Context().Done():
				return
			}
		case deadCheck:
			<-r.Context().Done()
			return
		}
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": 1, "login": "alice"})
	})
	started := make(chan struct{}, 4)
	f.Handle("GET /api/v1/user/repos", func(_ http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		<-r.Context().Done() // the call hangs until its deadline aborts it
	})
	p := startHTTP(t, f.URL, nil)

	type reply struct {
		token  string
		status int
		body   string
		err    error
		at     time.Duration
	}
	replies := make(chan reply, 3)
	begin := time.Now()
	for _, tok := range []string{slowCheck, fastCheck, deadCheck} {
		go func() {
			status, body, err := p.call("token "+tok, toolCall(1, "list_my_repos", nil))
			replies <- reply{tok, status, body, err, time.Since(begin)}
		}()
	}
	waitN(t, started, 1, "the fast request's call reaching the forge")
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	sigterm := time.Since(begin)

	got := map[string]reply{}
	for range 3 {
		select {
		case r := <-replies:
			got[r.token] = r
		case <-time.After(40 * time.Second):
			t.Fatalf("not every request was answered; got %v", got)
		}
	}
	window := 35 * time.Second // --call-timeout 30 s + 5 s
	for tok, r := range got {
		require.NoError(t, r.err, "%s: a reply, not a cut connection", tok)
		assert.Less(t, r.at-sigterm, window, "%s answered within the shutdown window", tok)
	}
	assert.Equal(t, http.StatusOK, got[slowCheck].status)
	assert.Contains(t, got[slowCheck].body, `"isError":true`)
	assert.Contains(t, got[slowCheck].body, "timed out")
	assert.Equal(t, http.StatusOK, got[fastCheck].status)
	assert.Contains(t, got[fastCheck].body, "timed out")
	assert.Contains(t, []int{http.StatusBadGateway, http.StatusGatewayTimeout}, got[deadCheck].status, got[deadCheck].body)
	select {
	case err := <-p.exited:
		require.NoError(t, err, "exit code 0")
	case <-time.After(10 * time.Second):
		t.Fatal("no exit after the last reply")
	}
	assert.Less(t, time.Since(begin), 34*time.Second, "everything is over by --call-timeout from the requests' start")
	assert.Contains(t, p.stderr.String(), "HTTP server stopped")
}
