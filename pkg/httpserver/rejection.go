package httpserver

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
)

// A token the forge stops accepting (it expired, or was revoked) is
// answered with 401 and WWW-Authenticate on the very request that finds
// out, even when the token's check was still cached and the request got
// as far as a tool call: a client refreshes its token (or signs in again)
// only on a 401, so a tool error saying "the forge rejected the token"
// would be a failed call the model sees and cannot fix.
//
// The identity's transport reports to the request (forgeVerdict) whether
// the forge accepted or rejected the token on any forge request the
// request made. The response is held back (holdWriter) until the forge
// has accepted the token once, or the request is handled: then a
// rejection is checked once more with the forge (a 401 from a route that
// wants another kind of credential does not mean the token is bad), and
// if the forge refuses the token, the held response is dropped for a 401.
// Only when the forge accepted the token on no request of this one: a
// call that changed something before its token ran out must not be
// answered 401, since the client would send it again after refreshing.
// Held back means notifications before the first forge answer (progress
// of an upload, whose answer comes at its end) reach the client late.

// forgeVerdict is what the forge said about one request's token.
type forgeVerdict struct {
	accepted atomic.Bool // a forge answer other than 401 (or 5xx) to a request with the token
	rejected atomic.Bool // a forge 401 to a request with the token
}

type verdictKey struct{}

func withVerdict(ctx context.Context) (context.Context, *forgeVerdict) {
	v := &forgeVerdict{}
	return context.WithValue(ctx, verdictKey{}, v), v
}

func verdictFrom(ctx context.Context) *forgeVerdict {
	v, _ := ctx.Value(verdictKey{}).(*forgeVerdict)
	return v
}

// record notes the forge's answer status to a request that carried the
// token, on the verdict of the HTTP request it was made for, if any.
func (v *forgeVerdict) record(status int) {
	if v == nil {
		return
	}
	switch {
	case status == http.StatusUnauthorized:
		v.rejected.Store(true)
	case status < 500:
		v.accepted.Store(true)
	}
}

// maxHeld bounds what is held back before the forge has answered: past
// it the response goes out, so notifications cannot pile up in memory.
const maxHeld = 1 << 20

// holdWriter holds a response back while the request's token may still
// turn out rejected (see above).
type holdWriter struct {
	w       http.ResponseWriter
	verdict *forgeVerdict

	mu     sync.Mutex
	header http.Header
	status int
	buf    bytes.Buffer
	state  int
}

const (
	holding = iota
	passing
	dropped
)

func newHoldWriter(w http.ResponseWriter, v *forgeVerdict) *holdWriter {
	return &holdWriter{w: w, verdict: v, header: http.Header{}}
}

func (h *holdWriter) Header() http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state == passing {
		return h.w.Header()
	}
	return h.header
}

func (h *holdWriter) WriteHeader(code int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch h.state {
	case passing:
		h.w.WriteHeader(code)
	case holding:
		if h.status == 0 {
			h.status = code
		}
	}
}

func (h *holdWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch h.state {
	case passing:
		return h.w.Write(p)
	case dropped:
		return len(p), nil
	}
	if h.status == 0 {
		h.status = http.StatusOK
	}
	h.buf.Write(p)
	if h.trusted() || h.buf.Len() > maxHeld {
		if err := h.commit(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (h *holdWriter) Flush() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state == holding && h.trusted() {
		_ = h.commit()
	}
	if h.state == passing {
		if f, ok := h.w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// Unwrap lets http.ResponseController reach the connection (write
// deadlines); flushing goes through Flush above.
func (h *holdWriter) Unwrap() http.ResponseWriter { return h.w }

// trusted reports whether the forge accepted the token and never refused
// it during this request; the caller holds h.mu.
func (h *holdWriter) trusted() bool {
	return h.verdict.accepted.Load() && !h.verdict.rejected.Load()
}

// commit sends what is held and passes everything after; the caller holds
// h.mu.
func (h *holdWriter) commit() error {
	h.state = passing
	dst := h.w.Header()
	for k, v := range h.header {
		dst[k] = v
	}
	if h.status != 0 {
		h.w.WriteHeader(h.status)
	}
	if h.buf.Len() == 0 {
		return nil
	}
	_, err := h.w.Write(h.buf.Bytes())
	h.buf.Reset()
	return err
}

// finish ends the response once the request is handled. It reports true,
// having dropped what was held, when the forge refused the token during
// the request, never accepted it, and rejected tells that the forge still
// refuses it: the caller then answers 401 itself.
func (h *holdWriter) finish(rejected func() bool) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state != holding {
		return false
	}
	if h.verdict.rejected.Load() && !h.verdict.accepted.Load() && rejected() {
		h.state = dropped
		h.buf.Reset()
		return true
	}
	_ = h.commit()
	return false
}

// tokenRejected checks r's token with the forge again (its cached check
// was dropped when the forge answered 401) and reports whether the forge
// refuses it now. A check that cannot be made (the forge is down, the
// deadline passed, too many rejected tokens from addr) is not a refusal.
func (s *Server) tokenRejected(r *http.Request, addr string) bool {
	token, _, err := s.requestToken(r)
	if err != nil || token == "" {
		return false
	}
	if _, err := s.checkToken(r.Context(), token, addr); errors.Is(err, ErrInvalidToken) {
		s.log.InfoContext(r.Context(), "the forge rejected the token during the request: answering 401 so the client refreshes it or signs in again")
		return true
	}
	return false
}
