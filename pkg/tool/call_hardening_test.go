package tool_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func textTool(large bool, params ...tool.Param) tool.Def {
	return tool.Def{Name: "t", Offline: true, LargeArgs: large, Params: append([]tool.Param{tool.Str("text", "text")}, params...),
		Handler: func(_ context.Context, _ *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(a.String("text"))}}, nil
		}}
}

// TestArgumentLimit: {"text": s} measures 12+len(s) bytes as JSON.
func TestArgumentLimit(t *testing.T) {
	r := &tool.Runner{MaxArgBytes: 1024, MaxLargeArgBytes: 4096}
	tests := []struct {
		name  string
		large bool
		size  int
		err   string
	}{
		{name: "at the limit", size: 1024 - 12},
		{name: "past the limit", size: 1024 - 11, err: "invalid arguments for t: they are over this tool's limit of 1 KiB (as JSON); shorten the longest value"},
		{name: "far past the limit", size: 1 << 20, err: "over this tool's limit of 1 KiB"},
		{name: "upload tool at its limit", large: true, size: 4096 - 12},
		{name: "upload tool past its limit", large: true, size: 4096 - 11, err: "over this tool's limit of 4 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := r.Call(context.Background(), textTool(tt.large), map[string]any{"text": strings.Repeat("a", tt.size)})
			if tt.err == "" {
				assert.False(t, res.IsError)
				return
			}
			assert.True(t, res.IsError)
			assert.Contains(t, text(t, res), tt.err)
		})
	}
	res := r.Call(context.Background(), textTool(false), map[string]any{"text": "x", "a": []any{strings.Repeat("b", 2000)}})
	assert.Contains(t, text(t, res), "over this tool's limit", "nested values count")
}

// TestResultLimit: a result past MaxResultBytes fails with how to narrow
// the request; it is never truncated.
func TestResultLimit(t *testing.T) {
	r := &tool.Runner{MaxResultBytes: 1000}
	list := []tool.Param{tool.Page(), tool.Limit()}
	file := []tool.Param{tool.Str("path", "file path"), tool.Int("start_line", "first line")}
	tests := []struct {
		name   string
		params []tool.Param
		text   string
		err    string
	}{
		{name: "at the limit", text: strings.Repeat("a", 1000)},
		{name: "past the limit", text: strings.Repeat("a", 1001),
			err: "t: the result is 1001 bytes, over the output limit of 1000 bytes, so nothing was returned; narrow the request (fewer or smaller items) and retry"},
		{name: "a list says page and limit", params: list, text: strings.Repeat("a", 5000),
			err: "narrow the request: ask for a smaller limit, or one page at a time"},
		{name: "a file says path and line range", params: file, text: strings.Repeat("a", 5000),
			err: "narrow the request: ask for a line range, or a single file path rather than a directory"},
		{name: "escapes count", text: strings.Repeat("a", 997) + "\u202e",
			err: "t: the escaped result is 1003 bytes, over the output limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := r.Call(context.Background(), textTool(false, tt.params...), map[string]any{"text": tt.text})
			if tt.err == "" {
				assert.False(t, res.IsError)
				assert.Equal(t, tt.text, text(t, res), "whole, not truncated")
				return
			}
			assert.True(t, res.IsError)
			assert.Contains(t, text(t, res), tt.err)
		})
	}
	blob := tool.Def{Name: "b", Offline: true, Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			mcp.NewTextContent("meta"),
			mcp.NewEmbeddedResource(mcp.BlobResourceContents{URI: "x", Blob: strings.Repeat("A", 2000)}),
		}}, nil
	}}
	res := r.Call(context.Background(), blob, nil)
	assert.True(t, res.IsError, "blobs count")
}

// TestResultsAreCleaned: invisible characters are escaped and the token
// redacted in every result, successful or not.
func TestResultsAreCleaned(t *testing.T) {
	f := fakeforge.New(t)
	body := "looks fine\u202e\u200b " + fakeforge.Token
	ok := func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			mcp.NewTextContent(body),
			mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "x", Text: body}),
		}}, nil
	}
	fail := func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return nil, errors.New(body)
	}
	want := `looks fine\u202e\u200b [REDACTED]`
	r := runnerFor(f)
	res := r.Call(context.Background(), tool.Def{Name: "t", Handler: ok}, nil)
	require.False(t, res.IsError)
	assert.Equal(t, want, text2(t, res, 0))
	assert.Equal(t, want, res.Content[1].(mcp.EmbeddedResource).Resource.(mcp.TextResourceContents).Text)
	res = r.Call(context.Background(), tool.Def{Name: "t", Handler: fail}, nil)
	require.True(t, res.IsError)
	assert.Equal(t, want, text(t, res))
}

func text2(t *testing.T, res *mcp.CallToolResult, i int) string {
	t.Helper()
	tc, ok := res.Content[i].(mcp.TextContent)
	require.True(t, ok)
	return tc.Text
}
