package tool_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// note is a result with a person's text, as the trust pass reads it.
type note struct {
	Body   string `json:"body" trust:"text"`
	Author string `json:"author" trust:"author"`
}

// A call the tool refuses on its own sends nothing, marks and lockdown on
// or not; a call that reaches the forge has its repository read while the
// handler works, so the marks cost one round trip after it, not two.
func TestTrustPassSendsOnlyWithTheCall(t *testing.T) {
	for _, mode := range []struct {
		name           string
		marks, lockdwn bool
	}{{"marks", true, false}, {"lockdown", false, true}, {"both", true, true}} {
		t.Run(mode.name, func(t *testing.T) {
			f := fakeforge.New(t)
			repoRead := make(chan struct{})
			read := sync.OnceFunc(func() { close(repoRead) })
			f.Handle("GET /api/v1/repos/alice/site", func(w http.ResponseWriter, r *http.Request) {
				read()
				fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"full_name": "alice/site", "private": false, "owner": map[string]any{"login": "alice"}})
			})
			// The handler's own request is answered only once the
			// repository has been asked for: it proves the two overlap,
			// with no clock involved.
			f.Handle("GET /api/v1/repos/alice/site/issues/1", func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-repoRead:
					fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"body": "hello", "user": map[string]any{"login": "alice"}})
				case <-time.After(5 * time.Second):
					http.Error(w, "the repository was not read while the handler ran", http.StatusTeapot)
				}
			})
			r := runnerFor(f)
			r.Marks, r.Lockdown = mode.marks, mode.lockdwn
			refusing := tool.Def{Name: "t", Params: []tool.Param{tool.Owner(), tool.Repo()}, Output: note{},
				Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
					// Long enough for a request started with the call to
					// arrive; the test waits this only when all is well.
					select {
					case <-repoRead:
					case <-time.After(200 * time.Millisecond):
					}
					return nil, errors.New("t: that name climbs out of the repository")
				}}
			args := map[string]any{"owner": "alice", "repo": "site"}
			res := r.Call(context.Background(), refusing, args)
			require.True(t, res.IsError)
			assert.Empty(t, f.Requests(), "a refused call sent something")

			reading := refusing
			reading.Handler = func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
				is, resp, err := c.SDK(ctx).GetIssue("alice", "site", 1)
				if err := forgejo.Fail(resp, err, "get", "issue"); err != nil {
					return nil, err
				}
				return tool.JSON(note{Body: is.Body, Author: is.Poster.UserName})
			}
			res = r.Call(context.Background(), reading, args)
			require.False(t, res.IsError, text(t, res))
			assert.Contains(t, text(t, res), `"body":"hello"`, "the owner's text is shown")
			if mode.marks {
				assert.Contains(t, text(t, res), `"author_role":"owner"`)
			}
			var repoReads int
			for _, q := range f.Requests() {
				if q.Path == "/api/v1/repos/alice/site" {
					repoReads++
				}
			}
			assert.Equal(t, 1, repoReads, "the repository is read once per call")
		})
	}
}

// BenchmarkMarksOnASlowForge: a forge answering every request after 20 ms
// shows in ns/op how many round trips a marked call waits for one after
// the other: the tool's own, then (the repository having been read beside
// it) the author's three lookups at once: about 40 ms, where reading the
// repository after the tool made it 60.
func BenchmarkMarksOnASlowForge(b *testing.B) {
	const latency = 20 * time.Millisecond
	f := fakeforge.New(b)
	slow := func(status int, body any) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(latency)
			fakeforge.WriteJSON(w, status, body)
		}
	}
	f.Handle("GET /api/v1/repos/alice/site", slow(http.StatusOK, map[string]any{"full_name": "alice/site", "owner": map[string]any{"login": "alice"}}))
	f.Handle("GET /api/v1/repos/alice/site/issues/1", slow(http.StatusOK, map[string]any{"body": "hello", "user": map[string]any{"login": "eve"}}))
	f.Handle("GET /api/v1/repos/alice/site/collaborators/eve/permission", slow(http.StatusOK, map[string]any{"permission": "read"}))
	f.Handle("GET /api/v1/orgs/alice/members/eve", slow(http.StatusNotFound, map[string]any{}))
	f.Handle("GET /api/v1/repos/alice/site/collaborators/eve", slow(http.StatusNotFound, map[string]any{}))
	d := tool.Def{Name: "t", Params: []tool.Param{tool.Owner(), tool.Repo()}, Output: note{},
		Handler: func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
			is, resp, err := c.SDK(ctx).GetIssue("alice", "site", 1)
			if err := forgejo.Fail(resp, err, "get", "issue"); err != nil {
				return nil, err
			}
			return tool.JSON(note{Body: is.Body, Author: is.Poster.UserName})
		}}
	args := map[string]any{"owner": "alice", "repo": "site"}
	for _, marks := range []bool{false, true} {
		b.Run(fmt.Sprintf("marks=%v", marks), func(b *testing.B) {
			r := runnerFor(f)
			r.Marks = marks
			for b.Loop() {
				res := r.Call(context.Background(), d, args)
				if res.IsError || strings.Contains(text(b, res), `"author_role":"none"`) != marks {
					b.Fatalf("unexpected result: %v", res.Content)
				}
			}
		})
	}
}
