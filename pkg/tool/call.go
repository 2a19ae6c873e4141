package tool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// ClientFunc returns the forge identity a call acts as: one fixed client on
// stdio and in --cli, the caller's own over HTTP.
type ClientFunc func(ctx context.Context) (*forgejo.Client, error)

// Runner is the call pipeline every tool call goes through, whatever the
// transport: argument validation, identity, deadline, concurrency bound,
// panic recovery, error shaping, token redaction and logging.
type Runner struct {
	Client ClientFunc
	// Timeout is each call's deadline; 0 means none.
	Timeout time.Duration
	// Logger receives one line per call; nil logs nothing.
	Logger *slog.Logger
	// sem bounds concurrent calls when set by SetMaxConcurrent.
	sem chan struct{}
}

// SetMaxConcurrent bounds calls running at once; a call past the bound is
// refused at once with a "busy" error rather than queued. n <= 0 removes the
// bound. Call it before the runner serves.
func (r *Runner) SetMaxConcurrent(n int) {
	if n <= 0 {
		r.sem = nil
		return
	}
	r.sem = make(chan struct{}, n)
}

// Call runs d with raw arguments and always returns a result: failures are
// isError results whose text says what went wrong and what to do.
func (r *Runner) Call(ctx context.Context, d Def, raw any) *mcp.CallToolResult {
	start := time.Now()
	res, client := r.call(ctx, d, raw)
	if res.IsError {
		for i, c := range res.Content {
			if t, ok := c.(mcp.TextContent); ok {
				t.Text = client.Redact(t.Text)
				res.Content[i] = t
			}
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

func (r *Runner) call(ctx context.Context, d Def, raw any) (res *mcp.CallToolResult, client *forgejo.Client) {
	if r.sem != nil {
		select {
		case r.sem <- struct{}{}:
			defer func() { <-r.sem }()
		default:
			return Error(fmt.Sprintf("server busy: %d tool calls are already running; retry %s in a moment", cap(r.sem), d.Name)), nil
		}
	}
	args, err := d.Parse(raw)
	if err != nil {
		return Error(err.Error()), nil
	}
	if !d.Offline {
		if r.Client == nil {
			return Error(d.Name + " needs a forge: set --url or FORGEJO_URL and FORGEJO_ACCESS_TOKEN"), nil
		}
		if client, err = r.Client(ctx); err != nil {
			return Error(err.Error()), nil
		}
	}
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	defer func() {
		if p := recover(); p != nil {
			if r.Logger != nil {
				r.Logger.Error("tool panicked", "tool", d.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			}
			res = Error(fmt.Sprintf("internal error in %s; this is a bug in forgejo-mcp, please report it", d.Name))
		}
	}()
	res, err = d.Handler(ctx, client, args)
	switch {
	case err != nil:
		return Error(describe(ctx, d, err, r.Timeout)), client
	case res == nil:
		return Error(fmt.Sprintf("internal error in %s: no result", d.Name)), client
	}
	return res, client
}

// describe adds what only the pipeline knows to an error: that the call's
// own deadline ran out, or that the client cancelled it.
func describe(ctx context.Context, d Def, err error, timeout time.Duration) string {
	var fe *forgejo.Error
	if errors.As(err, &fe) {
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded) && timeout > 0:
			return fmt.Sprintf("%s: timed out after %s (the call's deadline); narrow the request or retry", fe.Verb+" "+fe.Subject, timeout)
		case errors.Is(ctx.Err(), context.Canceled):
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
