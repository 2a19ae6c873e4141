package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(mcp.TextContent)
	require.True(t, ok, "text content")
	return tc.Text
}

func runnerFor(f *fakeforge.Server) *tool.Runner {
	c := f.Client()
	return &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 5 * time.Second}
}

func TestRunnerResults(t *testing.T) {
	f := fakeforge.New(t)
	tests := []struct {
		name    string
		handler tool.Handler
		args    any
		isError bool
		want    string
	}{
		{name: "success", handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
			return tool.JSON(map[string]int{"n": 1})
		}, want: `{"n":1}`},
		{name: "invalid args never reach the handler", args: map[string]any{"x": 1.0}, isError: true,
			handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) { panic("reached") },
			want:    `invalid arguments for t: unknown argument "x"`},
		{name: "error becomes isError", handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
			return nil, errors.New("it broke")
		}, isError: true, want: "it broke"},
		{name: "token is redacted from errors", handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
			return nil, errors.New("echo " + fakeforge.Token)
		}, isError: true, want: "echo [REDACTED]"},
		{name: "panic is contained", handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
			panic("boom")
		}, isError: true, want: "internal error in t; this is a bug in forgejo-mcp"},
		{name: "nil result", handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
			return nil, nil
		}, isError: true, want: "internal error in t: no result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runnerFor(f).Call(context.Background(), tool.Def{Name: "t", Handler: tt.handler}, tt.args)
			assert.Equal(t, tt.isError, res.IsError)
			assert.Contains(t, text(t, res), tt.want)
		})
	}
}

func TestRunnerForgeErrorsAndDeadline(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/user", http.StatusForbidden, map[string]string{"message": "token does not have at least one of required scope(s): [read:user]"})
	user := func(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
		_, resp, err := c.SDK(ctx).GetMyUserInfo()
		return nil, forgejo.Fail(resp, err, "get", "the token's user")
	}
	slow := func(ctx context.Context, _ *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, &forgejo.Error{Verb: "get", Subject: "slow thing", Cause: ctx.Err()}
	}
	r := runnerFor(f)
	res := r.Call(context.Background(), tool.Def{Name: "t", Handler: user}, nil)
	assert.True(t, res.IsError)
	assert.Equal(t, "get the token's user: permission denied (403): token does not have at least one of required scope(s): [read:user]; the token may lack a scope (such as write:issue or write:repository) or the user the rights", text(t, res))

	r.Timeout = 50 * time.Millisecond
	start := time.Now()
	res = r.Call(context.Background(), tool.Def{Name: "t", Handler: slow}, nil)
	assert.True(t, res.IsError)
	assert.Equal(t, "get slow thing: timed out after 50ms (the call's deadline); narrow the request or retry", text(t, res))
	assert.Less(t, time.Since(start), 3*time.Second)
}

func TestRunnerBusy(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	d := tool.Def{Name: "t", Offline: true, Handler: func(ctx context.Context, _ *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
		started <- struct{}{}
		<-release
		return tool.JSON("done")
	}}
	r := &tool.Runner{}
	r.SetMaxConcurrent(1)
	done := make(chan *mcp.CallToolResult)
	go func() { done <- r.Call(context.Background(), d, nil) }()
	<-started
	res := r.Call(context.Background(), d, nil)
	assert.True(t, res.IsError)
	assert.Equal(t, "server busy: 1 tool calls are already running; retry t in a moment", text(t, res))
	close(release)
	assert.False(t, (<-done).IsError)
}

func TestRunnerNeedsForge(t *testing.T) {
	res := (&tool.Runner{}).Call(context.Background(), tool.Def{Name: "t", Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return tool.JSON(1)
	}}, nil)
	assert.True(t, res.IsError)
	assert.Equal(t, "t needs a forge: set --url or FORGEJO_URL and FORGEJO_ACCESS_TOKEN", text(t, res))
}

// TestAnnotationHints: a hint at the spec's default is left out, except
// destructiveHint, whose default (true) would misdescribe most tools; so
// is idempotentHint on a read-only tool, which the spec gives no meaning.
func TestAnnotationHints(t *testing.T) {
	for _, c := range []struct {
		a    tool.Annotations
		want string
	}{
		{tool.Read(), `{"readOnlyHint":true,"destructiveHint":false}`},
		{tool.Write(false), `{"destructiveHint":false}`},
		{tool.Write(true), `{"destructiveHint":false,"idempotentHint":true}`},
		{tool.Destroy(true), `{"destructiveHint":true,"idempotentHint":true}`},
		{tool.Annotations{ReadOnly: true, Idempotent: true}, `{"readOnlyHint":true,"destructiveHint":false,"openWorldHint":false}`},
	} {
		b, err := json.Marshal(tool.Def{Name: "t", Annotations: c.a}.MCPTool().Annotations)
		require.NoError(t, err)
		assert.JSONEq(t, c.want, string(b))
	}
}

func TestMCPToolSchema(t *testing.T) {
	d := tool.Def{Name: "t", Description: "Does t", Annotations: tool.Read(), Params: []tool.Param{
		tool.Owner(), tool.Repo(), tool.Page(), tool.Strs("labels", "Labels"), tool.State(), tool.Index(),
	}}
	b, err := json.Marshal(d.MCPTool())
	require.NoError(t, err)
	assert.JSONEq(t, `{
	  "name": "t", "description": "Does t",
	  "annotations": {"readOnlyHint": true, "destructiveHint": false},
	  "inputSchema": {"type": "object", "additionalProperties": false, "required": ["owner", "repo", "index"],
	    "properties": {
	      "owner": {"type": "string", "description": "User or org"},
	      "repo": {"type": "string", "description": "Repository"},
	      "page": {"type": "integer", "description": "Page, from 1", "default": 1, "minimum": 1},
	      "labels": {"type": "array", "description": "Labels", "items": {"type": "string"}},
	      "state": {"type": "string", "description": "Filter by state", "default": "open", "enum": ["open", "closed", "all"]},
	      "index": {"type": "integer", "description": "Issue or PR number"}
	    }}}`, string(b))
	// Properties keep declaration order, so clients show owner before repo.
	assert.Regexp(t, `"properties":\{"owner":.*"repo":.*"page":.*"labels":.*"state":`, string(b))
}
