package tool

import (
	"context"
	"sync"
	"time"
)

// Delivery counts one HTTP request's notifications: those queued for its
// response stream and those written to it.
//
// Over streamable HTTP, mcp-go hands a request's notifications (log
// records, progress) to a goroutine of its own, which writes them to the
// response; once the handler has returned and the response is written,
// that goroutine drops whatever it holds. A notification it has taken off
// the queue but not yet written when the response goes out is lost:
// issue 21's race, seen under CPU load as a call arriving without its log
// record. Waiting "a while" for the queue to empty only narrows the
// window. So the transport counts the notifications written to the
// response (Written), and a sender waits (AwaitDelivery) until its own has
// been: the handler cannot return, so the response cannot be written,
// before every notification it sent is on the wire.
type Delivery struct {
	mu      sync.Mutex
	queued  int
	written int
	changed chan struct{} // closed and replaced when written grows
}

// NewDelivery returns a tracker for one request.
func NewDelivery() *Delivery { return &Delivery{changed: make(chan struct{})} }

type deliveryKey struct{}

// WithDelivery returns ctx carrying d, for AwaitDelivery.
func WithDelivery(ctx context.Context, d *Delivery) context.Context {
	return context.WithValue(ctx, deliveryKey{}, d)
}

// Written records that one notification was written to the response.
func (d *Delivery) Written() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.written++
	close(d.changed)
	d.changed = make(chan struct{})
}

// deliveryBound bounds the wait for a notification that is never written
// (which does not happen while the request lives; a safeguard against a
// transport change, not a timing).
const deliveryBound = 5 * time.Second

// AwaitDelivery is called after a notification was queued on ctx's
// request: it waits until that notification has been written to the
// response (or the request ends). Without a Delivery in ctx (stdio, whose
// writes are synchronous, and --cli) it returns at once.
func AwaitDelivery(ctx context.Context) {
	d, ok := ctx.Value(deliveryKey{}).(*Delivery)
	if !ok {
		return
	}
	d.mu.Lock()
	d.queued++
	want := d.queued
	d.mu.Unlock()
	timer := time.NewTimer(deliveryBound)
	defer timer.Stop()
	for {
		d.mu.Lock()
		written, changed := d.written, d.changed
		d.mu.Unlock()
		if written >= want {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		case <-timer.C:
			return
		}
	}
}
