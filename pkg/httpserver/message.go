package httpserver

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/redact"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// serveMessage reserves the body's share of the in-flight budget (before
// reading a byte of it, so bodies waiting to be handled cost nothing),
// reads it within the minimum rate, checks it before anything decodes it
// (rpcguard: the same checks and refusals as on stdio), keeps what the
// checked message costs and hands it to mcp-go. caller is the request's
// user (Identity.Caller), whose share of the budget is bounded.
func (s *Server) serveMessage(w http.ResponseWriter, r *http.Request, caller string) {
	sh, err := s.reserve(r, caller, bodyReservation(r.ContentLength))
	if err != nil {
		s.refuseBody(w, r, err)
		return
	}
	defer sh.release()
	body, err := s.readMessage(w, r, sh)
	if err != nil {
		s.refuseBody(w, r, err)
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		// mcp-go refuses it (415-like 400) without reading the body.
		s.mcp.Handle(mcpWriter(w, nil), &server.HTTPRequest{Method: r.Method, URL: r.URL, Header: r.Header, Body: body, Context: r.Context()})
		return
	}
	m, rerr := rpcguard.Check(body, s.guard)
	if rerr != nil {
		s.log.DebugContext(r.Context(), "refused a message", "reason", rerr.Message, "bytes", len(body))
		writeRPC(w, http.StatusBadRequest, rerr.Response())
		return
	}
	// What decoding and handling it costs is known now, and is never more
	// than what was reserved for its bytes.
	sh.shrinkTo(rpcguard.Cost(m))
	if ri := infoFrom(r.Context()); ri != nil {
		// Redacted before it is cut: a cut token no longer matches.
		ri.method = forgejo.Sanitize(redact.String(m.Method, redact.Secrets(r.Context())...), 64)
	}
	if m.Method == string(mcp.MethodSetLogLevel) && m.Kind == rpcguard.KindRequest && !modern(r.Header) {
		writeRPC(w, http.StatusOK, rpcguard.ErrorResponse(m.ID, mcp.METHOD_NOT_FOUND, errSetLevel))
		return
	}
	d := tool.NewDelivery()
	// Held back until the forge accepts the token, so a token it refuses
	// during the request is answered 401, not a tool error (rejection.go).
	hold := newHoldWriter(w, verdictFrom(r.Context()))
	out := mcpWriter(hold, d)
	if m.Method == string(mcp.MethodResourcesRead) {
		out = cleaningWriter{out}
	}
	s.mcp.Handle(out, &server.HTTPRequest{Method: r.Method, URL: r.URL, Header: r.Header,
		Body: m.Forward(body), Context: tool.WithDelivery(m.Context(r.Context()), d)})
	addr, _ := r.Context().Value(addrKey{}).(string)
	if hold.finish(func() bool { return s.tokenRejected(r, addr) }) {
		s.unauthorized(w, r, "the forge rejected this token (invalid, expired or revoked)")
	}
}

// errSetLevel refuses logging/setLevel. Under 2025-11-25 it sets the
// level of the client's session, but this endpoint is stateless: every
// request is served by a session of its own, and mcp-go keeps one level
// for all of them, so one client's setLevel changed what every other
// 2025-11-25 client of the server received. Kept per request it would
// apply to nothing. Under 2026-07-28 (where mcp-go refuses the method
// itself) each request names its level in _meta.
const errSetLevel = "logging/setLevel is not supported over this stateless HTTP endpoint: no session carries a level from one request to the next, and one shared level would change what every other client receives. " +
	"Records at level error about your own calls are still sent; under protocol 2026-07-28 each request names the level it wants in _meta (io.modelcontextprotocol/logLevel)"

// modern reports whether the request declares protocol 2026-07-28 or
// later in its header (mcp-go checks that the body agrees).
func modern(h http.Header) bool {
	v := h.Get(mcp.HeaderProtocolVersion)
	return v != "" && v >= mcp.ProtocolVersion20260728
}

// writeRPC writes a JSON-RPC message with status.
func writeRPC(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// mcpWriter adapts w to mcp-go's HTTPResponseWriter, streaming when w can
// flush, as mcp-go's own ServeHTTP does. It tells d about every
// notification written (tool.Delivery); d may be nil.
func mcpWriter(w http.ResponseWriter, d *tool.Delivery) server.HTTPResponseWriter {
	a := responseWriter{ResponseWriter: w, delivery: d}
	a.flusher, _ = w.(http.Flusher)
	return a
}

type responseWriter struct {
	http.ResponseWriter
	flusher  http.Flusher
	delivery *tool.Delivery
}

// sseEvent begins every server-sent event mcp-go writes, each with one
// Write. Before the response (the last event) only notifications are
// written: this server sends no requests to the client.
var sseEvent = []byte("event: message\n")

func (a responseWriter) Write(p []byte) (int, error) {
	n, err := a.ResponseWriter.Write(p)
	if a.delivery != nil && bytes.HasPrefix(p, sseEvent) {
		a.delivery.Written() // written or failed: either way no longer pending
	}
	return n, err
}

func (a responseWriter) Flush() {
	if a.flusher != nil {
		a.flusher.Flush()
	}
}

func (a responseWriter) CanStream() bool { return a.flusher != nil }

// cleaningWriter takes mcp-go's not-found wording off a reply to
// resources/read (resource.CleanEncoded). mcp-go writes each reply, JSON
// or server-sent event, in one Write.
type cleaningWriter struct{ server.HTTPResponseWriter }

func (c cleaningWriter) SetWriteDeadline(t time.Time) error {
	if d, ok := c.HTTPResponseWriter.(interface{ SetWriteDeadline(time.Time) error }); ok {
		return d.SetWriteDeadline(t)
	}
	return http.ErrNotSupported
}

func (c cleaningWriter) Write(p []byte) (int, error) {
	if _, err := c.HTTPResponseWriter.Write(resource.CleanEncoded(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (a responseWriter) SetWriteDeadline(t time.Time) error {
	return http.NewResponseController(a.ResponseWriter).SetWriteDeadline(t)
}
