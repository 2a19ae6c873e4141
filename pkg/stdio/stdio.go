// Package stdio serves MCP over standard input and output with bounds
// mcp-go's StdioServer lacks: frames are read through a capped buffer and
// an over-long one is refused without being parsed; every frame is checked
// by pkg/rpcguard before mcp-go decodes it (batches, invalid UTF-8, invalid
// JSON, non-objects, ids that would not come back unchanged, too deep or
// too many values, arguments over their tool's limit); the cost of the
// requests being decoded and handled at once is bounded; outstanding
// request ids are bounded and a duplicate active id is refused;
// notifications/cancelled aborts the request's context (and so its forge
// request) and suppresses its reply; shutdown cancels every request and
// waits for them, boundedly.
package stdio

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Limits bound one stdio connection. Zero fields take the defaults.
type Limits struct {
	// MaxFrameBytes bounds one inbound message (line). The default fits
	// the largest default upload (10 MiB) in base64 with headroom.
	MaxFrameBytes int
	// MaxOutstanding bounds requests being handled at once, a cancelled
	// one included until its handler returns; more are refused.
	MaxOutstanding int
	// ShutdownGrace bounds the wait for cancelled handlers at shutdown.
	ShutdownGrace time.Duration
	// MaxInflightBytes bounds what the requests being decoded and handled
	// at once cost (rpcguard.Cost: their bytes, and more per JSON value).
	// A request past it waits, reading nothing more, up to InflightWait,
	// then is refused as busy.
	MaxInflightBytes int64
	InflightWait     time.Duration
	// Guard bounds each message before it is decoded; zero fields take
	// rpcguard's defaults. Its ArgLimit (rpcguard.ToolLimits) refuses a
	// tool's over-long arguments before they are decoded.
	Guard rpcguard.Limits
}

// Defaults.
const (
	DefaultMaxFrameBytes  = 16 << 20
	DefaultMaxOutstanding = 64
	DefaultShutdownGrace  = 5 * time.Second
)

func (l Limits) withDefaults() Limits {
	if l.MaxFrameBytes <= 0 {
		l.MaxFrameBytes = DefaultMaxFrameBytes
	}
	if l.MaxOutstanding <= 0 {
		l.MaxOutstanding = DefaultMaxOutstanding
	}
	if l.ShutdownGrace <= 0 {
		l.ShutdownGrace = DefaultShutdownGrace
	}
	if l.MaxInflightBytes <= 0 {
		l.MaxInflightBytes = rpcguard.DefaultBudgetBytes
	}
	if l.InflightWait <= 0 {
		l.InflightWait = rpcguard.DefaultBudgetWait
	}
	return l
}

// ErrShutdown is the cause of the cancellation of requests still running
// when the server stops; a tool reports it as "cancelled (server shutting
// down)".
var ErrShutdown = errors.New("server shutting down")

// errClientCancelled is the cause of a cancellation the client asked for.
var errClientCancelled = errors.New("cancelled by the client")

// conn is one served connection.
type conn struct {
	mcp  *server.MCPServer
	out  io.Writer
	lim  Limits
	log  *slog.Logger
	base context.Context // carries the session; never cancelled by the caller's ctx
	fail context.CancelCauseFunc

	writeMu  sync.Mutex
	writeErr error

	budget *rpcguard.Budget

	mu      sync.Mutex
	active  map[string]*request // by idKey, cancelled ones removed
	running int                 // handlers running, cancelled ones included
	wg      sync.WaitGroup
}

// request is one request being handled.
type request struct {
	cancel    context.CancelCauseFunc
	cancelled bool // by the client: its reply is suppressed
}

// Serve serves s on in and out until in ends (after the requests already
// read have been answered) or ctx ends (every running request is cancelled
// and waited for, up to lim.ShutdownGrace). It returns nil then, or the
// error that made reading or writing impossible. logger gets one line per
// refused message, never a message's content.
func Serve(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer, lim Limits, logger *slog.Logger) error {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	lim = lim.withDefaults()
	sess := newSession()
	if err := s.RegisterSession(ctx, sess); err != nil {
		return fmt.Errorf("register stdio session: %w", err)
	}
	defer s.UnregisterSession(context.WithoutCancel(ctx), sess.id)

	// Requests get their own cancellation (with a cause) rather than
	// inheriting ctx's, so shutdown can say why a call was cancelled.
	base, cancelAll := context.WithCancelCause(s.WithContext(context.WithoutCancel(ctx), sess))
	defer cancelAll(ErrShutdown)
	loopCtx, fail := context.WithCancelCause(ctx)
	defer fail(nil)
	c := &conn{mcp: s, out: out, lim: lim, log: logger, base: base, fail: fail, active: map[string]*request{},
		budget: rpcguard.NewBudget(lim.MaxInflightBytes)}

	done := make(chan struct{})
	forwarded := make(chan struct{})
	// Serve returns only once the forwarder has stopped writing to out
	// (bounded by the grace, should out block): a caller may read or
	// close out as soon as Serve returns.
	defer func() {
		close(done)
		select {
		case <-forwarded:
		case <-time.After(lim.ShutdownGrace):
		}
	}()
	frames := make(chan frame)
	go c.read(in, frames, done)
	go func() {
		defer close(forwarded)
		c.forwardNotifications(sess, done)
	}()

	err := c.loop(loopCtx, frames)
	if err == nil && loopCtx.Err() == nil {
		// The input ended: the client is leaving. Requests already read get
		// a grace period to finish and be answered (unless ctx ends first),
		// then are cancelled like at any shutdown, so a request that waits
		// for ever (a subscription stream) cannot keep the process alive.
		waitOrDone(&c.wg, loopCtx.Done(), lim.ShutdownGrace)
	}
	cancelAll(ErrShutdown)
	if !waitOrTimeout(&c.wg, lim.ShutdownGrace) {
		logger.Warn("stdio: requests still running after shutdown grace", "grace", lim.ShutdownGrace)
	}
	if err == nil {
		err = c.failure()
	}
	return err
}

// read feeds frames to the loop until the input ends or fails, or done.
func (c *conn) read(in io.Reader, frames chan<- frame, done <-chan struct{}) {
	defer close(frames)
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		f := readFrame(br, c.lim.MaxFrameBytes)
		select {
		case frames <- f:
		case <-done:
			return
		}
		if f.rest {
			end, err := discardLine(br)
			if end {
				if err != nil {
					select {
					case frames <- frame{err: err}:
					case <-done:
					}
				}
				return
			}
		}
		if f.eof || f.err != nil {
			return
		}
	}
}

// loop handles frames in order until the input ends or ctx ends.
func (c *conn) loop(ctx context.Context, frames <-chan frame) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case f, ok := <-frames:
			if !ok {
				return nil
			}
			if f.err != nil {
				// A line cut by a read error is not a message.
				return fmt.Errorf("reading stdin: %w", f.err)
			}
			c.handle(ctx, f)
			if f.eof {
				return nil
			}
		}
	}
}

// handle checks one frame and dispatches it.
func (c *conn) handle(ctx context.Context, f frame) {
	if f.over {
		id := rpcguard.RecoverID(f.data)
		c.log.Warn("stdio: refused an over-long message", "limit_bytes", c.lim.MaxFrameBytes, "id", showID(id))
		c.reply(id, rpcguard.CodeInvalidRequest, fmt.Sprintf("invalid request: the message is larger than the %d-byte limit (--max-frame-bytes) and was not read", c.lim.MaxFrameBytes))
		return
	}
	if len(trimSpace(f.data)) == 0 {
		return
	}
	m, rerr := rpcguard.Check(f.data, c.lim.Guard)
	if rerr != nil {
		c.log.Debug("stdio: refused a message", "reason", rerr.Message, "bytes", len(f.data))
		c.write(rerr.Response())
		return
	}
	switch m.Kind {
	case rpcguard.KindResponse:
		c.log.Debug("stdio: ignored a response to no request", "id", showID(m.ID))
	case rpcguard.KindNotification:
		c.notification(m, f.data)
	case rpcguard.KindRequest:
		c.request(ctx, m, f.data)
	}
}

// request starts a handler for m (data is the frame) unless its id is
// already active, too many requests are running, or the budget stays
// spent past the wait; while it waits for the budget nothing more is read.
func (c *conn) request(loopCtx context.Context, m rpcguard.Message, data []byte) {
	key := idKey(m.ID)
	c.mu.Lock()
	switch {
	case c.active[key] != nil:
		c.mu.Unlock()
		c.log.Warn("stdio: refused a duplicate request id", "id", showID(m.ID), "method", m.Method)
		c.reply(m.ID, rpcguard.CodeInvalidRequest, fmt.Sprintf("invalid request: id %s is already in use by a request still running; use a new id", clipID(m.ID)))
		return
	case c.running >= c.lim.MaxOutstanding:
		c.mu.Unlock()
		c.log.Warn("stdio: refused a request past the outstanding limit", "limit", c.lim.MaxOutstanding, "method", m.Method)
		c.reply(m.ID, rpcguard.CodeBusy, fmt.Sprintf("server busy: %d requests are already being handled; wait for their replies and retry", c.lim.MaxOutstanding))
		return
	}
	c.mu.Unlock()
	release, err := c.budget.Reserve(loopCtx, rpcguard.Cost(m), c.lim.InflightWait)
	if err != nil {
		c.log.Warn("stdio: refused a request past the in-flight byte budget", "budget_bytes", c.budget.Size(), "bytes", len(data), "method", m.Method)
		c.reply(m.ID, rpcguard.CodeBusy, fmt.Sprintf("server busy: the requests being handled hold the %d-byte budget (--max-inflight-bytes) and none finished within %s; retry when they have", c.budget.Size(), c.lim.InflightWait))
		return
	}
	ctx, cancel := context.WithCancelCause(m.Context(c.base))
	r := &request{cancel: cancel}
	// The handler keeps copies of what it needs besides the message: m's
	// members are slices of the frame, which can then be collected once
	// mcp-go has decoded it, while the tool runs.
	id, method := append(json.RawMessage(nil), m.ID...), m.Method
	c.mu.Lock()
	c.active[key] = r
	c.running++
	c.wg.Add(1)
	c.mu.Unlock()

	go func(msg []byte) {
		defer c.wg.Done()
		defer release()
		resp := c.dispatch(ctx, method, id, msg)
		c.mu.Lock()
		if c.active[key] == r {
			delete(c.active, key)
		}
		c.running--
		suppressed := r.cancelled
		c.mu.Unlock()
		cancel(nil)
		if suppressed {
			c.log.Debug("stdio: suppressed the reply to a cancelled request", "id", showID(id), "method", method)
			return
		}
		if resp != nil {
			c.write(resp)
		}
	}(m.Forward(data))
}

// dispatch runs one message through the MCP server; a panic becomes an
// internal error reply rather than the end of the process. msg is not
// kept once mcp-go is done with it, so a large one can be collected while
// its tool runs.
func (c *conn) dispatch(ctx context.Context, method string, id json.RawMessage, msg []byte) (resp any) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("stdio: handler panicked", "method", method, "panic", fmt.Sprint(p))
			if id != nil {
				resp = rpcguard.ErrorResponse(id, mcp.INTERNAL_ERROR, "internal error handling "+method)
			}
		}
	}()
	m := c.mcp.HandleMessage(ctx, msg)
	if m == nil {
		return nil
	}
	switch method {
	case string(mcp.MethodResourcesRead):
		m = resource.CleanReply(m)
	case string(mcp.MethodToolsCall):
		m = tool.CleanUnknownToolReply(m)
	}
	if e, ok := m.(mcp.JSONRPCError); ok {
		// mcp-go puts decoder errors into the message, and a decoder
		// quotes what it could not decode: never more than a line back.
		e.Error.Message = clipMessage(e.Error.Message)
		return e
	}
	return m
}

// maxErrorMessage bounds the message of a JSON-RPC error from the MCP
// server. rpcguard refuses what would make a decoder quote much (a number
// literal is its only value Go's decoders quote, and it is capped), so
// this is the last line, not the first.
const maxErrorMessage = 1 << 10

func clipMessage(s string) string {
	if len(s) <= maxErrorMessage {
		return s
	}
	cut := maxErrorMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// notification handles notifications/cancelled here, where the request
// contexts are, and hands every other notification to the MCP server.
func (c *conn) notification(m rpcguard.Message, data []byte) {
	if m.Method != string(mcp.MethodNotificationCancelled) {
		c.dispatch(c.base, m.Method, nil, data)
		return
	}
	id, ok := cancelTarget(m.Params)
	if !ok {
		c.log.Debug("stdio: ignored a cancellation without a valid requestId")
		return
	}
	key := idKey(id)
	c.mu.Lock()
	r := c.active[key]
	if r != nil {
		r.cancelled = true
		delete(c.active, key) // the id may be reused at once
	}
	c.mu.Unlock()
	if r == nil {
		c.log.Debug("stdio: ignored a cancellation of no running request", "id", showID(id))
		return
	}
	c.log.Debug("stdio: cancelled a request", "id", showID(id))
	r.cancel(errClientCancelled)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}
