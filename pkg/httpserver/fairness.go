package httpserver

import (
	"fmt"
	"net/http"
	"sync"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/bytesize"
)

// userLimits bound what one user (Identity.Caller) holds of the server at
// once, before anything of their request's body is read: requests being
// served, and bytes of the in-flight budget their bodies hold. Past either
// a request is refused at once (429), never queued, so one user's many
// connections, trickling bodies or large messages leave the rest of the
// server to everyone else. Tool calls have their own per-user bound in the
// Runner (tool.Limits), which says more about why; this one is about the
// transport.
type userLimits struct {
	maxRequests int
	maxBytes    int64

	mu    sync.Mutex
	users map[string]*userLoad // only users with a request being served
}

type userLoad struct {
	requests int
	bytes    int64
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
		l = &userLoad{}
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

// take adds n bytes to caller's share, or returns false (taking nothing)
// when that would pass it.
func (u *userLimits) take(caller string, n int64) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	l := u.users[caller]
	if l == nil || l.bytes+n > u.maxBytes {
		return false
	}
	l.bytes += n
	return true
}

// give returns n bytes of caller's share.
func (u *userLimits) give(caller string, n int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if l := u.users[caller]; l != nil {
		l.bytes -= n
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

func (u *userLimits) bytesRefusal(budget int64) string {
	return fmt.Sprintf("the bodies of your requests in flight would hold more than %s of the server's %s in-flight budget, the share of one user; retry when one has finished",
		bytesize.Text(u.maxBytes), bytesize.Text(budget))
}
