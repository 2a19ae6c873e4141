package tool

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestAwaitDelivery: a sender waits until its notification is written,
// however late the writer is, and no longer than its request lives.
func TestAwaitDelivery(t *testing.T) {
	t.Run("waits for the write", func(t *testing.T) {
		d := NewDelivery()
		ctx := WithDelivery(t.Context(), d)
		returned := make(chan struct{})
		go func() { AwaitDelivery(ctx); close(returned) }()
		select {
		case <-returned:
			t.Fatal("returned before the notification was written")
		case <-time.After(50 * time.Millisecond):
		}
		d.Written()
		<-returned
	})
	t.Run("a write before the wait counts", func(t *testing.T) {
		d := NewDelivery()
		d.Written() // the forwarder was quicker than the sender
		AwaitDelivery(WithDelivery(t.Context(), d))
	})
	t.Run("two senders wait for both writes", func(t *testing.T) {
		d := NewDelivery()
		ctx := WithDelivery(t.Context(), d)
		first := make(chan struct{})
		go func() { AwaitDelivery(ctx); close(first) }()
		second := make(chan struct{})
		go func() { AwaitDelivery(ctx); close(second) }()
		d.Written()
		select {
		case <-first:
		case <-second:
		}
		select {
		case <-first:
			select {
			case <-second:
				t.Fatal("both returned after one write")
			case <-time.After(50 * time.Millisecond):
			}
		case <-second:
			select {
			case <-first:
				t.Fatal("both returned after one write")
			case <-time.After(50 * time.Millisecond):
			}
		}
		d.Written()
		<-first
		<-second
	})
	t.Run("the request ends", func(t *testing.T) {
		ctx, cancel := context.WithCancel(WithDelivery(t.Context(), NewDelivery()))
		cancel()
		AwaitDelivery(ctx)
	})
	t.Run("no tracker: at once", func(t *testing.T) {
		start := time.Now()
		AwaitDelivery(t.Context())
		assert.Less(t, time.Since(start), time.Second)
	})
}
