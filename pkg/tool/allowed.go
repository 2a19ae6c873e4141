package tool

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

// A request may be narrowed to some of the tools the server offers (over
// HTTP by its X-MCP-* headers). The narrowing covers everything the client
// can reach, not only tools/list and tools/call: a resource template is
// reached through the tool it reads with, a prompt through the tools it
// names, a completion through its template or prompt. Each of those
// surfaces asks Allowed; without narrowing (stdio, --cli, an HTTP request
// the server does not narrow) every offered tool is allowed.

type allowedKey struct{}

// WithAllowed returns ctx narrowed to the tools named in allow; nil
// narrows nothing.
func WithAllowed(ctx context.Context, allow map[string]bool) context.Context {
	if allow == nil {
		return ctx
	}
	return context.WithValue(ctx, allowedKey{}, allow)
}

// Allowed reports whether ctx's request may reach the tool name (the
// server offering it is checked elsewhere).
func Allowed(ctx context.Context, name string) bool {
	allow, ok := ctx.Value(allowedKey{}).(map[string]bool)
	return !ok || allow[name]
}

// FilterAllowed is the mcp-go tool filter of the narrowing: mcp-go applies
// it to tools/list and, with the one requested tool, to tools/call, so a
// tool the request is narrowed away from can be neither listed nor called.
func FilterAllowed(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	allow, ok := ctx.Value(allowedKey{}).(map[string]bool)
	if !ok {
		return tools
	}
	ro, _ := ctx.Value(readOnlyKey{}).(bool)
	out := make([]mcp.Tool, 0, len(allow))
	for _, t := range tools {
		if !allow[t.Name] {
			continue
		}
		if ro && (t.Annotations.ReadOnlyHint == nil || !*t.Annotations.ReadOnlyHint) {
			// Only a forwarding tool (call_tool) is allowed in a
			// read-only request without being read-only: it reaches
			// only the read-only tools the request allows (Select).
			t.Annotations = Read().hints()
		}
		out = append(out, t)
	}
	return out
}

type readOnlyKey struct{}

// WithReadOnly marks ctx's request as narrowed to read-only tools (over
// HTTP, X-MCP-Readonly: true), so that FilterAllowed describes the
// forwarding tool it keeps as read-only, as Select does for a server's
// --read-only.
func WithReadOnly(ctx context.Context, readOnly bool) context.Context {
	if !readOnly {
		return ctx
	}
	return context.WithValue(ctx, readOnlyKey{}, true)
}
