package main

// Resources and completions over HTTP with each caller's own token, and
// what a resource read costs against its tool call.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// bearer adds the caller's token to every request of the SDK's client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// startHTTP starts the binary with --transport http on a free loopback
// port (no token of its own: each request brings one) and returns its
// endpoint.
func startHTTP(t *testing.T, forgeURL string) string {
	t.Helper()
	cmd := exec.Command(binary, "--transport", "http", "--http-addr", "127.0.0.1:0", "--toolsets", "all")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "FORGEJO_URL=" + forgeURL}
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	endpoint := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`endpoint=(http://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case endpoint <- m[1]:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case url := <-endpoint:
		return url
	case <-time.After(20 * time.Second):
		t.Fatal("the HTTP server did not log its endpoint")
	}
	return ""
}

// connectBearer connects the Go SDK client to endpoint with token,
// pinned to version.
func connectBearer(t *testing.T, endpoint, version, token string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	require.Equal(t, version, cs.InitializeResult().ProtocolVersion)
	return cs
}

// TestE2ECompletionsPerIdentityHTTP: two users on one HTTP server, each
// asking for the same completions in turn and at once; neither ever gets
// the other's values from the cache.
func TestE2ECompletionsPerIdentityHTTP(t *testing.T) {
	lf := testforge.Get(t)
	owner, repo := lf.NewRepo(t) // private, the first user's
	endpoint := startHTTP(t, lf.URL)
	for _, version := range protocolVersions {
		t.Run(version, func(t *testing.T) {
			sessions := map[string]*mcp.ClientSession{
				lf.User:  connectBearer(t, endpoint, version, lf.Token),
				lf.User2: connectBearer(t, endpoint, version, lf.Token2),
			}
			repos := func(login string) []string {
				res, err := sessions[login].Complete(context.Background(), &mcp.CompleteParams{
					Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "forgejo://{owner}/{repo}"},
					Argument: mcp.CompleteParamsArgument{Name: "repo", Value: repo[:3]},
					Context:  &mcp.CompleteContext{Arguments: map[string]string{"owner": owner}}})
				if !assert.NoError(t, err) { // also called from goroutines: no FailNow
					return nil
				}
				return res.Completion.Values
			}
			for range 2 {
				assert.Contains(t, repos(lf.User), repo)
				assert.NotContains(t, repos(lf.User2), repo, "the other user cannot see the private repository")
			}
			var wg sync.WaitGroup
			for i := range 16 {
				login := []string{lf.User, lf.User2}[i%2]
				wg.Go(func() {
					got := repos(login)
					assert.Equal(t, login == lf.User, slices.Contains(got, repo), "%s: %v", login, got)
				})
			}
			wg.Wait()
		})
	}
}

// TestE2EResourceCost measures a resource read against the tool call it
// maps to: bytes on the wire and wall time, over stdio.
func TestE2EResourceCost(t *testing.T) {
	lf := testforge.Get(t)
	env := []string{"FORGEJO_URL=" + lf.URL, "FORGEJO_ACCESS_TOKEN=" + lf.Token}
	cs := connect(t, "2025-11-25", env)
	fx := newSurfaceFixture(t, lf, cs)
	ctx := context.Background()
	wire := func(v any) int {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return len(b)
	}
	const rounds = 5
	cases := []struct {
		name, uri, tool string
		args            map[string]any
	}{
		{"issue (resource adds its comments)", fx.uri("/issues/%d", fx.issue), "get_issue_by_index", map[string]any{"index": fx.issue}},
		{"repository", fx.uri(""), "get_repo", map[string]any{}},
		{"commit", fx.uri("/commits/%s", fx.commit), "get_commit", map[string]any{"sha": fx.commit}},
		{"file", fx.uri("/files/docs/guide.md"), "get_file_content", map[string]any{"path": "docs/guide.md"}},
		{"pull diff", fx.uri("/pulls/%d/diff", fx.pull), "get_pull_request_diff", map[string]any{"index": fx.pull}},
		{"attachment 1 MiB window", fx.uri("/issues/%d/attachments/%d", fx.issue, fx.bigID), "download_issue_attachment",
			map[string]any{"index": fx.issue, "attachment_id": fx.bigID, "offset": 0}},
	}
	for _, c := range cases {
		c.args["owner"], c.args["repo"] = fx.owner, fx.repo
		var rBytes, tBytes int
		var rTime, tTime time.Duration
		for range rounds {
			start := time.Now()
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: c.uri})
			rTime += time.Since(start)
			require.NoError(t, err)
			rBytes = wire(res)
			start = time.Now()
			tr, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			tTime += time.Since(start)
			require.NoError(t, err)
			require.False(t, tr.IsError)
			tBytes = wire(tr)
		}
		t.Logf("%-36s resource %8d B %6.1f ms | tool %-26s %8d B %6.1f ms", c.name, rBytes,
			float64(rTime.Microseconds())/1000/rounds, c.tool, tBytes, float64(tTime.Microseconds())/1000/rounds)
		assert.Positive(t, rBytes)
	}
}
