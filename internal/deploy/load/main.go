// Command load measures the shipped deployment under load: replicas of the
// built binary behind nginx (docs/deploy/nginx.conf, via internal/deploy)
// in front of the live test forge, driven by 64 and 256 concurrent clients
// spread over 8 users calling get_my_user_info, next to the same load of
// the REST call that tool makes (GET /api/v1/user) sent to the forge
// directly. It prints throughput, p50/p99 latency, errors by kind and each
// replica's peak RSS. Run it with scripts/load; it is not a test.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/deploy"
)

func main() {
	var (
		replicas = flag.Int("replicas", 2, "replicas behind nginx")
		duration = flag.Duration("duration", 8*time.Second, "length of each measured phase")
		levels   = flag.String("clients", "64,256", "comma-separated concurrent client counts")
		users    = flag.Int("users", 8, "users the clients are spread over")
		extra    = flag.String("args", "", "extra flags for every replica, space-separated (e.g. \"--max-concurrent-per-user 64\")")
	)
	flag.Parse()
	if err := run(*replicas, *users, *duration, *levels, strings.Fields(*extra)); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

type forge struct {
	url, token, user, password string
	hc                         *http.Client
}

func run(replicas, nUsers int, d time.Duration, levels string, args []string) error {
	f := &forge{url: strings.TrimRight(os.Getenv("FORGEJO_TEST_URL"), "/"), token: os.Getenv("FORGEJO_TEST_TOKEN"),
		user: os.Getenv("FORGEJO_TEST_USER"), password: os.Getenv("FORGEJO_TEST_PASSWORD"),
		hc: &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024}}}
	if f.url == "" || f.token == "" {
		return fmt.Errorf("FORGEJO_TEST_URL and FORGEJO_TEST_TOKEN are not set (run through scripts/load)")
	}
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "forgejo-mcp-load-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin, err := deploy.Build(root, dir)
	if err != nil {
		return err
	}
	tokens, cleanup, err := f.users(nUsers)
	defer cleanup()
	if err != nil {
		return err
	}
	fmt.Printf("# %d replicas behind nginx, %d users, %s per phase, replica flags %q\n\n", replicas, nUsers, d, args)
	fmt.Println("| clients | path | calls/s | p50 | p99 | errors by kind | peak RSS per replica (calls it answered) |")
	fmt.Println("|---:|---|---:|---:|---:|---|---|")
	for _, level := range strings.Split(levels, ",") {
		var clients int
		if _, err := fmt.Sscan(level, &clients); err != nil {
			return fmt.Errorf("-clients %q: %v", level, err)
		}
		direct := measure(clients, tokens, d, func(ctx context.Context, token string) (string, error) {
			return f.restCall(ctx, token)
		})
		fmt.Println(direct.row(clients, "forge direct (GET /api/v1/user)", ""))

		// A fresh deployment per level, so peak RSS is this level's.
		cdir := filepath.Join(dir, fmt.Sprint("c", clients))
		if err := os.MkdirAll(cdir, 0o700); err != nil {
			return err
		}
		c, err := deploy.Start(deploy.Options{Binary: bin, ForgeURL: f.url, Replicas: replicas, Args: args,
			Config: filepath.Join(root, "docs", "deploy", "nginx.conf"), Dir: cdir})
		if err != nil {
			return err
		}
		hc := c.Client(time.Minute)
		mcp := func(ctx context.Context, token string) (string, error) {
			res, err := deploy.Call(ctx, hc, c.URL, token, "get_my_user_info", map[string]any{})
			return classify(res, err), err
		}
		for _, tok := range tokens { // warm the identity caches, as a running team server's are
			for range replicas * 2 {
				_, _ = mcp(context.Background(), tok)
			}
		}
		mark := len(c.AccessLog())
		s := measure(clients, tokens, d, mcp)
		served := c.Served(mark)
		var rss []string
		for _, r := range c.Replicas {
			n, err := r.PeakRSS()
			if err != nil {
				rss = append(rss, "?")
				continue
			}
			rss = append(rss, fmt.Sprintf("%.1f MiB (%d calls)", float64(n)/(1<<20), served[r.Addr]))
		}
		c.Close()
		fmt.Println(s.row(clients, "MCP get_my_user_info via nginx", strings.Join(rss, ", ")))
	}
	return nil
}

// classify names what kind of answer a call got: "" for success.
func classify(r deploy.Result, err error) string {
	switch {
	case err != nil:
		return "transport"
	case r.Status != http.StatusOK:
		return fmt.Sprintf("HTTP %d", r.Status)
	case r.IsError && strings.HasPrefix(r.Text, "busy: you already have"):
		return "busy (per-user limit)"
	case r.IsError && strings.HasPrefix(r.Text, "server busy"):
		return "busy (server limit)"
	case r.IsError:
		return "tool error: " + firstWords(r.Text, 8)
	}
	return ""
}

func firstWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) > n {
		w = w[:n]
	}
	return strings.Join(w, " ")
}

// busyBackoff is how long a client refused as busy waits before its next
// call, as the refusal asks ("retry in a moment").
const busyBackoff = 100 * time.Millisecond

// stats is one phase's outcome.
type stats struct {
	ok      []time.Duration
	errors  map[string]int
	elapsed time.Duration
}

// measure runs clients goroutines, client i as user i%len(tokens), each
// calling call back to back for d.
func measure(clients int, tokens []string, d time.Duration, call func(context.Context, string) (string, error)) stats {
	var mu sync.Mutex
	s := stats{errors: map[string]int{}}
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			var ok []time.Duration
			errs := map[string]int{}
			for time.Now().Before(deadline) {
				t0 := time.Now()
				kind, _ := call(context.Background(), tokens[i%len(tokens)])
				switch {
				case kind == "":
					ok = append(ok, time.Since(t0))
				case strings.HasPrefix(kind, "busy"), kind == "HTTP 503":
					// What the refusal asks for: retry in a moment, not
					// at once.
					errs[kind]++
					time.Sleep(busyBackoff)
				default:
					errs[kind]++
				}
			}
			mu.Lock()
			s.ok = append(s.ok, ok...)
			for k, v := range errs {
				s.errors[k] += v
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	s.elapsed = time.Since(start)
	slices.Sort(s.ok)
	return s
}

func (s stats) row(clients int, path, rss string) string {
	pct := func(p float64) string {
		if len(s.ok) == 0 {
			return "-"
		}
		return s.ok[int(p*float64(len(s.ok)-1))].Round(100 * time.Microsecond).String()
	}
	var errs []string
	for k, v := range s.errors {
		errs = append(errs, fmt.Sprintf("%s: %d", k, v))
	}
	slices.Sort(errs)
	if len(errs) == 0 {
		errs = []string{"none"}
	}
	if rss == "" {
		rss = "-"
	}
	return fmt.Sprintf("| %d | %s | %.0f | %s | %s | %s | %s |", clients, path,
		float64(len(s.ok))/s.elapsed.Seconds(), pct(.5), pct(.99), strings.Join(errs, "; "), rss)
}

// restCall is the forge request get_my_user_info makes, sent directly.
func (f *forge) restCall(ctx context.Context, token string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.url+"/api/v1/user", nil)
	if err != nil {
		return "transport", err
	}
	req.Header.Set("Authorization", "token "+token)
	resp, err := f.hc.Do(req)
	if err != nil {
		return "transport", err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Sprintf("HTTP %d", resp.StatusCode), nil
	}
	return "", nil
}

// users creates n throw-away users with a read:user token each; cleanup
// deletes them.
func (f *forge) users(n int) (tokens []string, cleanup func(), err error) {
	var names []string
	cleanup = func() {
		for _, name := range names {
			_, _ = f.api(http.MethodDelete, "/admin/users/"+name+"?purge=true", nil, "", nil)
		}
	}
	suffix := time.Now().Format("150405")
	for i := range n {
		name := fmt.Sprintf("load%d-%s", i, suffix)
		password := "Load-" + suffix + "-pw-" + fmt.Sprint(i)
		status, err := f.api(http.MethodPost, "/admin/users", map[string]any{
			"username": name, "email": name + "@example.org", "password": password, "must_change_password": false,
		}, "", nil)
		if err != nil || status != http.StatusCreated {
			return nil, cleanup, fmt.Errorf("creating user %s: status %d: %v", name, status, err)
		}
		names = append(names, name)
		var tok struct {
			SHA1 string `json:"sha1"`
		}
		status, err = f.api(http.MethodPost, "/users/"+name+"/tokens", map[string]any{"name": "load", "scopes": []string{"read:user"}}, name+":"+password, &tok)
		if err != nil || status != http.StatusCreated {
			return nil, cleanup, fmt.Errorf("creating a token for %s: status %d: %v", name, status, err)
		}
		tokens = append(tokens, tok.SHA1)
	}
	return tokens, cleanup, nil
}

// api calls the forge's API as the admin, or with basic auth "user:pass".
func (f *forge) api(method, path string, body any, basic string, out any) (int, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, f.url+"/api/v1"+path, r)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if u, p, ok := strings.Cut(basic, ":"); ok {
		req.SetBasicAuth(u, p)
	} else {
		req.Header.Set("Authorization", "token "+f.token)
	}
	resp, err := f.hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return resp.StatusCode, err
		}
	}
	return resp.StatusCode, nil
}
