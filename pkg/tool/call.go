package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/trust"
)

// ClientFunc returns the forge identity a call acts as: one fixed client on
// stdio and in --cli, the caller's own over HTTP.
type ClientFunc func(ctx context.Context) (*forgejo.Client, error)

// Default bounds of the call pipeline; cmd exposes each as a flag.
const (
	// DefaultMaxArgBytes bounds the arguments of ordinary tools: four times
	// the largest text parameter (a 64 KiB issue body) leaves room for the
	// rest of the call, yet refuses a megabytes-long value early.
	DefaultMaxArgBytes = 256 << 10
	// DefaultMaxResultBytes bounds what one call returns to the agent.
	DefaultMaxResultBytes = 8 << 20
)

// Runner is the call pipeline every tool call goes through, whatever the
// transport: argument bounds and validation, identity, deadline, concurrency
// bound, panic recovery, error shaping, result bounds, marking of text the
// web view hides, escaping of invisible characters, token redaction and
// logging.
type Runner struct {
	Client ClientFunc
	// Timeout is each call's deadline; 0 means none.
	Timeout time.Duration
	// Logger receives one line per call; nil logs nothing.
	Logger *slog.Logger
	// MaxArgBytes bounds the arguments of a tool without LargeArgs,
	// measured as their JSON size; 0 means none. Checked before parsing so
	// a huge value is refused without being walked twice.
	MaxArgBytes int64
	// MaxLargeArgBytes bounds the arguments of a LargeArgs tool (uploads);
	// 0 means none (the transport's frame limit still applies).
	MaxLargeArgBytes int64
	// MaxResultBytes bounds a result's content; past it the call fails
	// with a message saying how to narrow it, never a truncated result.
	// 0 means none.
	MaxResultBytes int64
	// Repos limits every call to some repositories (--repos); the zero
	// Scope limits nothing. A request may narrow it further
	// (trust.WithScope), never widen it (runner_trust.go).
	Repos trust.Scope
	// Lockdown withholds, on public repositories, the text of authors
	// without write access; a request may switch it on
	// (trust.WithLockdown), never off.
	Lockdown bool
	// Marks shows next to every author of user-written text their
	// relation to the repository (owner, member, collaborator, none).
	Marks bool
	// MaxInlineBytes is the server's inline cap: the most bytes of a file
	// a download returns in one result (inline.go); a request may lower
	// it further. 0 means MaxInlineBytes.
	MaxInlineBytes int64
	// Callable returns the tools the meta-tools reach (dispatch.go): the
	// server's selection before its default narrows tools/list; nil
	// reaches none.
	Callable func() []Def
	// gate bounds concurrent calls and observes them (limit.go).
	gate *gate
}

// Call runs d with raw arguments and always returns a result: failures are
// isError results whose text says what went wrong and what to do.
func (r *Runner) Call(ctx context.Context, d Def, raw any) *mcp.CallToolResult {
	if d.Forward != nil {
		return r.forward(ctx, d, raw)
	}
	start := time.Now()
	// The identity is known before anything else runs, so every text that
	// leaves, a validation error echoing an argument included, can be
	// redacted with its token.
	client, clientErr := r.identity(ctx)
	res := r.gate.run(ctx, d.Name, func() *mcp.CallToolResult { return r.call(ctx, d, raw, client, clientErr) })
	if !res.IsError {
		if msg := r.checkResultSize(d, res, "the result"); msg != "" {
			res = Error(msg)
		}
	}
	// Text the forge's web view hides is marked in the markdown the
	// result carries (hidden.go), before the escaping: the marks are text.
	markHidden(d, res)
	// Invisible characters are escaped in every string the result carries
	// (forge text reaches error messages too), then the token is redacted,
	// last, so nothing after it can reintroduce it.
	Clean(res, client.Redact)
	if !res.IsError {
		// Escapes lengthen text: what leaves must still fit.
		if msg := r.checkResultSize(d, res, "the escaped result"); msg != "" {
			res = Error(msg)
			Clean(res, client.Redact)
		}
	}
	if r.Logger != nil {
		r.Logger.LogAttrs(ctx, slog.LevelInfo, "tool call",
			slog.String("tool", d.Name),
			slog.Bool("is_error", res.IsError),
			slog.Duration("took", time.Since(start)))
		if res.IsError {
			r.Logger.LogAttrs(ctx, slog.LevelDebug, "tool error", slog.String("tool", d.Name), slog.String("text", firstText(res)))
		}
	}
	return res
}

// Redact removes the token of ctx's identity from s: for text that leaves
// the server outside a tool result, such as a protocol error echoing what
// the client sent.
func (r *Runner) Redact(ctx context.Context, s string) string {
	client, err := r.identity(ctx)
	if err != nil {
		return s
	}
	return client.Redact(s)
}

// identity returns the call's forge client, nil when none is configured.
func (r *Runner) identity(ctx context.Context) (*forgejo.Client, error) {
	if r.Client == nil {
		return nil, nil
	}
	return r.Client(ctx)
}

func (r *Runner) call(ctx context.Context, d Def, raw any, client *forgejo.Client, clientErr error) (res *mcp.CallToolResult) {
	if msg, ok := refusedArgsMsg(ctx, d.Name); ok {
		return Error(msg)
	}
	if msg := r.checkArgSize(d, raw); msg != "" {
		return Error(msg)
	}
	raw, err := d.fromURL(raw, client)
	if err != nil {
		return Error(err.Error())
	}
	args, err := d.parse(raw, client.Redact)
	if err != nil {
		return Error(err.Error())
	}
	if !d.Offline {
		switch {
		case clientErr != nil:
			return Error(clientErr.Error())
		case client == nil:
			return Error(d.Name + " needs a forge: set --url or FORGEJO_URL and FORGEJO_ACCESS_TOKEN")
		}
	} else if clientErr != nil {
		client = nil
	}
	ctx = WithInlineCap(ctx, r.MaxInlineBytes)
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	defer func() {
		if p := recover(); p != nil {
			if r.Logger != nil {
				r.Logger.Error("tool panicked", "tool", d.Name, "panic", client.Redact(fmt.Sprint(p)), "stack", string(debug.Stack()))
			}
			res = Error(fmt.Sprintf("internal error in %s; this is a bug in forgejo-mcp, please report it", d.Name))
		}
	}()
	if msg := r.scopeRefusal(ctx, d, args, client); msg != "" {
		return Error(msg)
	}
	trusted, hctx := r.startTrust(ctx, d, args, client)
	defer trusted.wait()
	res, err = d.Handler(r.withReach(hctx), client, args)
	r.overran(ctx, d.Name)
	switch {
	case err != nil:
		// A wrong forge URL first (a repository page's URL answers 404 to
		// everything, the repository look included), then a missing
		// repository.
		if err = client.DiagnoseURL(ctx, err); !isURLError(err) {
			err = missingRepo(ctx, client, d, args, err)
		}
		return Error(describe(ctx, d, client.Explain(err), r.Timeout))
	case res == nil:
		return Error(fmt.Sprintf("internal error in %s: no result", d.Name))
	}
	if d.Output == nil || d.Unadvertised || res.IsError {
		// structuredContent is sent only where tools/list announced its
		// schema; an error's text is the whole message.
		res.StructuredContent = nil
	}
	if !res.IsError {
		res = trusted.settle(ctx, d, res)
	}
	return res
}

// overrun is how long past its deadline a handler may return before the
// Runner says so: its work is to stop at the deadline (a PDF's
// extraction stops within milliseconds), and its concurrency slot stays
// taken until it returns, so a handler that runs on holds a slot.
const overrun = time.Second

// overran logs a handler that returned well after its deadline.
func (r *Runner) overran(ctx context.Context, name string) {
	deadline, ok := ctx.Deadline()
	if late := time.Since(deadline); ok && late > overrun && r.Logger != nil {
		r.Logger.LogAttrs(ctx, slog.LevelWarn, "tool call ran on past its deadline", slog.String("tool", name), slog.Duration("late", late))
	}
}

// checkArgSize returns why raw is too large for d, or "".
func (r *Runner) checkArgSize(d Def, raw any) string {
	limit, refusal := r.ArgLimit(d)
	if limit > 0 && jsonSize(raw, limit) > limit {
		return refusal
	}
	return ""
}

// checkResultSize returns why res is too large to return, with how to
// narrow the request, or "".
func (r *Runner) checkResultSize(d Def, res *mcp.CallToolResult, what string) string {
	if r.MaxResultBytes <= 0 {
		return ""
	}
	n := resultSize(res)
	if n <= r.MaxResultBytes {
		return ""
	}
	return fmt.Sprintf("%s: %s is %s, over the output limit of %s, so nothing was returned; %s",
		d.Name, what, bytesize.Text(n), bytesize.Text(r.MaxResultBytes), narrowHint(d))
}

// narrowHint tells how to ask d for less, from the parameters it has.
func narrowHint(d Def) string {
	var ways []string
	has := func(names ...string) bool {
		for _, n := range names {
			if d.param(n) != nil {
				return true
			}
		}
		return false
	}
	if has("limit") {
		ways = append(ways, "a smaller limit")
	}
	if has("page") {
		ways = append(ways, "one page at a time")
	}
	if has("from_line", "to_line", "start_line", "end_line", "lines") {
		ways = append(ways, "a line range")
	}
	if has("path", "filepath", "file_path") {
		ways = append(ways, "a single file path rather than a directory")
	}
	if len(ways) == 0 {
		return "narrow the request (fewer or smaller items) and retry"
	}
	return "narrow the request: ask for " + strings.Join(ways, ", or ")
}

// resultSize is the bytes res puts on the wire, content by content.
func resultSize(res *mcp.CallToolResult) int64 {
	var n int64
	for _, c := range res.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			n += int64(len(v.Text))
		case *mcp.TextContent:
			n += int64(len(v.Text))
		case mcp.ImageContent:
			n += int64(len(v.Data))
		case mcp.AudioContent:
			n += int64(len(v.Data))
		case mcp.EmbeddedResource:
			switch r := v.Resource.(type) {
			case mcp.TextResourceContents:
				n += int64(len(r.Text))
			case mcp.BlobResourceContents:
				n += int64(len(r.Blob))
			}
		}
	}
	if res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			n += int64(len(b))
		}
	}
	return n
}

// jsonSize estimates the JSON size of v as decoded from JSON, stopping as
// soon as it passes limit: escapes are not counted, so it never
// overestimates a value.
func jsonSize(v any, limit int64) int64 {
	switch x := v.(type) {
	case nil:
		return 4
	case string:
		return int64(len(x)) + 2
	case bool:
		return 5
	case map[string]any:
		n := int64(2)
		for k, e := range x {
			n += int64(len(k)) + 4 + jsonSize(e, limit-n)
			if n > limit {
				return n
			}
		}
		return n
	case []any:
		n := int64(2)
		for _, e := range x {
			n += 1 + jsonSize(e, limit-n)
			if n > limit {
				return n
			}
		}
		return n
	case []string:
		n := int64(2)
		for _, e := range x {
			n += int64(len(e)) + 3
		}
		return n
	}
	return 8 // numbers
}

// describe adds what only the pipeline knows to an error: that the call's
// own deadline ran out, or that the call was cancelled (by the client or by
// the server shutting down, which context.Cause tells apart).
func describe(ctx context.Context, d Def, err error, timeout time.Duration) string {
	var fe *forgejo.Error
	if errors.As(err, &fe) {
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded) && timeout > 0:
			return fmt.Sprintf("%s: timed out after %s (the call's deadline); narrow the request or retry", fe.Verb+" "+fe.Subject, timeout)
		case errors.Is(ctx.Err(), context.Canceled):
			if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
				return fmt.Sprintf("%s: cancelled (%v)", fe.Verb+" "+fe.Subject, cause)
			}
			return fmt.Sprintf("%s: cancelled", fe.Verb+" "+fe.Subject)
		}
	}
	return err.Error()
}

func firstText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
