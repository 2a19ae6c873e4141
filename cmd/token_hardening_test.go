package cmd_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// validArgs synthesises a valid value for every parameter of d, each
// checked against the parameter's own validation.
func validArgs(t *testing.T, d tool.Def) map[string]any {
	t.Helper()
	args := map[string]any{}
	for _, p := range d.Params {
		var candidates []any
		switch {
		case len(p.Enum) > 0:
			candidates = []any{p.Enum[0]}
		case p.Type == tool.TypeInteger:
			v := int64(1)
			if p.Min != nil && *p.Min > v {
				v = *p.Min
			}
			candidates = []any{float64(v)}
		case p.Type == tool.TypeBoolean:
			candidates = []any{true}
		case p.Type == tool.TypeList:
			candidates = []any{[]any{"x"}}
		default:
			candidates = []any{base64.StdEncoding.EncodeToString([]byte("hello")), "o1", "main", "docs/readme.md", "hello.txt", "x", "2026-01-02"}
			if p.Name == d.CLIFile || p.Name == "content" {
				candidates = candidates[:1]
			} else {
				candidates = candidates[1:]
			}
		}
		one := tool.Def{Name: d.Name, Params: []tool.Param{p}}
		found := false
		for _, c := range candidates {
			if _, err := one.Parse(map[string]any{p.Name: c}); err == nil {
				args[p.Name] = c
				found = true
				break
			}
		}
		require.True(t, found, "no valid value for %s.%s", d.Name, p.Name)
	}
	_, err := d.Parse(args)
	require.NoError(t, err, "synthesised arguments of %s", d.Name)
	return args
}

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
	p := start(t, f.URL, "--log-level", "debug")
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
			p.sendJSON(toolCall(id, d.Name, validArgs(t, d)))
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

	// CLI mode prints results and errors to its own streams.
	for _, m := range []string{"500", "200-object", "redirect"} {
		mode.Store(m)
		for _, d := range defs {
			raw, err := json.Marshal(validArgs(t, d))
			require.NoError(t, err)
			bin, err := binaryPath()
			require.NoError(t, err)
			cmd := exec.Command(bin, "--url", f.URL, "--log-level", "debug", "--cli", d.Name, "--args", string(raw))
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "FORGEJO_ACCESS_TOKEN=" + fakeforge.Token}
			out, _ := cmd.CombinedOutput()
			assert.NotContains(t, string(out), fakeforge.Token, "--cli %s in mode %s", d.Name, m)
		}
	}

	require.NoError(t, p.stdin.Close())
	<-p.exited
	p.exited <- nil
	assert.NotContains(t, p.stdout.String(), fakeforge.Token, "stdout")
	assert.NotContains(t, p.stderr.String(), fakeforge.Token, "stderr at debug level")
	assert.Contains(t, p.stdout.String(), "[REDACTED]", "the echo reached the output and was redacted")
}
