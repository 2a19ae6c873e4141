package httpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/rpcguard"
)

// userLimits bound what one user (Identity.Caller) holds of the server at
// once, before anything of their request's body is read: requests being
// served (past it a request is refused at once, 429, never queued), and
// bytes of the in-flight budget their bodies hold (past it a request waits
// for the user's own earlier ones, not in the server's line). So one
// user's many connections, trickling bodies or large messages take at most
// their share and leave the rest of the server to everyone else. Tool
// calls have their own per-user bound in the Runner (tool.Limits); this one
// is about the transport.
type userLimits struct {
	maxRequests int
	maxBytes    int64

	mu    sync.Mutex
	users map[string]*userLoad // only users with a request being served
}

type userLoad struct {
	requests int
	bytes    int64
	freed    chan struct{} // closed and replaced when bytes are given back
}

func newUserLimits(maxRequests int, maxBytes int64) *userLimits {
	return &userLimits{maxRequests: maxRequests, maxBytes: maxBytes, users: map[string]*userLoad{}}
}

// enter counts one request of caller, or returns false when caller is at
// the bound.
func (u *userLimits) enter(caller string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	l := u.users[caller]
	if l == nil {
		l = &userLoad{freed: make(chan struct{})}
		u.users[caller] = l
	}
	if l.requests >= u.maxRequests {
		return false
	}
	l.requests++
	return true
}

// leave ends a request entered; its bytes were given back before.
func (u *userLimits) leave(caller string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if l := u.users[caller]; l != nil {
		if l.requests--; l.requests <= 0 && l.bytes <= 0 {
			delete(u.users, caller)
		}
	}
}

// take adds n bytes to the share of caller (who entered), waiting while
// that would pass it, until ctx ends or timeout passes (rpcguard.ErrBusy).
func (u *userLimits) take(ctx context.Context, caller string, n int64, timeout <-chan time.Time) error {
	for {
		u.mu.Lock()
		l := u.users[caller]
		if l == nil {
			u.mu.Unlock()
			return errors.New("take before enter") // a bug; refused rather than uncounted
		}
		if l.bytes+n <= u.maxBytes {
			l.bytes += n
			u.mu.Unlock()
			return nil
		}
		freed := l.freed
		u.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout:
			return rpcguard.ErrBusy
		}
	}
}

// give returns n bytes of caller's share.
func (u *userLimits) give(caller string, n int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if l := u.users[caller]; l != nil {
		l.bytes -= n
		close(l.freed)
		l.freed = make(chan struct{})
	}
}

// tooManyRequests answers a request refused by a per-user bound.
func tooManyRequests(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", "1")
	http.Error(w, "429 Too Many Requests: "+msg, http.StatusTooManyRequests)
}

func (u *userLimits) requestsRefusal() string {
	return fmt.Sprintf("you already have %d requests in flight on this server, the limit per user (--http-max-in-flight-per-user); retry when one has finished", u.maxRequests)
}
