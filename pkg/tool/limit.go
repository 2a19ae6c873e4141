package tool

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Default concurrency bounds, sized for a team sharing one server: a user
// can keep a few calls going at once (an agent rarely runs more in
// parallel), and the server as a whole tens of them, so one user's burst
// is refused before it can take every slot.
const (
	DefaultMaxConcurrent        = 32
	DefaultMaxConcurrentPerUser = 4
)

// Limits bound the tool calls running at once. A call past a bound is
// refused at once with a busy isError naming the bound, never queued. A
// call's slot is given back when its handler returns, not at its
// deadline: a handler's work is to stop by then (the Runner logs one that
// returns over a second late), and until it has, the slot is taken, so
// retrying a call that timed out cannot pile up work the limits do not
// see.
type Limits struct {
	// PerServer bounds calls across all identities; 0 means none.
	PerServer int
	// PerIdentity bounds the calls of one identity (see WithCaller);
	// 0 means none. Calls whose context names no caller share one bucket,
	// which is right for stdio and --cli, where there is one identity.
	PerIdentity int
	// Observer, when set, is told about every call (metrics).
	Observer Observer
}

// Observer is told about each call the Runner runs. Tool names come from
// the server's own definitions, so they are safe as metric labels; nothing
// about the caller is passed.
type Observer interface {
	// CallStarted and CallDone bracket a call admitted past the limits.
	CallStarted(tool string)
	// CallDone reports how the call ended: OutcomeOK or OutcomeError.
	CallDone(tool, outcome string, took time.Duration)
	// Busy reports a call refused by a limit: LimitServer or LimitIdentity.
	Busy(tool, limit string)
}

// Outcomes and limits reported to an Observer.
const (
	OutcomeOK     = "ok"
	OutcomeError  = "error"
	OutcomeBusy   = "busy"
	LimitServer   = "server"
	LimitIdentity = "identity"
)

type callerKey struct{}

// WithCaller returns ctx naming the identity its calls count against for
// Limits.PerIdentity. key must not be a token: the HTTP server passes the
// login, or a hash of the token when the forge did not say whose it is.
// The key is only compared, never logged or shown.
func WithCaller(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, callerKey{}, key)
}

// SetMaxConcurrent bounds calls running at once across the server; a call
// past the bound is refused at once with a "busy" error rather than
// queued. n <= 0 removes the bound. Call it before the runner serves.
func (r *Runner) SetMaxConcurrent(n int) {
	r.SetLimits(Limits{PerServer: n})
}

// SetLimits sets the concurrency bounds and the observer. Call it before
// the runner serves.
func (r *Runner) SetLimits(l Limits) {
	if l.PerServer <= 0 && l.PerIdentity <= 0 && l.Observer == nil {
		r.gate = nil
		return
	}
	r.gate = &gate{limits: l, running: map[string]int{}}
}

// Admit takes a slot of the concurrency limits for work besides a tool
// call that costs the forge a request (a completion's lookup), named name
// for the refusal and the Observer: it returns the function that gives it
// back, or the refusal the caller answers with. Without limits it admits
// everything.
func (r *Runner) Admit(ctx context.Context, name string) (done func(), refusal string) {
	g := r.gate
	if g == nil {
		return func() {}, ""
	}
	key, _ := ctx.Value(callerKey{}).(string)
	if msg, limit := g.enter(key, name); msg != "" {
		if o := g.limits.Observer; o != nil {
			o.Busy(name, limit)
		}
		return nil, msg
	}
	return func() { g.leave(key) }, ""
}

// gate admits calls past the Limits and reports them to the Observer.
type gate struct {
	limits  Limits
	mu      sync.Mutex
	total   int
	running map[string]int // calls running per caller key
}

// run runs fn when the limits admit it, or returns a busy error naming
// the limit that refused it. A nil gate runs fn.
func (g *gate) run(ctx context.Context, name string, fn func() *mcp.CallToolResult) *mcp.CallToolResult {
	if g == nil {
		return fn()
	}
	key, _ := ctx.Value(callerKey{}).(string)
	if msg, limit := g.enter(key, name); msg != "" {
		if o := g.limits.Observer; o != nil {
			o.Busy(name, limit)
			o.CallDone(name, OutcomeBusy, 0)
		}
		return Error(msg)
	}
	defer g.leave(key)
	o := g.limits.Observer
	if o == nil {
		return fn()
	}
	start := time.Now()
	o.CallStarted(name)
	outcome := OutcomeError // a panic past the Runner's recovery
	defer func() { o.CallDone(name, outcome, time.Since(start)) }()
	res := fn()
	if res != nil && !res.IsError {
		outcome = OutcomeOK
	}
	return res
}

// enter takes a slot for key, or returns why it cannot and which limit.
func (g *gate) enter(key, name string) (msg, limit string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	l := g.limits
	if l.PerIdentity > 0 && g.running[key] >= l.PerIdentity {
		return fmt.Sprintf("busy: you already have %d tool calls running, the limit per user; retry %s when one of them has finished", l.PerIdentity, name), LimitIdentity
	}
	if l.PerServer > 0 && g.total >= l.PerServer {
		return fmt.Sprintf("server busy: %d tool calls are already running; retry %s in a moment", l.PerServer, name), LimitServer
	}
	g.total++
	g.running[key]++
	return "", ""
}

func (g *gate) leave(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total--
	if g.running[key]--; g.running[key] <= 0 {
		delete(g.running, key) // the map holds only callers with calls running
	}
}
