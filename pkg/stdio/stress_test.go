package stdio_test

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/stdio"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestStress sends hundreds of concurrent calls through one connection:
// offline calls, forge calls and calls that are then cancelled. Every call
// that is not cancelled gets exactly one reply, carrying its own answer;
// cancelled calls get none; nothing leaks. Run it under -race.
func TestStress(t *testing.T) {
	const (
		n       = 600
		senders = 8
	)
	base := runtime.NumGoroutine()
	t.Cleanup(func() { settleGoroutines(t, base) })

	f := fakeforge.New(t)
	f.Handle("GET /api/v1/users/{name}", func(w http.ResponseWriter, r *http.Request) {
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"login": strings.TrimPrefix(r.URL.Path, "/api/v1/users/")})
	})
	whois := tool.Def{Name: "whois", Toolset: tool.Toolset{ID: "t"}, Description: "w", Annotations: tool.Read(),
		Params: []tool.Param{tool.Owner().Describe("login")},
		Handler: func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
			u, resp, err := c.SDK(ctx).GetUserInfo(a.String("owner"))
			if err := forgejo.Fail(resp, err, "get", "user"); err != nil {
				return nil, err
			}
			return tool.JSON(map[string]string{"text": u.UserName})
		}}
	g := newGate()
	r := forgeRunner(f.BaseURL(), 10*time.Second, 20*time.Second, 0)
	w := serve(t, []tool.Def{echo(), whois, g.def()}, r, stdio.Limits{MaxOutstanding: n + 10})

	// kind of call i: 0 echo, 1 forge, 2 blocked then cancelled.
	kind := func(i int) int {
		switch {
		case i%10 == 0:
			return 2
		case i%3 == 0:
			return 1
		}
		return 0
	}
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			for i := s; i < n; i += senders {
				arg := fmt.Sprintf("v%d", i)
				switch kind(i) {
				case 0:
					w.sendJSON(call(i, "echo", map[string]any{"text": arg}))
				case 1:
					w.sendJSON(call(i, "whois", map[string]any{"owner": arg}))
				case 2:
					w.sendJSON(call(i, "block", map[string]any{"tag": arg}))
				}
			}
		})
	}
	wg.Wait()
	blocked := 0
	for i := range n {
		if kind(i) == 2 {
			blocked++
		}
	}
	waitStarted(t, g, blocked)
	for i := range n {
		if kind(i) == 2 {
			w.sendJSON(cancelled(i))
		}
	}

	seen := map[int]bool{}
	for range n - blocked {
		m := w.recv()
		id := int(m["id"].(float64))
		require.False(t, seen[id], "one reply per id (%d)", id)
		seen[id] = true
		require.NotEqual(t, 2, kind(id), "no reply for cancelled call %d", id)
		isErr, text := toolText(t, m)
		require.False(t, isErr, "call %d: %s", id, text)
		assert.JSONEq(t, fmt.Sprintf(`{"text":"v%d"}`, id), text, "call %d got its own answer", id)
	}
	w.none(300 * time.Millisecond)
	for range blocked {
		select {
		case <-g.causes:
		case <-time.After(5 * time.Second):
			t.Fatal("a cancelled call did not see its cancellation")
		}
	}
}
