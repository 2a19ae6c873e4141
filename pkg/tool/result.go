package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mark3labs/mcp-go/mcp"
)

// JSON returns v as one compact JSON text content, the shape every tool
// answers with: compact because every byte lands in the agent's context.
// A nil slice or map is written as [] or {}, never null (nonull.go).
// A JSON object is also the result's structuredContent, for clients that
// read the tool's outputSchema; the text stays for those that do not (the
// Runner drops structuredContent from tools that declare no schema). A
// result over MaxResultBytes is cut to fit (fit.go).
func JSON(v any) (*mcp.CallToolResult, error) { return JSONUpTo(v, MaxResultBytes) }

// JSONUpTo is JSON for a result the agent asked to be larger than
// MaxResultBytes (a window with max_bytes over the default): it is cut to
// fit limit instead.
func JSONUpTo(v any, limit int) (*mcp.CallToolResult, error) {
	b, err := marshal(v)
	if err == nil && bytes.Contains(b, []byte("null")) {
		// Rare (an empty list the forge sent as null, a nil slice for
		// none), so the copy without them is made only then.
		if nv, changed := withoutNil(reflect.ValueOf(v)); changed {
			b, err = marshal(nv.Interface())
		}
	}
	if err != nil {
		return nil, fmt.Errorf("encoding result: %w", err)
	}
	b, _ = fit(b, max(limit, MaxResultBytes))
	res := &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(b))}}
	if len(b) > 0 && b[0] == '{' {
		res.StructuredContent = json.RawMessage(b)
	}
	return res, nil
}

// ListPage is the envelope of a list result.
type ListPage[T any] struct {
	Items   []T   `json:"items"`
	Page    int64 `json:"page"`
	HasMore bool  `json:"has_more"`
}

// Items returns one page of a list, never a JSON null for an empty page.
func Items[T any](items []T, page int64, hasMore bool) (*mcp.CallToolResult, error) {
	if items == nil {
		items = []T{}
	}
	return JSON(ListPage[T]{Items: items, Page: page, HasMore: hasMore})
}

// Map converts each element of in with f, skipping nil pointers the SDK may
// put in a slice.
func Map[S any, T any](in []*S, f func(*S) T) []T {
	out := make([]T, 0, len(in))
	for _, s := range in {
		if s != nil {
			out = append(out, f(s))
		}
	}
	return out
}

// Deleted is the result of every delete tool: {"deleted":true} and the
// key naming what was deleted, so agents see one shape whatever they delete.
// Its tools declare Output: DeletedOutput(key, zero of value's type).
func Deleted(key string, value any) (*mcp.CallToolResult, error) {
	return JSON(map[string]any{"deleted": true, key: value})
}

// Error returns an isError result with msg, the text an agent acts on.
func Error(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{mcp.NewTextContent(msg)}}
}
