package stdio_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/stdio"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// upload is an offline tool with LargeArgs, like the upload tools.
func upload() tool.Def {
	return tool.Def{Name: "upload", Toolset: tool.Toolset{ID: "t"}, Description: "upload", Offline: true, LargeArgs: true, Annotations: tool.Write(false),
		Params: []tool.Param{tool.Str("content", "content", tool.Required())},
		Handler: func(_ context.Context, _ *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
			return tool.JSON(map[string]int{"bytes": len(a.String("content"))})
		}}
}

// guardedTransports serves echo and upload with the default bounds: 256
// KiB of arguments for echo, 16 MiB for upload.
func guardedTransports(t *testing.T) *transports {
	defs := []tool.Def{echo(), upload()}
	r := tool.Runner{MaxArgBytes: tool.DefaultMaxArgBytes, MaxLargeArgBytes: stdio.DefaultMaxFrameBytes}
	return newTransports(t, defs, r, stdio.Limits{Guard: rpcguard.Limits{ArgLimit: rpcguard.ToolLimits(defs, &r)}})
}

// allocated runs f and returns the bytes the process allocated meanwhile.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileBodies (security issue 8, class 2): messages of tiny JSON
// values, deep nesting or many keys are refused before anything decodes
// them into maps, on both transports alike, allocating a few times the
// message at most (decoding 1 MiB of `[{},…]` cost some 40 MB); the
// refusal of a tool's arguments is the isError result of the argument
// limit, and an upload past the bound on everything else goes through.
func TestHostileBodies(t *testing.T) {
	tr := guardedTransports(t)
	const size = 1 << 20
	fill := func(open, item, close string) string {
		return open + strings.TrimSuffix(strings.Repeat(item+",", (size-len(open)-len(close))/(len(item)+1)), ",") + close
	}
	objects := fill("[", "{}", "]")
	call := func(tool, args string) string {
		return `{"jsonrpc":"2.0","id":"h","method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	tests := []struct {
		name, msg, want string
	}{
		{"objects for an ordinary tool", call("echo", `{"text":`+objects+`}`), "result isError=true invalid arguments for echo: they are over this tool's limit of 256 KiB (as JSON); shorten the longest value"},
		{"objects for an upload", call("upload", `{"content":`+objects+`}`), "result isError=true invalid arguments for upload: they hold more than"},
		{"numbers", call("upload", `{"content":`+fill("[", "1", "]")+`}`), "result isError=true invalid arguments for upload: they hold more than"},
		{"keys", call("upload", fill("{", `"k":0`, "}")), "result isError=true invalid arguments for upload: they hold more than"},
		{"deep", call("upload", `{"content":`+strings.Repeat("[", size/2)+strings.Repeat("]", size/2)+`}`), "result isError=true invalid arguments for upload: they nest deeper than 62 levels"},
		{"objects in _meta", `{"jsonrpc":"2.0","id":"h","method":"tools/call","params":{"_meta":{"x":` + objects + `},"name":"echo","arguments":{"text":"x"}}}`, "error -32600"},
		{"objects in another method", `{"jsonrpc":"2.0","id":"h","method":"ping","params":{"x":` + objects + `}}`, "error -32600"},
		{"objects beside the members", `{"jsonrpc":"2.0","id":"h","method":"ping","x":` + objects + `}`, "error -32600"},
		// Issue 18, item 10: decoded, one literal cost ~200 MB at 16 MiB
		// and came back whole in the decoder's error.
		{"one long number", call("upload", `{"content":`+strings.Repeat("1", size)+`}`), "result isError=true invalid arguments for upload: a number is longer than 64 characters or out of range"},
		{"one long number elsewhere", `{"jsonrpc":"2.0","id":"h","method":"ping","params":{"x":` + strings.Repeat("1", size-60) + `}}`, "error -32600"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var overStdio, overHTTP reply
			n := allocated(func() { overStdio = tr.stdio(t, tt.msg) })
			assert.Less(t, n, uint64(6*len(tt.msg)), "stdio allocated %d bytes for a %d-byte message", n, len(tt.msg))
			n = allocated(func() { overHTTP = tr.post(t, tt.msg) })
			assert.Less(t, n, uint64(6*len(tt.msg)), "HTTP allocated %d bytes for a %d-byte message", n, len(tt.msg))
			assert.Contains(t, overStdio.outcome(t), tt.want)
			assert.Equal(t, overStdio.outcome(t), overHTTP.outcome(t), "stdio and HTTP disagree")
			assert.Equal(t, `"h"`, string(overStdio["id"]))
			assert.Equal(t, `"h"`, string(overHTTP["id"]))
			for _, r := range []reply{overStdio, overHTTP} {
				b, _ := json.Marshal(r)
				assert.Less(t, len(b), 1<<10, "the reply quotes nothing of the message")
			}
		})
	}
	// Past the 1 MiB bound of everything else (the 10 MiB upload to the
	// live forge is internal/memcheck's).
	t.Run("a large upload still goes through", func(t *testing.T) {
		msg := call("upload", `{"content":"`+strings.Repeat("QUFB", (2<<20)/3)+`"}`)
		want := fmt.Sprintf(`result isError=false {"bytes":%d}`, 4*((2<<20)/3))
		assert.Equal(t, want, tr.stdio(t, msg).outcome(t))
		assert.Equal(t, want, tr.post(t, msg).outcome(t))
	})
}

// TestInflightBudget: a request that would take the in-flight byte
// budget past its size waits for it, and is refused as busy (-32000, with
// its id) when none is given back in time; then serving goes on.
func TestInflightBudget(t *testing.T) {
	g := newGate()
	w := serve(t, []tool.Def{echo(), g.def()}, &tool.Runner{}, stdio.Limits{MaxInflightBytes: 3000, InflightWait: 300 * time.Millisecond})
	w.sendJSON(call("held", "block", map[string]any{"tag": "held"}))
	waitStarted(t, g, 1)
	big := map[string]any{"text": strings.Repeat("x", 2500)}
	start := time.Now()
	w.sendJSON(call("big", "echo", big))
	m := w.recv()
	assert.Equal(t, "big", m["id"])
	code, msg := errCode(t, m)
	assert.Equal(t, -32000, code)
	assert.Contains(t, msg, "server busy: the requests being handled hold the 3000-byte budget (--max-inflight-bytes)")
	assert.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond, "it waited first")

	// A small request fits beside the held one.
	w.sendJSON(call("small", "echo", map[string]any{"text": "hi"}))
	m = w.recv()
	assert.Equal(t, "small", m["id"])
	isErr, _ := toolText(t, m)
	assert.False(t, isErr)

	// One that waits is served as soon as the budget is given back.
	w.sendJSON(call("big2", "echo", big))
	time.Sleep(50 * time.Millisecond)
	close(g.release)
	got := map[string]bool{}
	for range 2 {
		m := w.recv()
		got[idOf(m)] = true
		require.Contains(t, m, "result", "%v", m)
	}
	assert.Equal(t, map[string]bool{"held": true, "big2": true}, got)
}

// TestServerErrorsAreClipped: what mcp-go quotes back in an error (here
// a method it does not know) leaves as at most a line.
func TestServerErrorsAreClipped(t *testing.T) {
	w := serve(t, []tool.Def{echo()}, &tool.Runner{}, stdio.Limits{})
	w.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	w.recv()
	w.send(`{"jsonrpc":"2.0","id":2,"method":"x` + strings.Repeat("é", 100_000) + `"}`)
	m := w.recv()
	msg := m["error"].(map[string]any)["message"].(string)
	assert.LessOrEqual(t, len(msg), 1<<10+len("…"))
	assert.True(t, strings.HasSuffix(msg, "…"), msg[:40])
	assert.True(t, utf8.ValidString(msg))
}
