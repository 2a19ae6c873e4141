package cmd_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// echoMessages are JSON-RPC messages whose answer echoes a string the
// client chose: each puts tok there, alone and behind 40 characters (so a
// clipped echo would cut it), for issue 18, item 12.
func echoMessages(tok string) map[string]map[string]any {
	pad := strings.Repeat("p", 40)
	req := func(method string, params map[string]any) map[string]any {
		return map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params}
	}
	out := map[string]map[string]any{}
	for _, v := range []struct{ name, value string }{{"", tok}, {" behind 40 characters", pad + tok}} {
		out["method"+v.name] = req(v.value, map[string]any{})
		out["prompt name"+v.name] = req("prompts/get", map[string]any{"name": v.value})
		out["prompt argument"+v.name] = req("prompts/get", map[string]any{"name": "draft_release_notes",
			"arguments": map[string]any{"owner": v.value, "repo": "r", "since_tag": "v1"}})
		out["log level"+v.name] = req("logging/setLevel", map[string]any{"level": v.value})
		out["resource URI"+v.name] = req("resources/read", map[string]any{"uri": "forgejo://" + v.value + "/r"})
		out["wiki page URI"+v.name] = req("resources/read", map[string]any{"uri": "forgejo://o/r/wiki/" + v.value + "%2F"})
		out["subscription"+v.name] = req("resources/subscribe", map[string]any{"uri": v.value})
		out["completion of a prompt"+v.name] = req("completion/complete", map[string]any{
			"ref": map[string]any{"type": "ref/prompt", "name": v.value}, "argument": map[string]any{"name": v.value, "value": v.value}})
		out["completion of a template"+v.name] = req("completion/complete", map[string]any{
			"ref": map[string]any{"type": "ref/resource", "uri": "forgejo://" + v.value}, "argument": map[string]any{"name": "owner", "value": "x"}})
		out["tool name"+v.name] = req("tools/call", map[string]any{"name": v.value, "arguments": map[string]any{}})
		out["tool argument"+v.name] = req("tools/call", map[string]any{"name": "get_issue_by_index",
			"arguments": map[string]any{"owner": v.value, "repo": "r", "index": 1}})
		out["unknown argument"+v.name] = req("tools/call", map[string]any{"name": "get_me", "arguments": map[string]any{v.value: 1}})
		out["id"+v.name] = map[string]any{"jsonrpc": "2.0", "id": v.value, "method": "ping"}
	}
	return out
}

// assertNoToken fails when out holds tok, or any 12 characters of it.
func assertNoToken(t *testing.T, out, tok, what string) {
	t.Helper()
	for i := 0; i+12 <= len(tok); i++ {
		if strings.Contains(strings.ToLower(out), strings.ToLower(tok[i:i+12])) {
			t.Errorf("%s: the answer holds the token (%q): %.400s", what, tok[i:i+12], out)
			return
		}
	}
}

// TestTokenEchoesOverStdio: the built binary over stdio, with the token in
// its environment, answers every echoing message without it.
func TestTokenEchoesOverStdio(t *testing.T) {
	f := fakeforge.New(t)
	p := start(t, f.URL)
	p.initialize()
	for name, msg := range echoMessages(fakeforge.Token) {
		before := len(p.stdout.String())
		p.sendJSON(msg)
		reply := p.recv()
		require.NotNil(t, reply, name)
		assertNoToken(t, p.stdout.String()[before:], fakeforge.Token, name)
	}
	assertNoToken(t, p.stderr.String(), fakeforge.Token, "stderr")
}

// TestTokenEchoesOverHTTP: the built binary over HTTP, the caller's token
// in Authorization, answers every echoing message, and every request
// whose X-MCP-* header, protocol version or content type is the token,
// without it, headers included.
func TestTokenEchoesOverHTTP(t *testing.T) {
	const tok = "http-caller-token-0123456789abcdef"
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", http.StatusOK, map[string]any{"id": 1, "login": "alice"})
	p := startHTTP(t, f.URL, nil, "--log-level", "debug")
	send := func(name string, msg map[string]any, headers map[string]string) {
		t.Helper()
		body, err := json.Marshal(msg)
		require.NoError(t, err)
		req, err := http.NewRequest(http.MethodPost, p.base+"/mcp", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		req.Header.Set("Authorization", "token "+tok)
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err, name)
		defer resp.Body.Close()
		var all bytes.Buffer
		_ = resp.Header.Write(&all)
		_, err = io.Copy(&all, resp.Body)
		require.NoError(t, err)
		assertNoToken(t, all.String(), tok, name)
	}
	for name, msg := range echoMessages(tok) {
		send(name, msg, nil)
	}
	ping := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
	for _, h := range []string{"X-MCP-Toolsets", "X-MCP-Tools", "X-MCP-Exclude-Tools", "X-MCP-Readonly", "Mcp-Protocol-Version", "Content-Type"} {
		send(h, ping, map[string]string{h: tok})
		send(h+" behind 40 characters", ping, map[string]string{h: strings.Repeat("p", 40) + tok})
	}
	send("an X-MCP-* header named by the token", ping, map[string]string{"X-MCP-" + tok: "1"})
	assertNoToken(t, p.stderr.String()+p.stdout.String(), tok, "the server's output")
}
