package httpserver

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/trickle"
)

// slowPost starts a trickling POST of token to the fixture (trickle.Post).
func slowPost(t *testing.T, addr, token string, declared int, every time.Duration, stop <-chan struct{}) <-chan string {
	t.Helper()
	out, err := trickle.Post(addr, EndpointPath, token, declared, every, stop)
	require.NoError(t, err)
	return out
}

// TestTricklingUserStarvesNobody is issue 18's item 3: one valid token,
// 64 connections each declaring a 16 MB body and sending a byte now and
// then, held every request slot of the server, and every other user got
// 503 for as long as it lasted. A user's requests are now bounded before
// their bodies are read, each body must keep a minimum rate, and other
// users are served throughout.
func TestTricklingUserStarvesNobody(t *testing.T) {
	fx := newFixture(t, func(o *Options) {
		o.BodyGrace, o.MinBodyRate, o.InflightWait = 500*time.Millisecond, 64<<10, 2*time.Second
	})
	addr := strings.TrimPrefix(fx.http.URL, "http://")
	fx.toolNames(t, "Bearer "+tokAlice, nil) // alice's token is checked and cached
	stop := make(chan struct{})
	defer close(stop)
	var answers []<-chan string
	for range 64 {
		answers = append(answers, slowPost(t, addr, tokAlice, 16_000_000, 100*time.Millisecond, stop))
	}
	time.Sleep(100 * time.Millisecond) // every trickle has sent its headers

	for range 5 {
		assert.Equal(t, `{"login":"bob"}`, fx.callText(t, "Bearer "+tokBob, "whoami", nil), "another user is served while alice trickles")
	}
	statuses := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, a := range answers {
		wg.Go(func() {
			select {
			case s := <-a:
				mu.Lock()
				statuses[s]++
				mu.Unlock()
			case <-time.After(10 * time.Second):
				mu.Lock()
				statuses["no answer"]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	t.Logf("the trickling requests were answered: %v", statuses)
	assert.Zero(t, statuses["no answer"], "every trickle is answered, none is left hanging")
	// Past alice's 8 requests at once: 429. Of her 8, one at a time holds
	// her share of the budget and is cut off; the rest wait for it, for
	// no longer than the budget's wait.
	assert.Equal(t, 56, statuses["429 Too Many Requests"], "%v", statuses)
	assert.Equal(t, 8, statuses["408 Request Timeout"]+statuses["503 Service Unavailable"], "%v", statuses)
	assert.Positive(t, statuses["408 Request Timeout"], "a body slower than the minimum rate is cut off")
}

// TestUserShareOfBudget: the bodies of one user's requests hold at most
// their share of the in-flight budget, reserved before a byte is read; a
// body past it waits for the user's own earlier ones, while another
// user's fits beside at once.
func TestUserShareOfBudget(t *testing.T) {
	fx := newFixture(t, func(o *Options) {
		o.MaxInflightBytes, o.MaxBodyBytes, o.InflightWait = 4<<20, 1<<20, 300*time.Millisecond
	})
	addr := strings.TrimPrefix(fx.http.URL, "http://")
	fx.toolNames(t, "Bearer "+tokAlice, nil)
	stop := make(chan struct{})
	defer close(stop)
	slowPost(t, addr, tokAlice, 1<<20, 50*time.Millisecond, stop) // reserves 2 MiB: alice's whole share
	require.Eventually(t, func() bool { return fx.srv.budget.InUse() >= 2<<20 }, 5*time.Second, 5*time.Millisecond)

	start := time.Now()
	resp, body := fx.post(t, rpc{Method: "tools/list", Params: map[string]any{}, Auth: "Bearer " + tokAlice})
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "alice's second request waits for her first, then gives up")
	assert.GreaterOrEqual(t, time.Since(start), 300*time.Millisecond)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	assert.Contains(t, body, "one user at most 2 MiB of it")
	start = time.Now()
	assert.Equal(t, `{"login":"bob"}`, fx.callText(t, "Bearer "+tokBob, "whoami", nil), "bob's fits beside")
	assert.Less(t, time.Since(start), 300*time.Millisecond, "without waiting")
}

// TestBodyOfUnknownLength: a chunked body is read in steps, each reserved
// first, and everything is given back after.
func TestBodyOfUnknownLength(t *testing.T) {
	fx := newFixture(t, nil)
	msg := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"peek_thing","arguments":{"x":"` + strings.Repeat("y", 200<<10) + `"}}}`
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, fx.http.URL+EndpointPath, io.MultiReader(strings.NewReader(msg)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Authorization", "Bearer "+tokAlice)
	require.Equal(t, int64(0), req.ContentLength, "sent chunked")
	resp, body := do(t, req)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	assert.Contains(t, body, `unknown argument`, "the whole body was read and handled")
	assert.Zero(t, fx.srv.budget.InUse(), "all given back")
}
