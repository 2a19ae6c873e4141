package mcpserver_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/mcpserver"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// received collects a client's notifications.
type received struct {
	mu sync.Mutex
	ns []mcp.JSONRPCNotification
}

func (r *received) add(n mcp.JSONRPCNotification) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ns = append(r.ns, n)
}

func (r *received) method(m string) []mcp.JSONRPCNotification {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []mcp.JSONRPCNotification
	for _, n := range r.ns {
		if n.Method == m {
			out = append(out, n)
		}
	}
	return out
}

// inProcess connects mcp-go's in-process client (2025-11-25) to s.
func inProcess(t *testing.T, s *server.MCPServer) (*client.Client, *received) {
	t.Helper()
	c, err := client.NewInProcessClient(s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	got := &received{}
	c.OnNotification(got.add)
	require.NoError(t, c.Start(t.Context()))
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	_, err = c.Initialize(t.Context(), init)
	require.NoError(t, err)
	return c, got
}

func runner() *tool.Runner {
	base, _ := url.Parse("http://127.0.0.1:1")
	c := forgejo.NewClient(http.DefaultClient, base, token, "test")
	return &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil },
		Logger: slog.New(slog.DiscardHandler)}
}

func callTool(t *testing.T, c *client.Client, name string, args map[string]any, progress mcp.ProgressToken) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	if progress != nil {
		req.Params.Meta = &mcp.Meta{ProgressToken: progress}
	}
	res, err := c.CallTool(t.Context(), req)
	require.NoError(t, err)
	return res
}

// TestLogNotifications: a client gets records about its own calls at or
// above the level it set, with the token redacted, and nothing before it
// sets one (the session's level starts at error).
func TestLogNotifications(t *testing.T) {
	r := runner()
	leak := tool.Def{Name: "leak", Offline: true, Annotations: tool.Read(), Output: tool.Shape{"ok": true},
		Handler: func(ctx context.Context, _ *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
			r.Logger.WarnContext(ctx, "saw the token "+token, "header", "token "+token)
			r.Logger.DebugContext(ctx, "a debug record")
			return tool.JSON(map[string]bool{"ok": true})
		}}
	c, got := inProcess(t, mcpserver.New([]tool.Def{leak}, r))
	callTool(t, c, "leak", nil, nil)
	assert.Empty(t, got.method("notifications/message"), "no level set: only errors, and there are none")

	require.NoError(t, c.SetLevel(t.Context(), mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelWarning}}))
	callTool(t, c, "leak", nil, nil)
	require.Eventually(t, func() bool { return len(got.method("notifications/message")) == 1 }, 2*time.Second, 5*time.Millisecond)
	b, err := json.Marshal(got.method("notifications/message"))
	require.NoError(t, err)
	assert.NotContains(t, string(b), token)
	assert.Contains(t, string(b), "[REDACTED]")
	assert.Contains(t, string(b), `"level":"warning"`)
	assert.NotContains(t, string(b), "a debug record", "below the level")
	assert.NotContains(t, string(b), `"tool call"`, "the call's info record is below warning")

	require.NoError(t, c.SetLevel(t.Context(), mcp.SetLevelRequest{Params: mcp.SetLevelParams{Level: mcp.LoggingLevelDebug}}))
	callTool(t, c, "leak", nil, nil)
	require.Eventually(t, func() bool { return len(got.method("notifications/message")) == 4 }, 2*time.Second, 5*time.Millisecond,
		"warning, debug and the call's own info record")
}

// num reads a number the in-process transport passes as it was sent.
func num(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return -1
}

// TestProgressNotifications: a call with a progress token gets thinned,
// increasing reports up to the total; one without gets none.
func TestProgressNotifications(t *testing.T) {
	const total = 4 << 20
	work := tool.Def{Name: "work", Offline: true, Annotations: tool.Read(), Output: tool.Shape{"read": 0},
		Handler: func(ctx context.Context, _ *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
			n := 0
			buf := make([]byte, 4096)
			rd := tool.ProgressReader(ctx, strings.NewReader(strings.Repeat("x", total)), total)
			for {
				m, err := rd.Read(buf)
				n += m
				if err != nil {
					break
				}
			}
			return tool.JSON(map[string]int{"read": n})
		}}
	c, got := inProcess(t, mcpserver.New([]tool.Def{work}, runner()))
	callTool(t, c, "work", nil, nil)
	assert.Empty(t, got.method("notifications/progress"), "no token, no progress")

	callTool(t, c, "work", nil, "tok")
	require.Eventually(t, func() bool {
		ps := got.method("notifications/progress")
		return len(ps) > 0 && num(ps[len(ps)-1].Params.AdditionalFields["progress"]) == total
	}, 2*time.Second, 5*time.Millisecond)
	ps := got.method("notifications/progress")
	assert.LessOrEqual(t, len(ps), 21, "about one report per 5%%, not one per read")
	assert.GreaterOrEqual(t, len(ps), 10)
	last := -1.0
	for _, p := range ps {
		f := p.Params.AdditionalFields
		assert.Equal(t, "tok", f["progressToken"])
		assert.Equal(t, float64(total), num(f["total"]))
		assert.Greater(t, num(f["progress"]), last)
		last = num(f["progress"])
	}
}

// TestDynamicToolsets: the server starts with the initial toolsets and the
// two dynamic tools; enable_toolset adds a toolset's tools and announces
// it; an unknown toolset is an error naming the known ones.
func TestDynamicToolsets(t *testing.T) {
	ts := func(id string) tool.Toolset { return tool.Toolset{ID: id, Description: id + " tools"} }
	mk := func(name, set string) tool.Def {
		return tool.Def{Name: name, Toolset: ts(set), Offline: true, Annotations: tool.Read(),
			Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
				return tool.JSON(map[string]int{})
			}}
	}
	offered := []tool.Def{mk("get_a", "a"), mk("get_b", "b"), mk("put_b", "b")}
	c, got := inProcess(t, mcpserver.NewDynamic(offered, []string{"a"}, runner()))
	list := func() []string {
		res, err := c.ListTools(t.Context(), mcp.ListToolsRequest{})
		require.NoError(t, err)
		var out []string
		for _, tl := range res.Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	assert.ElementsMatch(t, []string{"get_a", "list_toolsets", "enable_toolset"}, list())

	res := callTool(t, c, "list_toolsets", nil, nil)
	require.False(t, res.IsError)
	assert.JSONEq(t, `{"toolsets":[{"id":"a","description":"a tools","tools":1,"enabled":true},{"id":"b","description":"b tools","tools":2,"enabled":false}]}`,
		res.Content[0].(mcp.TextContent).Text)

	res = callTool(t, c, "enable_toolset", map[string]any{"toolset": "b"}, nil)
	require.False(t, res.IsError)
	assert.JSONEq(t, `{"toolset":"b","added":["get_b","put_b"]}`, res.Content[0].(mcp.TextContent).Text)
	require.Eventually(t, func() bool { return len(got.method("notifications/tools/list_changed")) == 1 }, 2*time.Second, 5*time.Millisecond)
	assert.ElementsMatch(t, []string{"get_a", "get_b", "put_b", "list_toolsets", "enable_toolset"}, list())

	res = callTool(t, c, "enable_toolset", map[string]any{"toolset": "b"}, nil)
	require.False(t, res.IsError, "enabling twice is harmless")
	time.Sleep(20 * time.Millisecond)
	assert.Len(t, got.method("notifications/tools/list_changed"), 1, "and announces nothing new")

	res = callTool(t, c, "enable_toolset", map[string]any{"toolset": "c"}, nil)
	require.True(t, res.IsError)
	assert.Equal(t, `no toolset "c"; toolsets: a, b (list_toolsets describes them)`, res.Content[0].(mcp.TextContent).Text)
}

// TestDynamicToolsetsHint: calling a tool whose toolset is not enabled yet
// fails saying which toolset to enable.
func TestDynamicToolsetsHint(t *testing.T) {
	def := tool.Def{Name: "get_b", Toolset: tool.Toolset{ID: "b", Description: "b"}, Offline: true, Annotations: tool.Read(),
		Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
			return tool.JSON(map[string]int{})
		}}
	c, _ := inProcess(t, mcpserver.NewDynamic([]tool.Def{def}, nil, runner()))
	req := mcp.CallToolRequest{}
	req.Params.Name = "get_b"
	_, err := c.CallTool(t.Context(), req)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `tool 'get_b (enable_toolset "b" first)' not found`)
	res := callTool(t, c, "enable_toolset", map[string]any{"toolset": "b"}, nil)
	require.False(t, res.IsError)
	assert.False(t, callTool(t, c, "get_b", nil, nil).IsError)
}
