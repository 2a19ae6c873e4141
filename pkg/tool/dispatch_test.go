package tool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// dispatchDefs are a forwarding tool and the tools it may reach: echo
// returns its arguments, drop is destructive, seen reports what
// CallableOf gives a handler.
func dispatchDefs() []tool.Def {
	echo := func(_ context.Context, _ *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
		return tool.JSON(map[string]any{"owner": a.String("owner"), "n": a.Int("n")})
	}
	return []tool.Def{
		{Name: "call", Offline: true, Annotations: tool.Destroy(false), Params: []tool.Param{
			tool.Str("name", "Tool name", tool.Required()), tool.JSONObject("arguments", "Arguments"),
		}, Forward: func(a tool.Args) (string, map[string]any) { return a.String("name"), a.Object("arguments") },
			Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) { panic("never run") }},
		{Name: "echo", Offline: true, Annotations: tool.Read(), Handler: echo, Params: []tool.Param{
			tool.Str("owner", "Owner", tool.Required()), tool.Int("n", "N"),
		}},
		{Name: "drop", Offline: true, Annotations: tool.Destroy(true), Handler: echo},
		{Name: "seen", Offline: true, Annotations: tool.Read(), Handler: func(ctx context.Context, _ *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
			var names []string
			for _, d := range tool.CallableOf(ctx) {
				names = append(names, d.Name)
			}
			return tool.JSON(map[string]any{"names": names})
		}},
	}
}

// TestForward: a forwarding tool runs the tool it names through the whole
// pipeline (its validation included), among the tools the runner makes
// callable and the request narrows to, never another forwarding tool.
func TestForward(t *testing.T) {
	f := fakeforge.New(t)
	defs := dispatchDefs()
	call := defs[0]
	for _, tt := range []struct {
		name    string
		ctx     func(context.Context) context.Context
		args    any
		isError bool
		want    string
	}{
		{name: "runs the tool", args: map[string]any{"name": "echo", "arguments": map[string]any{"owner": "o", "n": 2.0}},
			want: `{"n":2,"owner":"o"}`},
		{name: "arguments as JSON text (--cli)", args: map[string]any{"name": "echo", "arguments": `{"owner":"o"}`},
			want: `{"n":0,"owner":"o"}`},
		{name: "the tool validates its arguments", args: map[string]any{"name": "echo", "arguments": map[string]any{"n": 2.0}},
			isError: true, want: `invalid arguments for echo: missing required argument "owner"`},
		{name: "no arguments is an empty object", args: map[string]any{"name": "echo"},
			isError: true, want: `invalid arguments for echo: missing required argument "owner"`},
		{name: "arguments not an object", args: map[string]any{"name": "echo", "arguments": []any{"o"}},
			isError: true, want: `invalid arguments for call: argument "arguments" must be a JSON object, got a list`},
		{name: "unknown tool, with a suggestion", args: map[string]any{"name": "ecko"},
			isError: true, want: `call: no tool "ecko" can be called here; search_tools finds the tools this server allows by words (did you mean "echo"?)`},
		{name: "never itself", args: map[string]any{"name": "call", "arguments": map[string]any{"name": "echo"}},
			isError: true, want: `call: no tool "call" can be called here`},
		{name: "the token is never echoed", args: map[string]any{"name": fakeforge.Token},
			isError: true, want: `call: no tool "[REDACTED]" can be called here`},
		{name: "a request narrows what it reaches", args: map[string]any{"name": "drop"},
			ctx: func(ctx context.Context) context.Context {
				return tool.WithCallable(ctx, map[string]bool{"echo": true})
			},
			isError: true, want: `call: no tool "drop" can be called here; search_tools finds the tools this server allows by words`},
		{name: "a handler sees what the request reaches", args: map[string]any{"name": "seen"},
			ctx: func(ctx context.Context) context.Context {
				return tool.WithCallable(ctx, map[string]bool{"seen": true, "echo": true})
			}, want: `{"names":["echo","seen"]}`},
		{name: "refused arguments stay refused", args: nil,
			ctx:     func(ctx context.Context) context.Context { return tool.WithRefusedArgs(ctx, "call", "too big") },
			isError: true, want: "too big"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runnerFor(f)
			r.Callable = func() []tool.Def { return defs }
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx(ctx)
			}
			res := r.Call(ctx, call, tt.args)
			assert.Equal(t, tt.isError, res.IsError, text(t, res))
			if tt.isError {
				assert.Contains(t, text(t, res), tt.want)
			} else {
				assert.JSONEq(t, tt.want, text(t, res))
			}
			assert.NotContains(t, text(t, res), fakeforge.Token)
		})
	}
}

// TestForwardReachesNothingWithoutCallable: a runner that was given no
// callable tools forwards to none.
func TestForwardReachesNothingWithoutCallable(t *testing.T) {
	defs := dispatchDefs()
	res := (&tool.Runner{}).Call(context.Background(), defs[0], map[string]any{"name": "echo", "arguments": map[string]any{"owner": "o"}})
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), `no tool "echo" can be called here`)
}

// TestForwardArgLimit: the forwarding tool's own bound applies before it
// reads a name, and the called tool's bound to the arguments it passes on.
func TestForwardArgLimit(t *testing.T) {
	defs := dispatchDefs()
	defs[0].LargeArgs = true
	r := &tool.Runner{MaxArgBytes: 64, MaxLargeArgBytes: 256}
	r.Callable = func() []tool.Def { return defs }
	long := string(make([]byte, 100))
	res := r.Call(context.Background(), defs[0], map[string]any{"name": "echo", "arguments": map[string]any{"owner": long}})
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), "invalid arguments for echo: they are over this tool's limit of 64 bytes")
	res = r.Call(context.Background(), defs[0], map[string]any{"name": "echo", "arguments": map[string]any{"owner": long + long + long}})
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), "invalid arguments for call: they are over this tool's limit of 256 bytes")
}

// TestDispatchTarget: what a caller asks before a call (the CLI's
// confirmation) is what the called tool would ask.
func TestDispatchTarget(t *testing.T) {
	defs := dispatchDefs()
	target, args, ok := tool.DispatchTarget(defs[0], map[string]any{"name": "drop", "arguments": map[string]any{"owner": "o"}}, defs)
	require.True(t, ok)
	assert.Equal(t, "drop", target.Name)
	assert.True(t, target.Annotations.Destructive)
	assert.Equal(t, map[string]any{"owner": "o"}, args)
	_, _, ok = tool.DispatchTarget(defs[0], map[string]any{"name": "nope"}, defs)
	assert.False(t, ok)
	_, _, ok = tool.DispatchTarget(defs[1], map[string]any{"owner": "o"}, defs)
	assert.False(t, ok, "echo forwards nothing")
}

// TestSelectReadOnlyForward: a read-only selection keeps a forwarding
// tool, described as read-only since it reaches only read-only tools.
func TestSelectReadOnlyForward(t *testing.T) {
	got, err := tool.Select(dispatchDefs(), tool.Selection{Toolsets: []string{"all"}, ReadOnly: true})
	require.NoError(t, err)
	var names []string
	for _, d := range got {
		names = append(names, d.Name)
		assert.True(t, d.Annotations.ReadOnly, d.Name)
	}
	assert.Equal(t, []string{"call", "echo", "seen"}, names)
	b, err := json.Marshal(got[0].MCPTool().Annotations)
	require.NoError(t, err)
	assert.JSONEq(t, `{"readOnlyHint":true,"destructiveHint":false}`, string(b))
}
