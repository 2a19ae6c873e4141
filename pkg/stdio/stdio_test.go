package stdio_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/mcpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/stdio"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

var modernMeta = map[string]any{
	"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
	"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "raw", "version": "1"},
	"io.modelcontextprotocol/clientCapabilities": map[string]any{},
}

// TestBothProtocolEras: initialize (2025-11-25) and server/discover with
// per-request _meta (2026-07-28) both work through the session this front
// registers.
func TestBothProtocolEras(t *testing.T) {
	t.Run("2025-11-25 initialize", func(t *testing.T) {
		w := serve(t, []tool.Def{echo()}, &tool.Runner{}, stdio.Limits{})
		w.sendJSON(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
			"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "1"}}})
		m := w.recv()
		res := m["result"].(map[string]any)
		assert.Equal(t, "2025-11-25", res["protocolVersion"])
		assert.Equal(t, mcpserver.Instructions, res["instructions"])
		w.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		w.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		m = w.recv()
		assert.EqualValues(t, 2, m["id"])
		assert.Contains(t, w.rawTools(m), "echo")
		w.sendJSON(call(3, "echo", map[string]any{"text": "hi"}))
		isErr, text := toolText(t, w.recv())
		assert.False(t, isErr)
		assert.JSONEq(t, `{"text":"hi"}`, text)
	})
	t.Run("2026-07-28 server/discover and _meta", func(t *testing.T) {
		w := serve(t, []tool.Def{echo()}, &tool.Runner{}, stdio.Limits{})
		w.sendJSON(map[string]any{"jsonrpc": "2.0", "id": "d", "method": "server/discover", "params": map[string]any{"_meta": modernMeta}})
		m := w.recv()
		res := m["result"].(map[string]any)
		assert.Contains(t, res["supportedVersions"], "2026-07-28")
		assert.Contains(t, res["supportedVersions"], "2025-11-25")
		assert.Equal(t, mcpserver.Instructions, res["instructions"])
		w.sendJSON(map[string]any{"jsonrpc": "2.0", "id": "c", "method": "tools/call", "params": map[string]any{
			"name": "echo", "arguments": map[string]any{"text": "modern"}, "_meta": modernMeta}})
		m = w.recv()
		assert.Equal(t, "c", m["id"])
		isErr, text := toolText(t, m)
		assert.False(t, isErr)
		assert.JSONEq(t, `{"text":"modern"}`, text)
	})
}

func (w *wire) rawTools(m map[string]any) []string {
	var names []string
	for _, tl := range m["result"].(map[string]any)["tools"].([]any) {
		names = append(names, tl.(map[string]any)["name"].(string))
	}
	return names
}

// TestRefusedMessages: every malformed message gets a JSON-RPC error and
// the connection keeps serving: each case is followed by a ping.
func TestRefusedMessages(t *testing.T) {
	const limit = 4096
	// pad makes a ping of exactly n bytes.
	pad := func(id string, n int) string {
		head := `{"jsonrpc":"2.0","id":` + id + `,"method":"ping","params":{"_meta":{"pad":"`
		tail := `"}}}`
		return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
	}
	tests := []struct {
		name string
		line string
		code int    // 0: a normal reply is expected
		id   any    // the reply's id
		msg  string // substring of the error message
	}{
		{name: "frame at the limit is served", line: pad("1", limit), id: float64(1)},
		{name: "frame past the limit is refused, id recovered", line: pad("2", limit+1), code: -32600, id: float64(2), msg: "larger than the 4096-byte limit"},
		{name: "far past the limit", line: pad(`"big"`, 10*limit), code: -32600, id: "big", msg: "--max-frame-bytes"},
		{name: "past the limit, id after params", line: `{"jsonrpc":"2.0","method":"ping","params":{"p":"` + strings.Repeat("y", 200<<10) + `"},"id":3}`, code: -32600, id: nil},
		{name: "batch", line: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, code: -32600, msg: "batches are not supported"},
		{name: "empty batch", line: `[]`, code: -32600, msg: "batches"},
		{name: "malformed JSON", line: `{"jsonrpc":"2.0","id":1,`, code: -32700, msg: "not valid JSON"},
		{name: "number", line: `42`, code: -32600, msg: "must be a JSON object"},
		{name: "string", line: `"ping"`, code: -32600, msg: "must be a JSON object"},
		{name: "null", line: `null`, code: -32600, msg: "must be a JSON object"},
		{name: "invalid UTF-8", line: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}", code: -32700, msg: "UTF-8"},
		{name: "no jsonrpc", line: `{"id":4,"method":"ping"}`, code: -32600, id: float64(4), msg: `jsonrpc must be "2.0"`},
		{name: "null id", line: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, code: -32600, msg: "id must be a string or an integer"},
		{name: "object id", line: `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, code: -32600, msg: "id must be"},
		{name: "no method", line: `{"jsonrpc":"2.0","id":5}`, code: -32600, id: float64(5), msg: "no method"},
		{name: "method not a string", line: `{"jsonrpc":"2.0","id":6,"method":7}`, code: -32600, id: float64(6), msg: "method must be"},
		{name: "params not an object", line: `{"jsonrpc":"2.0","id":7,"method":"ping","params":"x"}`, code: -32600, id: float64(7), msg: "params must be"},
		{name: "unknown method", line: `{"jsonrpc":"2.0","id":8,"method":"no/such"}`, code: -32601, id: float64(8)},
	}
	w := serve(t, []tool.Def{echo()}, &tool.Runner{}, stdio.Limits{MaxFrameBytes: limit})
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.t = t
			w.send(tt.line)
			m := w.recv()
			assert.Equal(t, tt.id, m["id"])
			if tt.code == 0 {
				assert.Contains(t, m, "result")
			} else {
				code, msg := errCode(t, m)
				assert.Equal(t, tt.code, code)
				assert.Contains(t, msg, tt.msg)
			}
			ping := fmt.Sprintf(`{"jsonrpc":"2.0","id":"ping-%d","method":"ping"}`, i)
			w.send(ping)
			m = w.recv()
			assert.Equal(t, fmt.Sprintf("ping-%d", i), m["id"], "still serving")
			assert.Contains(t, m, "result")
		})
	}
	// Blank lines and responses to nothing are ignored silently.
	w.t = t
	w.send("")
	w.send("   ")
	w.send(`{"jsonrpc":"2.0","id":99,"result":{}}`)
	w.none(100 * time.Millisecond)
}

// TestOutstandingAndDuplicateIDs: requests past MaxOutstanding and a
// request reusing a running request's id are refused at once; a string id
// "1" is not the number 1.
func TestOutstandingAndDuplicateIDs(t *testing.T) {
	g := newGate()
	w := serve(t, []tool.Def{g.def()}, &tool.Runner{}, stdio.Limits{MaxOutstanding: 2})
	w.sendJSON(call(1, "block", map[string]any{"tag": "a"}))
	w.sendJSON(call("1", "block", map[string]any{"tag": "b"}))
	waitStarted(t, g, 2)

	w.sendJSON(call(3, "block", nil))
	m := w.recv()
	assert.EqualValues(t, 3, m["id"])
	code, msg := errCode(t, m)
	assert.Equal(t, -32000, code)
	assert.Contains(t, msg, "2 requests are already being handled")

	w.sendJSON(call(1, "block", nil))
	m = w.recv()
	assert.EqualValues(t, 1, m["id"])
	code, msg = errCode(t, m)
	assert.Equal(t, -32600, code)
	assert.Contains(t, msg, "id 1 is already in use")

	close(g.release)
	got := map[string]string{}
	for range 2 {
		m := w.recv()
		_, text := toolText(t, m)
		got[fmt.Sprintf("%T %v", m["id"], m["id"])] = text
	}
	assert.Equal(t, map[string]string{"float64 1": `"released a"`, "string 1": `"released b"`}, got)
	w.sendJSON(call(1, "block", nil))
	_, text := toolText(t, w.recv())
	assert.Equal(t, `"released "`, text, "a finished id can be reused")
}

// TestCancellation: notifications/cancelled aborts the call's context and
// suppresses its reply; cancelling an unknown or finished id changes
// nothing; a cancelled id can be reused at once.
func TestCancellation(t *testing.T) {
	g := newGate()
	w := serve(t, []tool.Def{g.def(), echo()}, &tool.Runner{}, stdio.Limits{})
	w.sendJSON(call(5, "block", map[string]any{"tag": "x"}))
	waitStarted(t, g, 1)
	w.sendJSON(cancelled(5))
	select {
	case cause := <-g.causes:
		assert.EqualError(t, cause, "cancelled by the client")
	case <-time.After(5 * time.Second):
		t.Fatal("the call's context was not cancelled")
	}
	w.sendJSON(cancelled(5))     // again: already cancelled
	w.sendJSON(cancelled(12345)) // unknown
	w.sendJSON(cancelled("5"))   // another id
	w.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`)
	w.sendJSON(call(6, "echo", map[string]any{"text": "after"}))
	m := w.recv()
	assert.EqualValues(t, 6, m["id"], "no reply for the cancelled call 5")
	_, text := toolText(t, m)
	assert.JSONEq(t, `{"text":"after"}`, text)
	w.sendJSON(cancelled(6)) // finished
	w.sendJSON(call(5, "echo", map[string]any{"text": "reused"}))
	m = w.recv()
	assert.EqualValues(t, 5, m["id"])
	_, text = toolText(t, m)
	assert.JSONEq(t, `{"text":"reused"}`, text)
	w.none(200 * time.Millisecond)
	assert.Contains(t, w.logs.String(), "suppressed the reply to a cancelled request")
}

// TestBusyOnTheWire: the Runner's concurrency bound answers a clear busy
// isError result at once, not a hang.
func TestBusyOnTheWire(t *testing.T) {
	g := newGate()
	r := &tool.Runner{}
	r.SetMaxConcurrent(2)
	w := serve(t, []tool.Def{g.def()}, r, stdio.Limits{})
	w.sendJSON(call(1, "block", nil))
	w.sendJSON(call(2, "block", nil))
	waitStarted(t, g, 2)
	start := time.Now()
	w.sendJSON(call(3, "block", nil))
	m := w.recv()
	assert.EqualValues(t, 3, m["id"])
	isErr, text := toolText(t, m)
	assert.True(t, isErr)
	assert.Equal(t, "server busy: 2 tool calls are already running; retry block in a moment", text)
	assert.Less(t, time.Since(start), time.Second)
	close(g.release)
	w.recv()
	w.recv()
}

// TestShutdownCancelsInFlight: when ctx ends, running calls are cancelled
// with a cause naming the shutdown, and Serve returns promptly without
// leaking goroutines.
func TestShutdownCancelsInFlight(t *testing.T) {
	base := runtime.NumGoroutine()
	g := newGate()
	w := serve(t, []tool.Def{g.def()}, &tool.Runner{}, stdio.Limits{ShutdownGrace: 2 * time.Second})
	w.sendJSON(call(1, "block", map[string]any{"tag": "s"}))
	waitStarted(t, g, 1)
	start := time.Now()
	w.cancel()
	select {
	case cause := <-g.causes:
		assert.ErrorIs(t, cause, stdio.ErrShutdown)
	case <-time.After(5 * time.Second):
		t.Fatal("the call was not cancelled")
	}
	m := w.recv()
	isErr, text := toolText(t, m)
	assert.True(t, isErr)
	assert.Equal(t, "block s: cancelled (server shutting down)", text)
	require.NoError(t, <-w.done)
	w.done <- nil // for the cleanup
	assert.Less(t, time.Since(start), 3*time.Second)
	_ = w.in.Close()
	settleGoroutines(t, base)
}

// TestEndOfInputAnswersPending: a client that closes stdin after its
// requests still gets their replies; then Serve returns nil.
func TestEndOfInputAnswersPending(t *testing.T) {
	g := newGate()
	w := serve(t, []tool.Def{g.def()}, &tool.Runner{}, stdio.Limits{})
	w.sendJSON(call(1, "block", map[string]any{"tag": "late"}))
	waitStarted(t, g, 1)
	require.NoError(t, w.in.Close())
	time.Sleep(50 * time.Millisecond)
	close(g.release)
	_, text := toolText(t, w.recv())
	assert.Equal(t, `"released late"`, text)
	require.NoError(t, <-w.done)
	w.done <- nil
}

// TestEndOfInputBoundsTheWait: a request that would never finish does
// not keep the server alive after stdin closes: it gets ShutdownGrace, is
// then cancelled, and its reply says why.
func TestEndOfInputBoundsTheWait(t *testing.T) {
	g := newGate()
	w := serve(t, []tool.Def{g.def()}, &tool.Runner{}, stdio.Limits{ShutdownGrace: 300 * time.Millisecond})
	w.sendJSON(call(1, "block", map[string]any{"tag": "forever"}))
	waitStarted(t, g, 1)
	start := time.Now()
	require.NoError(t, w.in.Close())
	isErr, text := toolText(t, w.recv())
	assert.True(t, isErr)
	assert.Equal(t, "block forever: cancelled (server shutting down)", text)
	require.NoError(t, <-w.done)
	w.done <- nil
	assert.Less(t, time.Since(start), 2*time.Second)
}

// TestServerNotificationsAreWritten: what the MCP server sends to the
// session reaches stdout as its own line.
func TestServerNotificationsAreWritten(t *testing.T) {
	notify := tool.Def{Name: "notify", Toolset: tool.Toolset{ID: "t"}, Description: "n", Offline: true, Annotations: tool.Read(),
		Handler: func(ctx context.Context, _ *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
			srv := server.ServerFromContext(ctx)
			require.NoError(t, srv.SendNotificationToClient(ctx, "notifications/message", map[string]any{"level": "info", "data": "hello"}))
			return tool.JSON("ok")
		}}
	w := serve(t, []tool.Def{notify}, &tool.Runner{}, stdio.Limits{})
	w.sendJSON(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "1"}}})
	w.recv()
	w.sendJSON(call(2, "notify", nil))
	got := map[string]bool{}
	for range 2 {
		m := w.recv()
		if m["method"] != nil {
			got[m["method"].(string)] = true
		} else {
			got[idOf(m)] = true
		}
	}
	assert.Equal(t, map[string]bool{"notifications/message": true, "2": true}, got)
}

// TestWriteFailureStops: when stdout is gone, Serve stops with the error.
func TestWriteFailureStops(t *testing.T) {
	inR, inW := io.Pipe()
	s := mcpserver.New([]tool.Def{echo()}, &tool.Runner{})
	done := make(chan error, 1)
	go func() { done <- stdio.Serve(context.Background(), s, inR, failWriter{}, stdio.Limits{}, nil) }()
	_, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
	require.NoError(t, err)
	select {
	case err := <-done:
		require.Error(t, err)
		assert.Contains(t, err.Error(), "writing stdout")
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not stop")
	}
	_ = inW.Close()
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }
