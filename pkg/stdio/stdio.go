// Package stdio serves MCP over standard input and output with bounds
// mcp-go's StdioServer lacks: frames are read through a capped buffer and
// an over-long one is refused without being parsed; batches, invalid UTF-8,
// invalid JSON and non-objects get a JSON-RPC error and the connection keeps
// serving; outstanding request ids are bounded and a duplicate active id is
// refused; notifications/cancelled aborts the request's context (and so
// its forge request) and suppresses its reply; shutdown cancels every
// request and waits for them, boundedly.
package stdio

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
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
	c := &conn{mcp: s, out: out, lim: lim, log: logger, base: base, fail: fail, active: map[string]*request{}}

	done := make(chan struct{})
	defer close(done)
	frames := make(chan frame)
	go c.read(in, frames, done)
	go c.forwardNotifications(sess, done)

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
			c.handle(f)
			if f.eof {
				return nil
			}
		}
	}
}

// handle validates one frame and dispatches it.
func (c *conn) handle(f frame) {
	if f.over {
		id := recoverID(f.data)
		c.log.Warn("stdio: refused an over-long message", "limit_bytes", c.lim.MaxFrameBytes, "id", showID(id))
		c.reply(id, codeInvalidRequest, fmt.Sprintf("invalid request: the message is larger than the %d-byte limit (--max-frame-bytes) and was not read", c.lim.MaxFrameBytes))
		return
	}
	if len(trimSpace(f.data)) == 0 {
		return
	}
	env, k, perr := parse(f.data)
	if perr != nil {
		c.log.Debug("stdio: refused a message", "reason", perr.msg, "bytes", len(f.data))
		c.reply(perr.id, perr.code, perr.msg)
		return
	}
	switch k {
	case kindResponse:
		c.log.Debug("stdio: ignored a response to no request", "id", showID(env.ID))
	case kindNotification:
		c.notification(env)
	case kindRequest:
		c.request(env)
	}
}

// request starts a handler for env unless its id is already active or
// too many requests are running.
func (c *conn) request(env envelope) {
	key := idKey(env.ID)
	ctx, cancel := context.WithCancelCause(c.base)
	r := &request{cancel: cancel}
	c.mu.Lock()
	switch {
	case c.active[key] != nil:
		c.mu.Unlock()
		cancel(nil)
		c.log.Warn("stdio: refused a duplicate request id", "id", showID(env.ID), "method", env.Method)
		c.reply(env.ID, codeInvalidRequest, fmt.Sprintf("invalid request: id %s is already in use by a request still running; use a new id", clipID(env.ID)))
		return
	case c.running >= c.lim.MaxOutstanding:
		c.mu.Unlock()
		cancel(nil)
		c.log.Warn("stdio: refused a request past the outstanding limit", "limit", c.lim.MaxOutstanding, "method", env.Method)
		c.reply(env.ID, codeOverloaded, fmt.Sprintf("server busy: %d requests are already being handled; wait for their replies and retry", c.lim.MaxOutstanding))
		return
	}
	c.active[key] = r
	c.running++
	c.wg.Add(1)
	c.mu.Unlock()

	go func() {
		defer c.wg.Done()
		resp := c.dispatch(ctx, env)
		c.mu.Lock()
		if c.active[key] == r {
			delete(c.active, key)
		}
		c.running--
		suppressed := r.cancelled
		c.mu.Unlock()
		cancel(nil)
		if suppressed {
			c.log.Debug("stdio: suppressed the reply to a cancelled request", "id", showID(env.ID), "method", env.Method)
			return
		}
		if resp != nil {
			c.write(resp)
		}
	}()
}

// dispatch runs one message through the MCP server; a panic becomes an
// internal error reply rather than the end of the process.
func (c *conn) dispatch(ctx context.Context, env envelope) (resp any) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("stdio: handler panicked", "method", env.Method, "panic", fmt.Sprint(p))
			if env.ID != nil {
				resp = errorReply(env.ID, mcp.INTERNAL_ERROR, "internal error handling "+env.Method)
			}
		}
	}()
	if m := c.mcp.HandleMessage(ctx, env.canonical()); m != nil {
		return m
	}
	return nil
}

// notification handles notifications/cancelled here, where the request
// contexts are, and hands every other notification to the MCP server.
func (c *conn) notification(env envelope) {
	if env.Method != string(mcp.MethodNotificationCancelled) {
		c.dispatch(c.base, env)
		return
	}
	id, ok := cancelTarget(env.Params)
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
