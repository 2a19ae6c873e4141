package httpserver

import (
	"container/list"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
)

// ErrTooManyRejected is what a RateLimitedError matches with errors.Is.
var ErrTooManyRejected = errors.New("too many rejected tokens from this address")

// RateLimitedError refuses a token check without asking the forge: the
// client's address has had too many tokens rejected lately.
type RateLimitedError struct {
	RetryAfter time.Duration
}

func (e *RateLimitedError) Error() string {
	return fmt.Sprintf("%v; retry in %s", ErrTooManyRejected, e.RetryAfter.Round(time.Second))
}

// Is makes errors.Is(err, ErrTooManyRejected) true.
func (e *RateLimitedError) Is(target error) bool { return target == ErrTooManyRejected }

// retryAfterSeconds is the Retry-After value: whole seconds, at least 1.
func (e *RateLimitedError) retryAfterSeconds() int {
	return max(1, int(math.Ceil(e.RetryAfter.Seconds())))
}

// rejectLimiter is a token bucket per client address for token checks the
// forge may answer with a rejection: a check takes one token before it is
// sent and gets it back unless the forge rejected the token. So a client
// whose tokens are valid is never limited, while one trying random tokens
// costs the forge at most burst checks, then one per interval. Checks
// answered from the cache cost nothing.
//
// It is bounded: past max addresses the least recently seen one is
// forgotten (which only gives that address a full bucket again).
type rejectLimiter struct {
	burst    float64
	interval time.Duration // one token back per interval
	max      int
	now      func() time.Time

	mu      sync.Mutex
	lru     *list.List // of *bucket, most recent first
	buckets map[string]*list.Element
}

type bucket struct {
	addr   string
	tokens float64
	at     time.Time // when tokens was computed
}

func newRejectLimiter(burst int, interval time.Duration, max int) *rejectLimiter {
	return &rejectLimiter{burst: float64(burst), interval: interval, max: max, now: time.Now,
		lru: list.New(), buckets: map[string]*list.Element{}}
}

// take takes one token for addr. It returns 0 when it got one, or how long
// until one is available.
func (l *rejectLimiter) take(addr string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(addr)
	if b.tokens < 1 {
		return time.Duration((1 - b.tokens) * float64(l.interval))
	}
	b.tokens--
	return 0
}

// refund gives back the token of a check the forge did not reject.
func (l *rejectLimiter) refund(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(addr)
	b.tokens = min(l.burst, b.tokens+1)
}

// bucket returns addr's bucket, refilled up to now; the caller holds l.mu.
func (l *rejectLimiter) bucket(addr string) *bucket {
	now := l.now()
	if el, ok := l.buckets[addr]; ok {
		l.lru.MoveToFront(el)
		b := el.Value.(*bucket)
		if elapsed := now.Sub(b.at); elapsed > 0 {
			b.tokens = min(l.burst, b.tokens+float64(elapsed)/float64(l.interval))
			b.at = now
		}
		return b
	}
	b := &bucket{addr: addr, tokens: l.burst, at: now}
	l.buckets[addr] = l.lru.PushFront(b)
	for l.lru.Len() > l.max {
		oldest := l.lru.Back()
		l.lru.Remove(oldest)
		delete(l.buckets, oldest.Value.(*bucket).addr)
	}
	return b
}
