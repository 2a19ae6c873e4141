package httpserver

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
)

// Body read defaults: a body must start arriving within BodyGrace and then
// keep MinBodyRate on average. A client trickling a byte now and then
// (holding a request slot and its share of the budget for minutes) is cut
// off after the grace, while a 16 MiB upload at 1 Mbit/s still fits.
const (
	DefaultBodyGrace   = 5 * time.Second
	DefaultMinBodyRate = 128 << 10 // bytes a second
	// bodyChunk bounds one read, so the deadline follows the bytes read.
	bodyChunk = 64 << 10
)

// errSlowBody is a body that arrived slower than the minimum rate.
var errSlowBody = errors.New("the body arrived too slowly")

// rateReader reads a request body no slower than rate bytes a second
// after grace: before each read it sets the connection's read deadline to
// when the bytes read so far would have been due at that rate, so a body
// that falls behind it is cut off at once.
type rateReader struct {
	r     io.Reader
	rc    *http.ResponseController
	start time.Time
	grace time.Duration
	rate  int64
	n     int64
}

func newRateReader(w http.ResponseWriter, r io.Reader, grace time.Duration, rate int64) *rateReader {
	return &rateReader{r: r, rc: http.NewResponseController(w), start: time.Now(), grace: grace, rate: rate}
}

func (b *rateReader) Read(p []byte) (int, error) {
	if len(p) > bodyChunk {
		p = p[:bodyChunk]
	}
	due := b.start.Add(b.grace + time.Duration(float64(b.n)/float64(b.rate)*float64(time.Second)))
	_ = b.rc.SetReadDeadline(due) // not supported: the server's ReadTimeout still bounds it
	n, err := b.r.Read(p)
	b.n += int64(n)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = errSlowBody
	}
	return n, err
}

// done lifts the deadline once the body is read: net/http keeps reading
// the connection in the background to notice a client that goes away,
// and a deadline passing there would cancel the request being handled.
func (b *rateReader) done() { _ = b.rc.SetReadDeadline(time.Time{}) }

// bodyReservation is what a body of length bytes (-1: unknown) holds of
// the in-flight budget before it is read: its bytes and, since its JSON
// values are not counted yet, the most they can cost (rpcguard.Cost): a
// value takes two bytes with its separator, so there are at most
// (length+1)/2, and a message Check passes holds at most DefaultMaxValues.
// Once checked it keeps only its real cost. A body of unknown length
// starts with one chunk and grows.
func bodyReservation(length int64) int64 {
	if length < 0 {
		length = bodyChunk
	}
	return length + rpcguard.ValueCost*min((length+1)/2, rpcguard.DefaultMaxValues)
}

// share is one request's hold on the in-flight budget, counted against its
// user's share (userLimits).
type share struct {
	s      *Server
	caller string
	hold   *rpcguard.Hold
}

// reserve takes n of the budget for r's body: from caller's share, then
// from the budget, waiting for each (up to InflightWait in all: then
// rpcguard.ErrBusy) no longer than the client stays.
func (s *Server) reserve(r *http.Request, caller string, n int64) (*share, error) {
	n = min(n, s.budget.Size())
	sh := &share{s: s, caller: caller}
	if err := sh.take(r, n); err != nil {
		return nil, err
	}
	return sh, nil
}

// grow adds to the share so that it covers need, as reserve does.
func (sh *share) grow(r *http.Request, need int64) error {
	return sh.take(r, min(need, sh.s.budget.Size())-sh.size())
}

func (sh *share) take(r *http.Request, n int64) error {
	if n <= 0 {
		return nil
	}
	start := time.Now()
	timer := time.NewTimer(sh.s.opts.InflightWait)
	defer timer.Stop()
	if err := sh.s.users.take(r.Context(), sh.caller, n, timer.C); err != nil {
		return err
	}
	wait := sh.s.opts.InflightWait - time.Since(start)
	var err error
	if sh.hold == nil {
		sh.hold, err = sh.s.budget.Hold(r.Context(), n, max(wait, 0))
	} else {
		err = sh.hold.Grow(r.Context(), n, max(wait, 0))
	}
	if err != nil {
		sh.s.users.give(sh.caller, n)
	}
	return err
}

func (sh *share) size() int64 {
	if sh.hold == nil {
		return 0
	}
	return sh.hold.Size()
}

func (sh *share) shrinkTo(n int64) {
	if back := sh.size() - n; back > 0 {
		sh.hold.ShrinkTo(n)
		sh.s.users.give(sh.caller, back)
	}
}

func (sh *share) release() { sh.shrinkTo(0) }

// readMessage reads a POST body of at most MaxBodyBytes within the
// minimum rate: into one buffer of exactly Content-Length bytes when
// given, else growing, each step reserved first.
func (s *Server) readMessage(w http.ResponseWriter, r *http.Request, sh *share) ([]byte, error) {
	rr := newRateReader(w, r.Body, s.opts.BodyGrace, s.opts.MinBodyRate)
	defer rr.done()
	rd := http.MaxBytesReader(w, io.NopCloser(rr), s.opts.MaxBodyBytes)
	if r.ContentLength >= 0 {
		body := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(rd, body); err != nil {
			return nil, err
		}
		return body, nil
	}
	buf := make([]byte, 0, bodyChunk)
	for {
		if len(buf) == cap(buf) {
			if err := sh.grow(r, bodyReservation(int64(2*cap(buf)))); err != nil {
				return nil, err
			}
			buf = slices.Grow(buf, cap(buf))
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case errors.Is(err, io.EOF):
			return buf, nil
		case err != nil:
			return nil, err
		}
	}
}

// refuseBody answers a request whose body was not read or handled.
func (s *Server) refuseBody(w http.ResponseWriter, r *http.Request, err error) {
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		s.tooLarge(w)
	case errors.Is(err, errSlowBody):
		// Before the context check: net/http cancels the request's
		// context on a read error, the deadline's included.
		s.log.WarnContext(r.Context(), "cut off a body arriving too slowly", "min_rate_bytes", s.opts.MinBodyRate)
		http.Error(w, fmt.Sprintf("408 Request Timeout: the body arrived slower than %s a second (after the first %s); send it faster, or a smaller request",
			bytesize.Text(s.opts.MinBodyRate), s.opts.BodyGrace), http.StatusRequestTimeout)
	case r.Context().Err() != nil:
		// The client went away: nobody to answer.
	case errors.Is(err, rpcguard.ErrBusy):
		s.log.WarnContext(r.Context(), "refused a request past the in-flight byte budget", "budget_bytes", s.budget.Size())
		w.Header().Set("Retry-After", "1")
		http.Error(w, fmt.Sprintf("503 Service Unavailable: server busy: the requests being handled hold the %s budget (--max-inflight-bytes; one user at most %s of it) and none finished within %s; retry in a moment",
			bytesize.Text(s.budget.Size()), bytesize.Text(s.users.maxBytes), s.opts.InflightWait), http.StatusServiceUnavailable)
	default:
		http.Error(w, "400 Bad Request: reading the body failed", http.StatusBadRequest)
	}
}
