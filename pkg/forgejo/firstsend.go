package forgejo

import (
	"context"
	"sync"
)

// A call can ask to be told when its first request leaves for the forge:
// work that only makes sense once the call reaches the forge (the trust
// pass reading the call's repository while the handler works) starts then,
// so a call refused before it sends anything sends nothing at all.

type firstSendKey struct{}

type firstSend struct {
	once sync.Once
	fn   func()
}

// OnFirstSend returns a copy of ctx whose first request to the forge calls
// fn just before it is sent, once it has passed the route guard. fn runs on
// the sending goroutine and must return quickly (start a goroutine for
// anything more).
func OnFirstSend(ctx context.Context, fn func()) context.Context {
	return context.WithValue(ctx, firstSendKey{}, &firstSend{fn: fn})
}

// WithoutFirstSend returns a copy of ctx whose requests call no OnFirstSend
// function: for the work that function starts.
func WithoutFirstSend(ctx context.Context) context.Context {
	return context.WithValue(ctx, firstSendKey{}, (*firstSend)(nil))
}

// sending runs ctx's OnFirstSend function the first time it is called.
func sending(ctx context.Context) {
	if f, _ := ctx.Value(firstSendKey{}).(*firstSend); f != nil {
		f.once.Do(f.fn)
	}
}
