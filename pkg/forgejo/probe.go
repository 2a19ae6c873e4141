package forgejo

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The forge-version probe. Every gated request may need the connected
// forge's flavour and version (gate.go), so a forge or proxy that stalls
// /api/v1/version must not hold every call in line behind it: one probe
// answers all the calls waiting for it (a flight), each waiter leaves when
// its own context ends, and a failure is kept for a few seconds, so the
// calls that follow go ahead at once (an unknown forge blocks nothing)
// instead of each waiting for a probe of their own.

const (
	// forgeTTL is how long a detected flavour is trusted before the next
	// call asks again (a forge can be upgraded under a running server).
	forgeTTL = 10 * time.Minute
	// failureTTL is how long a failed probe is the answer before the next
	// call asks again: long enough that a stalled or failing version route
	// costs one probe per few seconds, not one per call.
	failureTTL = 5 * time.Second
	// probeTimeout bounds one probe, whoever waits for it: the route
	// answers a constant, and an unknown forge only means requests are
	// sent without the version check, so a forge that takes longer is
	// not waited for.
	probeTimeout = 10 * time.Second
)

// forgeCache holds one client's detected forge, or its last failure, and
// the probe in flight: a few values, so it is bounded whatever the
// traffic. Copies of a Client share it.
type forgeCache struct {
	mu     sync.Mutex
	forge  Forge
	at     time.Time // when forge was detected; zero when never
	err    error     // the last probe's failure, kept until errAt+failureTTL
	errAt  time.Time
	flight *flight // the probe running now, nil when none

	now func() time.Time // the clock; time.Now unless a test sets it
}

// flight is one probe and the calls waiting for its answer.
type flight struct {
	done    chan struct{} // closed once forge and err are set
	forge   Forge
	err     error
	waiters int
	cancel  context.CancelFunc
}

func (fc *forgeCache) clock() time.Time {
	if fc.now != nil {
		return fc.now()
	}
	return time.Now()
}

// Forge returns the flavour and version of the forge, asking
// /api/v1/version on first use and again after forgeTTL. Concurrent calls
// share one probe; each returns when the probe answers or its own ctx
// ends, whichever comes first. A failed probe is returned to the calls
// of the next failureTTL without asking again.
func (c *Client) Forge(ctx context.Context) (Forge, error) {
	fc := c.forge
	fc.mu.Lock()
	now := fc.clock()
	if !fc.at.IsZero() && now.Sub(fc.at) < forgeTTL {
		f := fc.forge
		fc.mu.Unlock()
		return f, nil
	}
	if fc.err != nil && now.Sub(fc.errAt) < failureTTL {
		err := fc.err
		fc.mu.Unlock()
		return Forge{}, err
	}
	fl := fc.flight
	if fl == nil {
		// The probe runs on its own context: the call that started it
		// may leave first while others still wait. Its values (the
		// caller's identity for the logs) are kept.
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), probeTimeout)
		fl = &flight{done: make(chan struct{}), cancel: cancel}
		fc.flight = fl
		go c.probe(pctx, fl)
	}
	fl.waiters++
	fc.mu.Unlock()

	select {
	case <-fl.done:
		return fl.forge, fl.err
	case <-ctx.Done():
		fc.mu.Lock()
		fl.waiters--
		if fl.waiters == 0 && fc.flight == fl {
			// Nobody waits any more: the probe stops, and since its
			// failure would be ours, not the forge's, nothing is kept
			// and the next call asks afresh.
			fc.flight = nil
			fl.cancel()
		}
		fc.mu.Unlock()
		return Forge{}, &Error{Verb: "get the version of", Subject: "the forge", Cause: context.Cause(ctx)}
	}
}

// probe asks the forge for its version and hands the answer to fl's
// waiters, keeping it (or its failure) unless fl was abandoned.
func (c *Client) probe(ctx context.Context, fl *flight) {
	defer fl.cancel()
	f, err := c.askVersion(ctx)
	fc := c.forge
	fc.mu.Lock()
	if fc.flight == fl {
		fc.flight = nil
		if err == nil {
			fc.forge, fc.at, fc.err = f, fc.clock(), nil
		} else {
			fc.err, fc.errAt = err, fc.clock()
		}
	}
	fl.forge, fl.err = f, err
	fc.mu.Unlock()
	close(fl.done)
}

// askVersion is one request to /api/v1/version.
func (c *Client) askVersion(ctx context.Context) (Forge, error) {
	var v struct {
		Version string `json:"version"`
	}
	// Decoded whole, whatever request started the probe.
	ctx = context.WithValue(ctx, streamedKey{}, false)
	if err := c.DoJSON(ctx, http.MethodGet, "/version", nil, nil, &v); err != nil {
		return Forge{}, Relabel(err, "get the version of", "the forge")
	}
	if strings.TrimSpace(v.Version) == "" {
		return Forge{}, fmt.Errorf("get the version of the forge: it answered no version")
	}
	return ParseForge(v.Version), nil
}

// cached returns the detected forge without asking, when it is fresh.
func (fc *forgeCache) cached() (Forge, bool) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return fc.forge, !fc.at.IsZero() && fc.clock().Sub(fc.at) < forgeTTL
}
