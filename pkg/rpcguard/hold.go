package rpcguard

import (
	"context"
	"sync"
	"time"
)

// Hold is one request's reservation of a Budget. It can grow (a body of
// unknown length, read in steps), shrink (once the message's real Cost is
// known) and is given back once.
type Hold struct {
	b  *Budget
	mu sync.Mutex
	n  int64
}

// Hold reserves n of the budget (all of it when n is larger), waiting as
// Reserve does.
func (b *Budget) Hold(ctx context.Context, n int64, wait time.Duration) (*Hold, error) {
	n = min(max(n, 0), b.size)
	if _, err := b.Reserve(ctx, n, wait); err != nil {
		return nil, err
	}
	return &Hold{b: b, n: n}, nil // given back by its size, not Reserve's function
}

// Size is what h holds now.
func (h *Hold) Size() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// Grow reserves extra more (at most up to the budget's size in all),
// waiting as Reserve does; on failure h keeps what it held.
func (h *Hold) Grow(ctx context.Context, extra int64, wait time.Duration) error {
	h.mu.Lock()
	extra = min(max(extra, 0), h.b.size-h.n)
	h.mu.Unlock()
	if extra == 0 {
		return nil
	}
	if _, err := h.b.Reserve(ctx, extra, wait); err != nil {
		return err
	}
	h.mu.Lock()
	h.n += extra
	h.mu.Unlock()
	return nil
}

// ShrinkTo gives back what h holds above n.
func (h *Hold) ShrinkTo(n int64) {
	h.mu.Lock()
	back := h.n - max(n, 0)
	if back <= 0 {
		h.mu.Unlock()
		return
	}
	h.n -= back
	h.mu.Unlock()
	h.b.give(back)
}

// Release gives back everything h holds; later calls do nothing.
func (h *Hold) Release() { h.ShrinkTo(0) }

// give returns n to the budget and wakes whoever now fits.
func (b *Budget) give(n int64) {
	b.mu.Lock()
	b.used -= n
	b.wake()
	b.mu.Unlock()
}
