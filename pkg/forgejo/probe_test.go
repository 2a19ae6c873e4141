package forgejo

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stalledForge answers /api/v1/version only once release is closed (or
// the request is cancelled, which it reports on gone), counting requests.
type stalledForge struct {
	calls   atomic.Int32
	release chan struct{}
	gone    chan struct{} // one value per request cancelled while stalled
	version string
}

func newStalledForge(t *testing.T, version string) (*stalledForge, *Client) {
	s := &stalledForge{release: make(chan struct{}), gone: make(chan struct{}, 64), version: version}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/version" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`[]`))
			return
		}
		s.calls.Add(1)
		select {
		case <-s.release:
		case <-r.Context().Done():
			s.gone <- struct{}{}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"version":"` + s.version + `"}`))
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() {
		select {
		case <-s.release:
		default:
			close(s.release)
		}
	})
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return s, NewClient(NewHTTPClient(HTTPOptions{BaseURL: u}), u, "tok-123456", "t")
}

// waiters is how many calls wait for c's probe in flight.
func waiters(c *Client) int {
	c.forge.mu.Lock()
	defer c.forge.mu.Unlock()
	if c.forge.flight == nil {
		return 0
	}
	return c.forge.flight.waiters
}

// jobsRoute is declared in Routes and lacked by Forgejo 13.0.5, so a
// request to it is gated on the forge's version.
const jobsRoute = "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs"

func TestStalledProbeIsSharedByAllGatedCalls(t *testing.T) {
	s, c := newStalledForge(t, "13.0.5+gitea-1.22.0")
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if i%2 == 0 {
				errs[i] = c.Require(context.Background(), http.MethodGet, jobsRoute)
			} else { // a request through the transport's gate
				errs[i] = c.DoJSON(context.Background(), http.MethodGet, "/repos/o/r/actions/runs/1/jobs", nil, nil, nil)
			}
		})
	}
	require.Eventually(t, func() bool { return waiters(c) == n }, 10*time.Second, time.Millisecond,
		"every gated call waits for the one probe, none for a probe of its own")
	require.Eventually(t, func() bool { return s.calls.Load() == 1 }, 10*time.Second, time.Millisecond, "the probe reached the forge")
	close(s.release)
	wg.Wait()
	assert.Equal(t, int32(1), s.calls.Load(), "one request to /api/v1/version for all the waiters")
	for i, err := range errs {
		var re *RouteError
		require.ErrorAs(t, err, &re, "call %d: refused by the version the probe found", i)
		assert.Equal(t, Forgejo, re.Forge.Flavour)
	}
}

func TestCancelledWaiterLeavesAtOnce(t *testing.T) {
	s, c := newStalledForge(t, "1.26.0")
	ctx, cancel := context.WithCancel(context.Background())
	left := make(chan error, 1)
	go func() { _, err := c.Forge(ctx); left <- err }()
	stay := make(chan error, 1)
	go func() { _, err := c.Forge(context.Background()); stay <- err }()
	require.Eventually(t, func() bool { return waiters(c) == 2 }, 10*time.Second, time.Millisecond)

	cancel()
	select {
	case err := <-left:
		require.Error(t, err)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, "get the version of the forge: cancelled before the forge answered", err.Error())
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled waiter still waits for the stalled probe")
	}
	assert.Equal(t, 1, waiters(c), "the other call still waits")
	select {
	case <-s.gone:
		t.Fatal("the probe was cancelled while a call still waits for it")
	default:
	}
	close(s.release)
	require.NoError(t, <-stay)
	assert.Equal(t, int32(1), s.calls.Load())
}

func TestAbandonedProbeStopsAndIsNotKept(t *testing.T) {
	s, c := newStalledForge(t, "1.26.0")
	ctx, cancel := context.WithCancelCause(context.Background())
	left := make(chan error, 1)
	go func() { _, err := c.Forge(ctx); left <- err }()
	require.Eventually(t, func() bool { return s.calls.Load() == 1 }, 10*time.Second, time.Millisecond, "the probe reached the forge")
	cancel(context.DeadlineExceeded)
	assert.ErrorIs(t, <-left, context.DeadlineExceeded)
	select {
	case <-s.gone: // the forge saw the request end
	case <-time.After(5 * time.Second):
		t.Fatal("the probe goes on with nobody waiting for it")
	}
	// The failure was the caller's deadline, not the forge's: the next
	// call asks again rather than reading it from the cache.
	close(s.release)
	f, err := c.Forge(context.Background())
	require.NoError(t, err)
	assert.Equal(t, Gitea, f.Flavour)
	assert.Equal(t, int32(2), s.calls.Load())
}

func TestProbeFailureIsKeptBriefly(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			http.Error(w, `{"message":"down"}`, http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"version":"1.26.0"}`))
	}))
	defer srv.Close()
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	c := NewClient(NewHTTPClient(HTTPOptions{BaseURL: u}), u, "tok-123456", "t")
	now := time.Unix(1e9, 0)
	c.forge.now = func() time.Time { return now }

	_, first := c.Forge(context.Background())
	require.Error(t, first)
	assert.Contains(t, first.Error(), "get the version of the forge: the forge failed (502")
	now = now.Add(failureTTL - time.Millisecond)
	_, again := c.Forge(context.Background())
	assert.Same(t, first, again, "within failureTTL the failure is the answer")
	assert.NoError(t, c.Require(context.Background(), http.MethodGet, jobsRoute), "an unknown forge blocks no call")
	assert.Equal(t, int32(1), calls.Load())

	now = now.Add(time.Millisecond)
	f, err := c.Forge(context.Background())
	require.NoError(t, err, "after failureTTL the forge is asked again")
	assert.Equal(t, Forge{Flavour: Gitea, Version: "1.26.0"}, f)
	assert.Equal(t, int32(2), calls.Load())
	now = now.Add(forgeTTL - time.Millisecond)
	_, _ = c.Forge(context.Background())
	assert.Equal(t, int32(2), calls.Load(), "a detected forge is kept for forgeTTL")
	now = now.Add(time.Millisecond)
	_, _ = c.Forge(context.Background())
	assert.Equal(t, int32(3), calls.Load())
}
