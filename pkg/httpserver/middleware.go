package httpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/redact"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// requestInfo is what the logs say about one request. It travels in the
// context so that every line logged while serving the request, including
// the tool pipeline's, carries the request id and the user's login.
type requestInfo struct {
	id     string
	user   atomic.Pointer[string]
	method string // JSON-RPC method, when the body was read
}

type infoKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	ri, _ := ctx.Value(infoKey{}).(*requestInfo)
	return ri
}

// HeaderRequestID carries a request id in and out: a sane incoming value
// (from a proxy that already assigned one) is kept, so both logs agree.
const HeaderRequestID = "X-Request-Id"

func requestID(in string) string {
	if in != "" && len(in) <= 64 && strings.Trim(in, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:") == "" {
		return in
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// contextHandler adds the request id and user of the request in the
// record's context to every log line.
type contextHandler struct{ slog.Handler }

func (h contextHandler) Handle(ctx context.Context, r slog.Record) error {
	if ri := infoFrom(ctx); ri != nil {
		r.AddAttrs(slog.String("request_id", ri.id))
		if u := ri.user.Load(); u != nil {
			r.AddAttrs(slog.String("user", *u))
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h contextHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return contextHandler{h.Handler.WithAttrs(attrs)}
}

func (h contextHandler) WithGroup(name string) slog.Handler {
	return contextHandler{h.Handler.WithGroup(name)}
}

// statusWriter records the status for the access log and masks the
// request's credentials in everything written (mask: see observe). It
// forwards Flush so mcp-go can still stream server-sent events through it.
type statusWriter struct {
	http.ResponseWriter
	status int
	mask   *redact.Replacer
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if _, err := w.ResponseWriter.Write(w.mask.Bytes(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe is the outermost layer: request id, one access log line per
// request (never a header value, so never a token), panic recovery, and
// the one place the request's credentials are masked in its answer: every
// body byte any layer writes (a 400 echoing an X-MCP-* header, a JSON-RPC
// error of mcp-go's echoing a method, a prompt name or argument, a log
// level) passes the request's Replacer. Tool results are redacted by the
// Runner already; this catches what no tool built.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ri := &requestInfo{id: requestID(r.Header.Get(HeaderRequestID))}
		w.Header().Set(HeaderRequestID, ri.id)
		ctx := context.WithValue(r.Context(), infoKey{}, ri)
		// Every line logged for this request, the access line included,
		// is redacted of the credentials it carries (redact.Handler).
		secrets := authSecrets(r.Header)
		if s.opts.SharedToken != "" {
			secrets = append(secrets, s.opts.SharedToken)
		}
		if s.opts.OAuthProxy != nil && s.opts.OAuthProxy.ClientSecret != "" {
			secrets = append(secrets, s.opts.OAuthProxy.ClientSecret)
		}
		for _, secret := range secrets {
			ctx = redact.WithSecret(ctx, secret)
		}
		sw := &statusWriter{ResponseWriter: w, mask: redact.NewReplacer(secrets...)}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.ErrorContext(ctx, "http handler panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if sw.status == 0 {
					http.Error(sw, "500 internal error; this is a bug in forgejo-mcp, please report it", http.StatusInternalServerError)
				}
			}
			status := sw.status
			switch {
			case status != 0:
			case r.Context().Err() != nil:
				status = 499 // the client went away before an answer (nginx's code for it)
			default:
				status = http.StatusOK // net/http's implicit answer
			}
			attrs := []slog.Attr{
				slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", status), slog.Duration("took", time.Since(start)),
			}
			if ri.method != "" {
				attrs = append(attrs, slog.String("rpc", ri.method))
			}
			s.log.LogAttrs(ctx, slog.LevelInfo, "http request", attrs...)
		}()
		next.ServeHTTP(sw, r.WithContext(ctx))
	})
}

// authSecrets returns what the request's Authorization headers could
// carry as a secret: each whole value and the part after its scheme,
// whether or not it is well-formed.
func authSecrets(h http.Header) []string {
	var out []string
	for _, v := range h.Values("Authorization") {
		v = strings.TrimSpace(v)
		out = append(out, v)
		if _, cred, ok := strings.Cut(v, " "); ok {
			out = append(out, strings.TrimSpace(cred))
		}
	}
	return out
}

type deadlineKey struct{}

// withDeadline gives the request one deadline, --call-timeout from now,
// that the token check and the tool call share (authenticate,
// boundHandlers), so a request in flight when the server is told to stop
// is answered within the shutdown window (--call-timeout + 5 s) even when
// the forge is slow to check the token. It is carried as a value, not as
// the request context's deadline: mcp-go writes no reply at all once the
// request context is done.
func (s *Server) withDeadline(next http.Handler) http.Handler {
	timeout := s.opts.Runner.Timeout
	if timeout <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), deadlineKey{}, time.Now().Add(timeout))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func deadlineFrom(ctx context.Context) (time.Time, bool) {
	dl, ok := ctx.Value(deadlineKey{}).(time.Time)
	return dl, ok
}

// boundHandlers returns defs whose handlers run under the request's
// deadline (withDeadline), besides the Runner's own call deadline.
func boundHandlers(defs []tool.Def) []tool.Def {
	out := make([]tool.Def, len(defs))
	for i, d := range defs {
		h := d.Handler
		if h != nil {
			d.Handler = func(ctx context.Context, c *forgejo.Client, args tool.Args) (*mcp.CallToolResult, error) {
				if dl, ok := deadlineFrom(ctx); ok {
					var cancel context.CancelFunc
					ctx, cancel = context.WithDeadline(ctx, dl)
					defer cancel()
				}
				return h(ctx, c, args)
			}
		}
		out[i] = d
	}
	return out
}

// checkHost is the DNS-rebinding guard. A web page can make a browser send
// requests to this server under the page's own host name (rebound to this
// machine's address); such requests carry that name in Host and the page's
// origin in Origin. Both must name a host this server is known by.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.anyHost {
			next.ServeHTTP(w, r)
			return
		}
		if !s.hostAllowed(r.Host) {
			s.log.WarnContext(r.Context(), "refused a request for an unknown host (DNS-rebinding guard)", "host", forgejo.Sanitize(r.Host, 100))
			http.Error(w, fmt.Sprintf("403 Forbidden: this server does not answer for host %q; add it with --http-allowed-hosts or --public-url", r.Host), http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !s.originAllowed(o) {
			s.log.WarnContext(r.Context(), "refused a request from a foreign origin (DNS-rebinding guard)", "origin", forgejo.Sanitize(o, 100))
			http.Error(w, fmt.Sprintf("403 Forbidden: requests from origin %q are not accepted; add it with --http-allowed-origins", o), http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	return s.hosts[host] || forgejo.IsLoopbackHost(host)
}

func (s *Server) originAllowed(origin string) bool {
	if s.origins[strings.ToLower(origin)] {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false // includes the literal "null" of sandboxed pages
	}
	return s.hostAllowed(u.Host)
}

// limitInFlight bounds the MCP requests served at once. Each may buffer a
// body of up to MaxBodyBytes, so this bounds memory too; past it a client
// gets 503 with Retry-After rather than a slow queue.
func (s *Server) limitInFlight(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case s.inflight <- struct{}{}:
			defer func() { <-s.inflight }()
			next.ServeHTTP(w, r)
		default:
			w.Header().Set("Retry-After", "1")
			http.Error(w, fmt.Sprintf("503 Service Unavailable: %d requests are already being served; retry in a moment", cap(s.inflight)), http.StatusServiceUnavailable)
		}
	})
}

func (s *Server) tooLarge(w http.ResponseWriter) {
	http.Error(w, fmt.Sprintf("413 Request Entity Too Large: the body exceeds %d bytes (--http-max-body-bytes)", s.opts.MaxBodyBytes), http.StatusRequestEntityTooLarge)
}

// redactingHandler returns h as a redact.Handler, so every line the server
// logs is cleaned of the request's credentials, unless h already is one
// (cmd builds the process's logger on one).
func redactingHandler(h slog.Handler, secrets ...string) slog.Handler {
	if _, ok := h.(*redact.Handler); ok {
		return h
	}
	return redact.NewHandler(h, secrets...)
}
