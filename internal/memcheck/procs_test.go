package memcheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// binary is the binary to measure: $MEMCHECK_BIN, or this tree built once.
func binary(t *testing.T) string {
	if b := os.Getenv(envBin); b != "" {
		return b
	}
	bin := filepath.Join(t.TempDir(), "forgejo-mcp")
	out, err := exec.Command("go", "build", "-o", bin, "codeberg.org/forgejo-mcp/forgejo-mcp").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// vmHWM is the peak resident set of pid in KiB.
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("reading the server's status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("parsing VmHWM %q: %v", v, err)
			}
			return kb
		}
	}
	t.Fatal("no VmHWM in /proc/PID/status")
	return 0
}

// stdioProc is the binary serving stdio.
type stdioProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte
	stderr *bytes.Buffer
}

func startStdio(t *testing.T, bin, forgeURL string, env []string) *stdioProc {
	t.Helper()
	return startStdioArgs(t, bin, forgeURL, env)
}

// startStdioArgs is startStdio with more flags.
func startStdioArgs(t *testing.T, bin, forgeURL string, env []string, flags ...string) *stdioProc {
	t.Helper()
	args := append([]string{"--url", forgeURL, "--log-level", "warn"}, flags...)
	cmd := exec.Command(bin, append(args, strings.Fields(os.Getenv(envArgs))...)...)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &stdioProc{cmd: cmd, stdin: stdin, lines: make(chan []byte, 16), stderr: &bytes.Buffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			p.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", p.stderr.String())
		}
	})
	return p
}

// roundTrip sends one message and returns the next reply.
func (p *stdioProc) roundTrip(t *testing.T, msg []byte) map[string]any {
	t.Helper()
	if _, err := p.stdin.Write(append(msg, '\n')); err != nil {
		t.Fatalf("writing to the server: %v", err)
	}
	return p.next(t)
}

// next reads the server's next reply.
func (p *stdioProc) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			t.Fatal("the server closed stdout (it died?)")
		}
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("reply is not JSON: %q", clip(string(line)))
		}
		return m
	case <-time.After(3 * time.Minute):
		t.Fatal("no reply within 3 minutes")
	}
	return nil
}

func (p *stdioProc) peak(t *testing.T) int64 { return vmHWM(t, p.cmd.Process.Pid) }

// httpProc is the binary serving streamable HTTP.
type httpProc struct {
	cmd      *exec.Cmd
	endpoint string
	stderr   *fakeforge.SyncBuffer
}

var endpointRE = regexp.MustCompile(`endpoint=(http://\S+)`)

func startHTTP(t *testing.T, bin, forgeURL string, env []string) *httpProc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--url", forgeURL, "--transport", "http", "--http-addr", "127.0.0.1:0"}, strings.Fields(os.Getenv(envArgs))...)...)
	cmd.Env = env
	h := &httpProc{cmd: cmd, stderr: &fakeforge.SyncBuffer{}}
	cmd.Stderr = h.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", h.stderr.String())
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if m := endpointRE.FindStringSubmatch(h.stderr.String()); m != nil {
			h.endpoint = m[1]
			return h
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the HTTP server did not start:\n%s", h.stderr.String())
	return nil
}

var httpClient = &http.Client{Timeout: 5 * time.Minute}

// post sends one message and returns the JSON-RPC reply, or {"http": status
// and body} when the answer is not JSON-RPC.
func (h *httpProc) post(t *testing.T, token string, msg []byte) map[string]any {
	m, err := h.do(token, msg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (h *httpProc) do(token string, msg []byte, headers ...string) (map[string]any, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, h.endpoint, bytes.NewReader(msg))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("POST: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the reply: %w", err)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(body), "\n") {
			if data, ok := strings.CutPrefix(line, "data:"); ok {
				body = []byte(data)
			}
		}
	}
	var m map[string]any
	if json.Unmarshal(body, &m) != nil || m["jsonrpc"] == nil {
		return map[string]any{"http": fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(body)))}, nil
	}
	return m, nil
}

func (h *httpProc) postConcurrently(t *testing.T, token string, msgs [][]byte) []map[string]any {
	t.Helper()
	replies := make([]map[string]any, len(msgs))
	errs := make([]error, len(msgs))
	var wg sync.WaitGroup
	for i, msg := range msgs {
		wg.Go(func() { replies[i], errs[i] = h.do(token, msg) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return replies
}

func (h *httpProc) peak(t *testing.T) int64 { return vmHWM(t, h.cmd.Process.Pid) }
