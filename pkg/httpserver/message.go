package httpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
)

// serveMessage reads a POST body, checks it before anything decodes it
// (rpcguard: the same checks and refusals as on stdio) and waits for its
// share of the in-flight budget, then hands it to mcp-go.
func (s *Server) serveMessage(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readMessage(w, r)
	if !ok {
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		// mcp-go refuses it (415-like 400) without reading the body.
		s.mcp.Handle(mcpWriter(w), &server.HTTPRequest{Method: r.Method, URL: r.URL, Header: r.Header, Body: body, Context: r.Context()})
		return
	}
	m, rerr := rpcguard.Check(body, s.guard)
	if rerr != nil {
		s.log.DebugContext(r.Context(), "refused a message", "reason", rerr.Message, "bytes", len(body))
		writeRPC(w, http.StatusBadRequest, rerr.Response())
		return
	}
	if ri := infoFrom(r.Context()); ri != nil {
		ri.method = forgejo.Sanitize(m.Method, 64)
	}
	release, err := s.budget.Reserve(r.Context(), rpcguard.Cost(m), s.opts.InflightWait)
	if err != nil {
		if r.Context().Err() == nil {
			s.log.WarnContext(r.Context(), "refused a request past the in-flight byte budget", "budget_bytes", s.budget.Size(), "bytes", len(body))
			w.Header().Set("Retry-After", "1")
			writeRPC(w, http.StatusServiceUnavailable, rpcguard.ErrorResponse(m.ID, rpcguard.CodeBusy,
				fmt.Sprintf("server busy: the requests being handled hold the %d-byte budget (--max-inflight-bytes) and none finished within %s; retry in a moment", s.budget.Size(), s.opts.InflightWait)))
		}
		return
	}
	defer release()
	out := mcpWriter(w)
	if m.Method == string(mcp.MethodResourcesRead) {
		out = cleaningWriter{out}
	}
	s.mcp.Handle(out, &server.HTTPRequest{Method: r.Method, URL: r.URL, Header: r.Header,
		Body: m.Forward(body), Context: m.Context(r.Context())})
}

// readMessage reads a POST body of at most MaxBodyBytes into one buffer
// (of exactly Content-Length bytes when given), answering 413 past the
// limit.
func (s *Server) readMessage(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	rd := http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
	var body []byte
	var err error
	if r.ContentLength >= 0 {
		body = make([]byte, r.ContentLength)
		_, err = io.ReadFull(rd, body)
	} else {
		body, err = readAll(rd)
	}
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		s.tooLarge(w)
		return nil, false
	case err != nil:
		http.Error(w, "400 Bad Request: reading the body failed", http.StatusBadRequest)
		return nil, false
	}
	return body, true
}

// readAll reads r to its end, doubling its buffer.
func readAll(r io.Reader) ([]byte, error) {
	buf := make([]byte, 0, 64<<10)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case errors.Is(err, io.EOF):
			return buf, nil
		case err != nil:
			return nil, err
		}
	}
}

// writeRPC writes a JSON-RPC message with status.
func writeRPC(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// mcpWriter adapts w to mcp-go's HTTPResponseWriter, streaming when w can
// flush, as mcp-go's own ServeHTTP does.
func mcpWriter(w http.ResponseWriter) server.HTTPResponseWriter {
	a := responseWriter{ResponseWriter: w}
	a.flusher, _ = w.(http.Flusher)
	return a
}

type responseWriter struct {
	http.ResponseWriter
	flusher http.Flusher
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
