package rpcguard

import (
	"container/list"
	"context"
	"errors"
	"sync"
	"time"
)

// Budget defaults.
const (
	// DefaultBudgetBytes bounds the cost of the messages being decoded and
	// handled at once: two uploads of the largest default size (10 MiB,
	// 13.4 MiB in base64) fit, a third waits. Decoding and handling an
	// upload holds about three times its message in memory (the message,
	// the decoded string, the decoded file).
	DefaultBudgetBytes = 32 << 20
	// DefaultBudgetWait bounds the wait for the budget; past it the
	// message is refused as busy.
	DefaultBudgetWait = 30 * time.Second
	// ValueCost is what each JSON value of a message costs on top of its
	// bytes: decoding a value into Go maps and slices costs tens of bytes.
	ValueCost = 64
)

// Cost is what m holds of a Budget while it is decoded and handled.
func Cost(m Message) int64 { return int64(m.Bytes) + int64(m.Values)*ValueCost }

// ErrBusy is returned by Reserve when the budget stays in use past the
// wait.
var ErrBusy = errors.New("busy")

// Budget bounds what the messages being decoded and handled at once may
// cost (Cost), across all requests of a server. Waiters are served in
// order, so a large message is not starved by small ones.
type Budget struct {
	mu      sync.Mutex
	size    int64
	used    int64
	waiters list.List // of *waiter
}

type waiter struct {
	n     int64
	ready chan struct{}
}

// NewBudget returns a budget of size bytes (DefaultBudgetBytes when not
// positive).
func NewBudget(size int64) *Budget {
	if size <= 0 {
		size = DefaultBudgetBytes
	}
	return &Budget{size: size}
}

// Size is the budget's size.
func (b *Budget) Size() int64 { return b.size }

// Reserve takes n of the budget (all of it when n is larger), waiting while
// others hold it, for at most wait and no longer than ctx. It returns the
// function that gives it back, or ErrBusy, or ctx's error.
func (b *Budget) Reserve(ctx context.Context, n int64, wait time.Duration) (release func(), err error) {
	n = min(max(n, 0), b.size)
	b.mu.Lock()
	if b.waiters.Len() == 0 && b.used+n <= b.size {
		b.used += n
		b.mu.Unlock()
		return b.releaser(n), nil
	}
	w := &waiter{n: n, ready: make(chan struct{})}
	elem := b.waiters.PushBack(w)
	b.mu.Unlock()

	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-w.ready:
		return b.releaser(n), nil
	case <-timer.C:
		err = ErrBusy
	case <-ctx.Done():
		err = ctx.Err()
	}
	b.mu.Lock()
	select {
	case <-w.ready:
		// Granted meanwhile: give it back.
		b.used -= n
		b.wake()
	default:
		isFront := b.waiters.Front() == elem
		b.waiters.Remove(elem)
		if isFront {
			b.wake() // those behind it may fit now
		}
	}
	b.mu.Unlock()
	return nil, err
}

func (b *Budget) releaser(n int64) func() {
	var once sync.Once
	return func() {
		once.Do(func() { b.give(n) })
	}
}

// wake grants waiters, in order, while they fit. b.mu is held.
func (b *Budget) wake() {
	for e := b.waiters.Front(); e != nil; e = b.waiters.Front() {
		w := e.Value.(*waiter)
		if b.used+w.n > b.size {
			return
		}
		b.used += w.n
		b.waiters.Remove(e)
		close(w.ready)
	}
}

// InUse is what the messages being handled hold now.
func (b *Budget) InUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}
