package deploy_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/deploy"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/nginx"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// start builds the binary and runs n replicas behind nginx with the
// shipped docs/deploy/nginx.conf.
func start(t *testing.T, forgeURL string, n int, args ...string) *deploy.Cluster {
	t.Helper()
	if _, err := nginx.Binary(); err != nil {
		if os.Getenv("CI") != "" || os.Getenv(testforge.EnvRequire) != "" {
			t.Fatalf("%v; it is required under CI or FORGEJO_TEST_REQUIRE", err)
		}
		t.Skipf("%v", err)
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	bin, err := deploy.Build(root, dir)
	require.NoError(t, err)
	c, err := deploy.Start(deploy.Options{Binary: bin, ForgeURL: forgeURL, Replicas: n, Args: args,
		Config: filepath.Join(root, "docs", "deploy", "nginx.conf"), Dir: dir})
	require.NoError(t, err)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("nginx error log:\n%s", c.ErrorLog())
			for i, r := range c.Replicas {
				t.Logf("replica %d (%s) stderr:\n%s", i, r.Addr, r.Stderr())
			}
		}
		c.Close()
	})
	return c
}

// TestReplicasBehindNginx drives two users' calls through nginx in front
// of three replicas, and kills one replica (SIGKILL) mid-run. Every call
// gets a correct answer as the right user: the one private repository is
// listed for its owner and refused to the other user, and each user is
// told their own login. A call that was in flight on the killed replica
// gets a 502 from nginx and is retried by the client, as docs/deploy tells
// clients to do for read tools; none is lost or answered as someone else.
func TestReplicasBehindNginx(t *testing.T) {
	f := testforge.Get(t)
	require.NotEmpty(t, f.Token2, "needs a second user (%s)", testforge.EnvToken2)
	c := start(t, f.URL, 3)
	hc := c.Client(60 * time.Second)

	// The shipped routes: health through the balancer, metrics not.
	for path, want := range map[string]int{"/healthz": http.StatusOK, "/metrics": http.StatusNotFound, "/elsewhere": http.StatusNotFound} {
		resp, err := hc.Get(c.URL + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, want, resp.StatusCode, "%s: %s", path, body)
	}

	// nginx sends each credential's requests to one replica: the replica
	// of the first user is the one killed, so their calls move.
	victim := replicaNamed(t, c, (&driver{hc: hc, c: c}).replicaOf(t, f.Token))
	mark := len(c.AccessLog())
	total, retries := driveTwoUsers(t, f, c, func() { assert.NoError(t, victim.Kill()) })
	t.Logf("%d calls, %d retried after the SIGKILL of %s", total, retries, victim.Addr)

	// The killed replica served calls before, and another one the rest.
	served := servedBy(t, c, mark, total)
	assert.Positive(t, served[victim.Addr], "the killed replica served calls: %v", served)
	assert.Greater(t, len(served), 1, "another replica served the rest: %v", served)
	assert.Equal(t, retries, countNon200(c.AccessLog()[mark:]), "every failed request was retried")
}

// replicaNamed is c's replica at addr.
func replicaNamed(t *testing.T, c *deploy.Cluster, addr string) *deploy.Replica {
	t.Helper()
	for _, r := range c.Replicas {
		if r.Addr == addr {
			return r
		}
	}
	require.FailNow(t, "no replica at "+addr)
	return nil
}

// TestRollingStopBehindNginx: a replica stopped with SIGTERM (a rolling
// update) finishes the calls it has; the others take the rest. Every call
// is answered correctly; how many needed a retry is logged (a request
// nginx sends on a kept-alive connection the replica is closing can get a
// 502; docs/deploy says so).
func TestRollingStopBehindNginx(t *testing.T) {
	f := testforge.Get(t)
	require.NotEmpty(t, f.Token2, "needs a second user (%s)", testforge.EnvToken2)
	c := start(t, f.URL, 2)
	victim := replicaNamed(t, c, (&driver{hc: c.Client(60 * time.Second), c: c}).replicaOf(t, f.Token))
	mark := len(c.AccessLog())
	total, retries := driveTwoUsers(t, f, c, func() { assert.NoError(t, victim.Stop()) })
	t.Logf("%d calls, %d retried after the SIGTERM of %s", total, retries, victim.Addr)
	exited, err := victim.Exited()
	assert.True(t, exited)
	assert.NoError(t, err, "the replica shut down gracefully (exit 0)")
	served := servedBy(t, c, mark, total)
	assert.Positive(t, served[victim.Addr], "the stopped replica served calls before: %v", served)
	assert.Len(t, served, 2, "the other replica served calls: %v", served)
}

// driveTwoUsers runs two users' calls through c, three workers each, and
// calls stop once, mid-run. A call that gets no answer or a 502/503/504 is
// retried, as a client of read tools does. It fails t on any wrong answer
// and returns the number of calls and of retries.
func driveTwoUsers(t *testing.T, f *testforge.Forge, c *deploy.Cluster, stop func()) (total, retried int64) {
	t.Helper()
	hc := c.Client(60 * time.Second)
	owner, repo := f.NewRepo(t)
	users := []struct {
		token, login string
		owner        bool // owns the private repository
	}{{f.Token, f.User, true}, {f.Token2, f.User2, false}}
	const (
		callsPerWorker = 24
		workersPerUser = 3 // below the per-user limit of one replica
		stopAfter      = 40
	)
	var (
		done, retries atomic.Int64
		mu            sync.Mutex
		wrong         []string
		stopOnce      sync.Once
		stopped       bool
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		wrong = append(wrong, fmt.Sprintf(format, args...))
	}
	var wg sync.WaitGroup
	for _, u := range users {
		for w := range workersPerUser {
			wg.Go(func() {
				for i := range callsPerWorker {
					tool, args := "get_my_user_info", map[string]any{}
					if (i+w)%2 == 1 {
						tool, args = "list_branches", map[string]any{"owner": owner, "repo": repo}
					}
					var res deploy.Result
					var err error
					for attempt := 0; ; attempt++ {
						res, err = deploy.Call(context.Background(), hc, c.URL, u.token, tool, args)
						if !deploy.Retryable(res, err) || attempt == 5 {
							break
						}
						retries.Add(1)
						time.Sleep(100 * time.Millisecond)
					}
					switch {
					case err != nil:
						fail("%s %s: %v", u.login, tool, err)
					case res.Status != http.StatusOK:
						fail("%s %s: HTTP %d: %s", u.login, tool, res.Status, res.Text)
					case tool == "get_my_user_info" && (res.IsError || !strings.Contains(res.Text, `"login":"`+u.login+`"`)):
						fail("%s get_my_user_info answered %q", u.login, res.Text)
					case tool == "list_branches" && u.owner && (res.IsError || !strings.Contains(res.Text, `"name":"main"`)):
						fail("%s list_branches of their repository answered %q", u.login, res.Text)
					case tool == "list_branches" && !u.owner && !res.IsError:
						fail("%s listed another user's private repository: %q", u.login, res.Text)
					}
					if done.Add(1) == stopAfter {
						stopOnce.Do(func() {
							stop()
							mu.Lock()
							stopped = true
							mu.Unlock()
						})
					}
				}
			})
		}
	}
	wg.Wait()

	require.Empty(t, wrong, "every call gets a correct answer as the right user")
	total = int64(len(users) * workersPerUser * callsPerWorker)
	assert.Equal(t, total, done.Load(), "no call is lost")
	require.True(t, stopped, "a replica was stopped mid-run")
	return total, retries.Load()
}

// servedBy counts the calls each replica answered with 200, from nginx's
// access log past its first mark bytes, once it holds one per call: nginx
// logs a request once its response is out, so the log can be a moment
// behind the client.
func servedBy(t *testing.T, c *deploy.Cluster, mark int, total int64) map[string]int {
	t.Helper()
	var served map[string]int
	require.Eventually(t, func() bool {
		served = c.Served(mark)
		return int64(sum(served)) == total
	}, 5*time.Second, 20*time.Millisecond, "nginx logged one answered request per call")
	return served
}

func countNon200(log string) int64 {
	var n int64
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, `"POST /mcp HTTP/1.1" `) && !strings.Contains(line, `"POST /mcp HTTP/1.1" 200 `) {
			n++
		}
	}
	return n
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestFairnessBehindNginx: over the deployment, one user's burst past
// their share is refused with a busy error naming the per-user limit,
// while the other user is served.
func TestFairnessBehindNginx(t *testing.T) {
	f := testforge.Get(t)
	require.NotEmpty(t, f.Token2)
	// One replica, so the per-user limit of 2 is the whole deployment's.
	c := start(t, f.URL, 1, "--max-concurrent-per-user", "2")
	hc := c.Client(60 * time.Second)
	owner, repo := f.NewRepo(t)

	// A burst of one user's slow calls: listing a repository's branches
	// takes tens of milliseconds; 16 at once overlap.
	var wg sync.WaitGroup
	var busy, ok atomic.Int64
	var other atomic.Value
	start := make(chan struct{})
	for range 16 {
		wg.Go(func() {
			<-start
			res, err := deploy.Call(context.Background(), hc, c.URL, f.Token, "list_branches", map[string]any{"owner": owner, "repo": repo})
			if err != nil || res.Status != http.StatusOK {
				return
			}
			switch {
			case res.IsError && res.Text == "busy: you already have 2 tool calls running, the limit per user; retry list_branches when one of them has finished":
				busy.Add(1)
			case !res.IsError:
				ok.Add(1)
			}
		})
	}
	wg.Go(func() {
		<-start
		time.Sleep(5 * time.Millisecond)
		res, err := deploy.Call(context.Background(), hc, c.URL, f.Token2, "get_my_user_info", map[string]any{})
		if err == nil {
			other.Store(res)
		}
	})
	close(start)
	wg.Wait()
	assert.Positive(t, busy.Load(), "the burst past the per-user limit was refused")
	assert.Positive(t, ok.Load(), "the user's calls within the limit were served")
	assert.Equal(t, int64(16), busy.Load()+ok.Load(), "every call was served or refused as busy")
	res, _ := other.Load().(deploy.Result)
	assert.False(t, res.IsError, "the other user is served during the burst: %q", res.Text)
	assert.Contains(t, res.Text, `"login":"`+f.User2+`"`)
}
