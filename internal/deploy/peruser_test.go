package deploy_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/deploy"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// holdingForge is a forge whose branch lists answer only when released,
// so a test sees how many calls of each user run at once anywhere in
// the deployment: the per-user bound, measured where it matters.
type holdingForge struct {
	*fakeforge.Server
	logins map[string]string // token → login

	mu       sync.Mutex
	inflight map[string]int // login → branch lists waiting now
	peak     map[string]int // login → the most at once since reset
	gate     chan struct{}  // closed to answer the waiting lists
}

func newHoldingForge(t *testing.T, logins map[string]string) *holdingForge {
	f := &holdingForge{Server: fakeforge.New(t), logins: logins, inflight: map[string]int{}, peak: map[string]int{},
		gate: make(chan struct{})}
	t.Cleanup(f.release)
	login := func(r *http.Request) string {
		return f.logins[strings.TrimPrefix(r.Header.Get("Authorization"), "token ")]
	}
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "1.26.0"})
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, r *http.Request) {
		if l := login(r); l != "" {
			fakeforge.WriteJSON(w, 200, map[string]any{"id": len(l), "login": l, "username": l})
			return
		}
		fakeforge.WriteJSON(w, 401, map[string]any{"message": "token is required"})
	})
	f.Handle("GET /api/v1/repos/{owner}/{repo}/branches", func(w http.ResponseWriter, r *http.Request) {
		l := login(r)
		f.mu.Lock()
		f.inflight[l]++
		f.peak[l] = max(f.peak[l], f.inflight[l])
		gate := f.gate
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			f.inflight[l]--
			f.mu.Unlock()
		}()
		select {
		case <-gate:
			fakeforge.WriteJSON(w, 200, []any{})
		case <-r.Context().Done(): // the replica went away
		}
	})
	return f
}

// release answers every waiting list and resets the peaks.
func (f *holdingForge) release() {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.gate:
	default:
		close(f.gate)
	}
	f.gate = make(chan struct{})
	f.peak = map[string]int{}
}

func (f *holdingForge) counts(m func(*holdingForge) map[string]int, login string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return m(f)[login]
}

func (f *holdingForge) waiting(login string) int {
	return f.counts(func(f *holdingForge) map[string]int { return f.inflight }, login)
}

func (f *holdingForge) peakOf(login string) int {
	return f.counts(func(f *holdingForge) map[string]int { return f.peak }, login)
}

// settle waits until each of n calls has either been answered or is
// waiting at the forge: what runs at once is then known.
func (f *holdingForge) settle(t *testing.T, answered *atomic.Int64, n int) {
	t.Helper()
	require.Eventually(t, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		waiting := 0
		for _, k := range f.inflight {
			waiting += k
		}
		return int(answered.Load())+waiting == n
	}, 20*time.Second, 10*time.Millisecond, "every call is answered or waits at the forge")
}

// outcome is how a burst's calls ended.
type outcome struct{ ok, busy, badGateway, other int }

const busyPerUser = "busy: you already have 2 tool calls running, the limit per user; retry list_branches when one of them has finished"

// driver makes calls through a cluster and counts them, so the access
// log can be read once every call sent so far is in it.
type driver struct {
	hc   *http.Client
	c    *deploy.Cluster
	sent atomic.Int64
}

func (d *driver) call(token, tool string, args map[string]any) (deploy.Result, error) {
	return d.callAs("token "+token, tool, args)
}

func (d *driver) callAs(authorization, tool string, args map[string]any) (deploy.Result, error) {
	defer d.sent.Add(1)
	return deploy.CallAs(context.Background(), d.hc, d.c.URL, authorization, tool, args)
}

// burst sends n list_branches calls of token at once, every other one
// with the Bearer scheme, and returns when they have all ended, counting
// each answer in answered as it comes.
func (d *driver) burst(token string, n int, answered *atomic.Int64) outcome {
	var mu sync.Mutex
	var out outcome
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			auth := "token " + token
			if i%2 == 1 {
				auth = "Bearer " + token
			}
			res, err := d.callAs(auth, "list_branches", map[string]any{"owner": "o", "repo": "r"})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil && res.Status == http.StatusOK && !res.IsError:
				out.ok++
			case err == nil && res.Status == http.StatusOK && res.Text == busyPerUser:
				out.busy++
			case err == nil && res.Status == http.StatusBadGateway:
				out.badGateway++
			default:
				out.other++
			}
			answered.Add(1)
		})
	}
	wg.Wait()
	return out
}

// replicaOf is the replica that answers one call of token, from nginx's
// access log.
func (d *driver) replicaOf(t *testing.T, token string) string {
	t.Helper()
	// nginx logs a request just after its answer is out: first wait
	// for the lines of the calls already answered.
	require.Eventually(t, func() bool { return int64(strings.Count(d.c.AccessLog(), `"POST /mcp `)) == d.sent.Load() },
		5*time.Second, 10*time.Millisecond, "nginx logged every call")
	mark := len(d.c.AccessLog())
	res, err := d.call(token, "get_my_user_info", map[string]any{})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.Status, res.Text)
	require.False(t, res.IsError, res.Text)
	var served map[string]int
	require.Eventually(t, func() bool {
		served = d.c.Served(mark)
		return len(served) > 0
	}, 5*time.Second, 10*time.Millisecond, "nginx logged the call")
	require.Len(t, served, 1)
	for addr := range served {
		return addr
	}
	return ""
}

// TestPerUserBoundAcrossReplicas: nginx sends all requests of one
// credential to one replica (docs/deploy/nginx.conf hashes the
// Authorization header), so the per-user bound (2 here) holds for the
// whole deployment of three replicas: eight calls of one user at once
// run 2 at the forge, never one bound per replica (round robin ran 6),
// and the other 6 are refused as busy, for each of four users at once.
// When a user's replica is killed mid-run, their calls in flight there
// get 502; their next calls go to one other replica, where the bound
// holds again, and the other users stay where they were.
func TestPerUserBoundAcrossReplicas(t *testing.T) {
	tokens := map[string]string{}
	for _, login := range []string{"alice", "bob", "carol", "dave"} {
		tokens["tok-"+login+"-0123456789abcdef"] = login
	}
	forge := newHoldingForge(t, tokens)
	c := start(t, forge.URL, 3, "--max-concurrent-per-user", "2")
	d := &driver{hc: c.Client(60 * time.Second), c: c}
	token := map[string]string{}
	for tok, login := range tokens {
		token[login] = tok
	}

	home := map[string]string{}
	for login, tok := range token {
		home[login] = d.replicaOf(t, tok)
		for range 3 {
			assert.Equal(t, home[login], d.replicaOf(t, tok), "%s's calls all go to one replica", login)
		}
	}
	t.Logf("replica of each user: %v", home)

	// Every user at once, eight calls each.
	const n = 8
	var answered atomic.Int64
	results := make(chan [2]any, 4)
	for login, tok := range token {
		go func() { results <- [2]any{login, d.burst(tok, n, &answered)} }()
	}
	forge.settle(t, &answered, 4*n)
	for login := range token {
		assert.Equal(t, 2, forge.peakOf(login), "%s: calls at the forge at once, over three replicas", login)
	}
	forge.release()
	for range 4 {
		r := <-results
		assert.Equal(t, outcome{ok: 2, busy: n - 2}, r[1], "%s's burst: 2 served, the rest busy", r[0])
	}

	// Kill alice's replica while two of her calls run there.
	var victim *deploy.Replica
	for _, r := range c.Replicas {
		if r.Addr == home["alice"] {
			victim = r
		}
	}
	require.NotNil(t, victim)
	answered.Store(0)
	done := make(chan outcome, 1)
	go func() { done <- d.burst(token["alice"], n, &answered) }()
	forge.settle(t, &answered, n)
	require.Equal(t, 2, forge.waiting("alice"))
	require.NoError(t, victim.Kill())
	assert.Equal(t, outcome{busy: n - 2, badGateway: 2}, <-done,
		"the calls running on the killed replica get nginx's 502 (a POST that was sent is not re-sent)")
	require.Eventually(t, func() bool { return forge.waiting("alice") == 0 }, 10*time.Second, 10*time.Millisecond)
	forge.release()

	moved := d.replicaOf(t, token["alice"])
	assert.NotEqual(t, home["alice"], moved, "alice is served by another replica")
	for range 3 {
		assert.Equal(t, moved, d.replicaOf(t, token["alice"]), "and by that one alone")
	}
	for login, addr := range home {
		if addr != home["alice"] {
			assert.Equal(t, addr, d.replicaOf(t, token[login]), "%s stays on their replica", login)
		}
	}
	answered.Store(0)
	go func() { done <- d.burst(token["alice"], n, &answered) }()
	forge.settle(t, &answered, n)
	assert.Equal(t, 2, forge.peakOf("alice"), "the bound holds on the replica alice moved to")
	forge.release()
	assert.Equal(t, outcome{ok: 2, busy: n - 2}, <-done)
}
