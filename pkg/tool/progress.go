package tool

import (
	"context"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Progress of long calls. A request that carries _meta.progressToken gets
// notifications/progress (bytes done of total) from handlers that call
// Progress or read through ProgressReader; for any other request, and in
// --cli, both cost nothing. Reports are thinned to about one per 5%, and
// the last (done == total) is always sent.

// ProgressThreshold is the size below which ProgressReader reports
// nothing: a small transfer is over before a report would help.
const ProgressThreshold = 1 << 20

type progressKey struct{}

type progress struct {
	send func(done, total int64)
	mu   sync.Mutex
	last int64 // done at the last report; -1 before the first
}

// withProgress returns ctx carrying a reporter for req's progress token,
// if it has one.
func withProgress(ctx context.Context, req mcp.CallToolRequest) context.Context {
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return ctx
	}
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return ctx
	}
	token := req.Params.Meta.ProgressToken
	p := &progress{last: -1, send: func(done, total int64) {
		if srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress),
			map[string]any{"progressToken": token, "progress": done, "total": total}) == nil {
			AwaitDelivery(ctx)
		}
	}}
	return context.WithValue(ctx, progressKey{}, p)
}

// Progress reports that done of total bytes of the call's work are done.
func Progress(ctx context.Context, done, total int64) {
	p, ok := ctx.Value(progressKey{}).(*progress)
	if !ok || total <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if done < total && p.last >= 0 && done-p.last < total/20 {
		return
	}
	if done == p.last {
		return
	}
	p.last = done
	p.send(done, total)
}

// ProgressReader returns r, which yields total bytes, reporting Progress
// as it is read (by an HTTP client sending it), when total is at least
// ProgressThreshold.
func ProgressReader(ctx context.Context, r io.Reader, total int64) io.Reader {
	if total < ProgressThreshold {
		return r
	}
	if _, ok := ctx.Value(progressKey{}).(*progress); !ok {
		return r
	}
	return &progressReader{ctx: ctx, r: r, total: total}
}

type progressReader struct {
	ctx   context.Context
	r     io.Reader
	done  int64
	total int64
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.done += int64(n)
	Progress(p.ctx, p.done, p.total)
	return n, err
}
