package tool

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// The meta-tools (operation/meta) make every tool a server's selection
// allows reachable from a small tools/list, with no session: one finds
// tools by words among the callable ones, the other calls one by name.
// What they reach is the server's selection before its default narrows
// the list (Runner.Callable), narrowed again by what a request itself
// selects (WithCallable, the X-MCP-* headers over HTTP), so a call through
// them can do nothing the same server would refuse if the tool were listed.

// A Forward tool runs another tool in its place: Runner.Call reads the
// tool's name and arguments from the call and runs that tool through the
// whole pipeline (limits, identity, validation, scope, deadline, result
// bounds, escaping, redaction, logs and metrics under its own name), as if
// it had been called directly.
type Forward func(a Args) (name string, args map[string]any)

type callableKey struct{}

// WithCallable returns ctx whose calls reach, through the meta-tools, only
// the tools named in names among those the server makes callable; nil
// narrows nothing.
func WithCallable(ctx context.Context, names map[string]bool) context.Context {
	if names == nil {
		return ctx
	}
	return context.WithValue(ctx, callableKey{}, names)
}

type reachKey struct{}

// CallableOf returns the tools a call may find and call through the
// meta-tools: the Runner puts them in every handler's context.
func CallableOf(ctx context.Context) []Def {
	if f, ok := ctx.Value(reachKey{}).(func() []Def); ok {
		return f()
	}
	return nil
}

// withReach gives a handler's context CallableOf, worked out only when
// asked.
func (r *Runner) withReach(ctx context.Context) context.Context {
	return context.WithValue(ctx, reachKey{}, func() []Def { return r.callable(ctx) })
}

// CallableFor returns the tools ctx's calls may reach through the
// meta-tools.
func (r *Runner) CallableFor(ctx context.Context) []Def { return r.callable(ctx) }

// callable returns the tools ctx's call may reach through the meta-tools.
func (r *Runner) callable(ctx context.Context) []Def {
	if r.Callable == nil {
		return nil
	}
	all := r.Callable()
	names, ok := ctx.Value(callableKey{}).(map[string]bool)
	if !ok {
		return all
	}
	out := make([]Def, 0, len(names))
	for _, d := range all {
		if names[d.Name] {
			out = append(out, d)
		}
	}
	return out
}

// forward runs the tool a Forward tool's call names in its place.
func (r *Runner) forward(ctx context.Context, d Def, raw any) *mcp.CallToolResult {
	if msg, ok := refusedArgsMsg(ctx, d.Name); ok {
		// The transport found the arguments over the bound and dropped them.
		return Error(msg)
	}
	if msg := r.checkArgSize(d, raw); msg != "" {
		return Error(msg)
	}
	client, _ := r.identity(ctx)
	args, err := d.parse(raw, client.Redact)
	if err != nil {
		res := Error(err.Error())
		Clean(res, client.Redact)
		return res
	}
	name, inner := d.Forward(args)
	defs := r.callable(ctx)
	target, ok := Find(defs, name)
	if !ok || target.Forward != nil {
		names := make([]string, 0, len(defs))
		for _, t := range defs {
			if t.Forward == nil {
				names = append(names, t.Name)
			}
		}
		msg := fmt.Sprintf("%s: no tool %q can be called here; search_tools finds the tools this server allows by words", d.Name, forgejo.Clip(client.Redact(name)))
		if s := Suggest(name, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		res := Error(msg)
		Clean(res, client.Redact)
		return res
	}
	if inner == nil {
		inner = map[string]any{}
	}
	return r.Call(ctx, target, inner)
}

// DispatchTarget returns the tool a Forward tool's arguments name among
// defs, and its arguments, for a caller that must know them before the
// call (the CLI's question before a destructive call); false when d
// forwards nothing or names no tool of defs.
func DispatchTarget(d Def, raw map[string]any, defs []Def) (Def, map[string]any, bool) {
	if d.Forward == nil {
		return Def{}, nil, false
	}
	args, err := d.Parse(raw)
	if err != nil {
		return Def{}, nil, false
	}
	name, inner := d.Forward(args)
	target, ok := Find(defs, name)
	return target, inner, ok
}
