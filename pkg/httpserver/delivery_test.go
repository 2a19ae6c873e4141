package httpserver

import (
	"context"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLogNotificationsAreNeverLost is issue 21's race: over streamable
// HTTP, mcp-go forwards a request's notifications from a goroutine of its
// own, and one that goroutine has taken off the queue but not yet written
// when the call's response goes out is dropped. Under CPU load (more
// runnable threads than cores, so a thread can be descheduled between the
// two steps) a call now and then arrived without its log record. Every
// call must get exactly its own record, however the threads are
// scheduled: the sender waits until its record is written, not for a
// while.
func TestLogNotificationsAreNeverLost(t *testing.T) {
	if testing.Short() {
		t.Skip("a stress test")
	}
	// Eight callers, each sending its next call as soon as it has the
	// last one's response: the server releases a call's per-user slot
	// only after writing that response, so for a moment a ninth can
	// arrive. The per-user bound is not what this test is about.
	const callers = 8
	fx := newFixture(t, func(o *Options) { o.MaxInFlightPerUser = 2 * callers })
	var got atomic.Int64
	client := mcp.NewClient(&mcp.Implementation{Name: "forgejo-mcp-test", Version: "1"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			if m, ok := r.Params.Data.(map[string]any); ok && m["msg"] == "tool call" {
				got.Add(1)
			}
		},
	})
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: fx.http.URL + EndpointPath,
		HTTPClient: &http.Client{Transport: headerTransport{headers: map[string]string{"Authorization": "Bearer " + tokAlice}, next: http.DefaultTransport}},
		MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })

	// More busy threads than cores: the OS deschedules threads at random
	// points, the forwarder's among them.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4 * runtime.NumCPU()))
	stop := make(chan struct{})
	var hogs sync.WaitGroup
	for range 2 * runtime.NumCPU() {
		hogs.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
			}
		})
	}
	const calls = 300
	var wg sync.WaitGroup
	var done atomic.Int64
	for range callers {
		wg.Go(func() {
			for done.Add(1) <= calls {
				p := &mcp.CallToolParams{Name: "peek_thing", Arguments: map[string]any{}, Meta: mcp.Meta{"io.modelcontextprotocol/logLevel": "info"}}
				res, err := cs.CallTool(t.Context(), p)
				if assert.NoError(t, err) {
					assert.False(t, res.IsError)
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	hogs.Wait()
	// The client may hand a notification to its handler after the
	// response it preceded; a lost one never comes.
	assert.Eventually(t, func() bool { return got.Load() >= calls }, 10*time.Second, 10*time.Millisecond,
		"one log record per call, none lost")
	assert.Equal(t, int64(calls), got.Load())
}
