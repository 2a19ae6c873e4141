package stdio_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/mcpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/stdio"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// wire is one in-process stdio connection: the test writes the client's
// lines and reads the server's.
type wire struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan map[string]any
	raw    chan string
	cancel context.CancelFunc
	done   chan error
	logs   *fakeforge.SyncBuffer
	last   string // the line recv last returned, as written
}

// serve starts stdio.Serve on defs through r with lim.
func serve(t *testing.T, defs []tool.Def, r *tool.Runner, lim stdio.Limits) *wire {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &fakeforge.SyncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	r.Logger = logger
	w := &wire{t: t, in: inW, lines: make(chan map[string]any, 1024), raw: make(chan string, 1024), cancel: cancel, done: make(chan error, 1), logs: logs}
	s := mcpserver.New(defs, r)
	go func() {
		err := stdio.Serve(ctx, s, inR, outW, lim, logger)
		_ = outW.Close()
		w.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("server wrote a line that is not JSON: %q", sc.Text())
				continue
			}
			w.raw <- sc.Text()
			w.lines <- m
		}
		close(w.lines)
	}()
	t.Cleanup(func() {
		cancel()
		_ = inW.Close()
		select {
		case <-w.done:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return w
}

func (w *wire) send(line string) {
	w.t.Helper()
	_, err := io.WriteString(w.in, line+"\n")
	require.NoError(w.t, err)
}

func (w *wire) sendJSON(v any) {
	w.t.Helper()
	b, err := json.Marshal(v)
	require.NoError(w.t, err)
	w.send(string(b))
}

// recv returns the next message the server writes.
func (w *wire) recv() map[string]any {
	w.t.Helper()
	select {
	case m, ok := <-w.lines:
		require.True(w.t, ok, "the server closed its output")
		w.last = <-w.raw
		return m
	case <-time.After(10 * time.Second):
		w.t.Fatal("no message from the server within 10s")
		return nil
	}
}

// none checks the server writes nothing for d.
func (w *wire) none(d time.Duration) {
	w.t.Helper()
	select {
	case m := <-w.lines:
		w.t.Fatalf("unexpected message %v", m)
	case <-time.After(d):
	}
}

func call(id any, name string, args map[string]any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": name, "arguments": args}}
}

func cancelled(id any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled",
		"params": map[string]any{"requestId": id, "reason": "test"}}
}

// errCode returns a JSON-RPC error reply's code and message.
func errCode(t *testing.T, m map[string]any) (int, string) {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "an error reply, got %v", m)
	return int(e["code"].(float64)), e["message"].(string)
}

// toolText returns a tools/call reply's isError and first text.
func toolText(t *testing.T, m map[string]any) (bool, string) {
	t.Helper()
	res, ok := m["result"].(map[string]any)
	require.True(t, ok, "a result, got %v", m)
	content := res["content"].([]any)
	require.NotEmpty(t, content)
	isErr, _ := res["isError"].(bool)
	return isErr, content[0].(map[string]any)["text"].(string)
}

// echo is an offline tool answering its argument.
func echo() tool.Def {
	return tool.Def{Name: "echo", Toolset: tool.Toolset{ID: "t"}, Description: "echo", Offline: true, Annotations: tool.Read(),
		Params: []tool.Param{tool.Str("text", "text", tool.Required())},
		Handler: func(_ context.Context, _ *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
			return tool.JSON(map[string]string{"text": a.String("text")})
		}}
}

// gate is an offline tool that reports when it starts and blocks until
// released or cancelled, reporting the cancellation's cause.
type gate struct {
	started chan string
	release chan struct{}
	causes  chan error
}

func newGate() *gate {
	return &gate{started: make(chan string, 256), release: make(chan struct{}), causes: make(chan error, 256)}
}

func (g *gate) def() tool.Def {
	return tool.Def{Name: "block", Toolset: tool.Toolset{ID: "t"}, Description: "block", Offline: true, Annotations: tool.Read(),
		Params: []tool.Param{tool.Str("tag", "tag")},
		Handler: func(ctx context.Context, _ *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
			g.started <- a.String("tag")
			select {
			case <-g.release:
				return tool.JSON("released " + a.String("tag"))
			case <-ctx.Done():
				g.causes <- context.Cause(ctx)
				return nil, &forgejo.Error{Verb: "block", Subject: a.String("tag"), Cause: ctx.Err()}
			}
		}}
}

func waitStarted(t *testing.T, g *gate, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		select {
		case <-g.started:
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d calls started", i, n)
		}
	}
}

// settleGoroutines waits for the goroutine count to come back to at most
// base (plus slack for runtime helpers) and fails with a dump otherwise.
func settleGoroutines(t *testing.T, base int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= base+2 {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("goroutines leaked: %d now, %d before\n%s", n, base, buf)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func idOf(m map[string]any) string { return fmt.Sprint(m["id"]) }
