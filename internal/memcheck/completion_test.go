package memcheck

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"sync"
	"testing"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// refCount is how many refs the hostile forge answers git/refs with: 240,000
// refs make 31.4 MiB of JSON, under the 32 MiB response cap (security issue
// 18, item 4: 31.6 MiB).
const refCount = 240_000

// TestCompletionMemory measures completion/complete of a branch name
// against a forge whose repository has 240,000 refs: one completion on
// stdio, and 16 at once over HTTP, each a fresh process.
func TestCompletionMemory(t *testing.T) {
	if os.Getenv(envRun) == "" {
		t.Skipf("set %s=1 to run (scripts/check does, as its own step)", envRun)
	}
	bin := binary(t)
	answer := fakeforge.ManyRefs(refCount)
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/git/refs", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, _ *http.Request) {
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": 1, "login": "alice"})
	})
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "FORGEJO_ACCESS_TOKEN=memcheck-token-0123456789"}
	complete := []byte(`{"jsonrpc":"2.0","id":"c","method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"review_pull_request"},` +
		`"argument":{"name":"branch","value":"branch-00"},"context":{"arguments":{"owner":"o","repo":"r"}}}}`)
	complete = bytes.Replace(complete, []byte(`"ref":{"type":"ref/prompt","name":"review_pull_request"}`),
		[]byte(`"ref":{"type":"ref/resource","uri":"forgejo://{owner}/{repo}/files/{+path}{?ref}"}`), 1)
	complete = bytes.Replace(complete, []byte(`"name":"branch"`), []byte(`"name":"ref"`), 1)
	cs := &cases{t: t}
	cs.run("stdio/completion-240k-refs", stdioTargetMB, func(t *testing.T) (int64, string) {
		p := startStdio(t, bin, f.URL, env)
		p.roundTrip(t, []byte(`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"memcheck","version":"1"}}}`))
		reply := p.roundTrip(t, complete)
		return p.peak(t), completionNote(reply)
	})
	cs.run("http/completion-240k-refs-x16", httpTargetMB, func(t *testing.T) (int64, string) {
		h := startHTTP(t, bin, f.URL, env)
		var replies []map[string]any
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				reply, err := h.do("memcheck-token-0123456789", complete)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					reply = map[string]any{"http": err.Error()}
				}
				replies = append(replies, reply)
			})
		}
		wg.Wait()
		notes := map[string]int{}
		for _, r := range replies {
			notes[completionNote(r)]++
		}
		return h.peak(t), counts("%s", notes)
	})
	report(t, cs.rows)
}

// completionNote says what a completion answered: how many values, the
// total and whether more exist.
func completionNote(reply map[string]any) string {
	res, ok := reply["result"].(map[string]any)
	if !ok {
		return summary(reply)
	}
	c, _ := res["completion"].(map[string]any)
	values, _ := c["values"].([]any)
	return fmt.Sprintf("%d values, total %v, hasMore %v", len(values), c["total"], c["hasMore"])
}
