package tool

import (
	"context"
	"fmt"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
)

// ArgLimit returns the bound r puts on d's arguments, as their JSON size
// (0: none), and the text of the isError result refusing arguments past
// it. The transports check it on the raw message, before anything decodes
// the arguments (pkg/rpcguard); Call checks it again on what was decoded.
func (r *Runner) ArgLimit(d Def) (limit int64, refusal string) {
	limit = r.MaxArgBytes
	if d.LargeArgs {
		limit = r.MaxLargeArgBytes
	}
	if limit <= 0 {
		return 0, ""
	}
	return limit, fmt.Sprintf("invalid arguments for %s: they are over this tool's limit of %s (as JSON); shorten the longest value", d.Name, bytesize.Text(limit))
}

type refusedArgsKey struct{}

type refusedArgs struct{ tool, msg string }

// WithRefusedArgs marks ctx so that a call of the tool named name that a
// Runner runs with it fails with msg, an isError result, without reading
// its arguments. A transport that found the arguments over a bound in the
// raw message passes the call on without them and this mark, so the agent
// gets its answer from the whole pipeline (busy bound, logging, cleaning)
// as for any refused argument.
func WithRefusedArgs(ctx context.Context, name, msg string) context.Context {
	return context.WithValue(ctx, refusedArgsKey{}, refusedArgs{name, msg})
}

// refusedArgsMsg is why ctx marks the arguments of a call of name refused.
func refusedArgsMsg(ctx context.Context, name string) (string, bool) {
	r, ok := ctx.Value(refusedArgsKey{}).(refusedArgs)
	if !ok || r.tool != name {
		return "", false
	}
	return r.msg, true
}
