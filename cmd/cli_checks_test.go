package cmd

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// ciForge answers get_ci_status for one commit with the states given, one
// per call (the last repeats).
func ciForge(t *testing.T, states ...string) (*fakeforge.Server, *int) {
	f := fakeforge.New(t)
	var mu sync.Mutex
	calls := 0
	f.Handle("GET /api/v1/repos/o/r/commits/"+ciSHAFixture+"/status", func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		state := states[min(calls, len(states)-1)]
		calls++
		mu.Unlock()
		if state == "" {
			fakeforge.WriteJSON(w, 200, map[string]any{"state": "pending", "total_count": 0, "statuses": []any{}})
			return
		}
		fakeforge.WriteJSON(w, 200, map[string]any{"state": state, "sha": ciSHAFixture, "total_count": 1,
			"statuses": []any{map[string]any{"context": "ci/test", "status": state}}})
	})
	f.JSON("GET /api/v1/repos/o/r/actions/runs", 404, map[string]any{"message": "not found"})
	return f, &calls
}

const ciSHAFixture = "0123456789abcdef0123456789abcdef01234567"

// TestCIExitCodes: get_ci_status's verdict is the exit status, as gh pr
// checks: 0 passed, 1 failed (or nothing reported), 8 pending; --watch
// waits while pending and answers with the final verdict.
func TestCIExitCodes(t *testing.T) {
	for _, tt := range []struct {
		state string
		code  int
	}{{"success", 0}, {"warning", 0}, {"failure", 1}, {"error", 1}, {"pending", 8}, {"", 1}} {
		t.Run(tt.state, func(t *testing.T) {
			f, _ := ciForge(t, tt.state)
			r := runMain(t, fakeEnv(f), "", "--cli", "get_ci_status", "-R", "o/r", "--ref", ciSHAFixture, "--jq", ".state")
			assert.Equal(t, tt.code, r.code, r.err)
		})
	}
	t.Run("--watch", func(t *testing.T) {
		f, calls := ciForge(t, "pending", "pending", "failure")
		r := runMain(t, fakeEnv(f), "", "--cli", "get_ci_status", "-R", "o/r", "--ref", ciSHAFixture, "--watch", "--interval", "10ms", "--jq", ".state")
		assert.Equal(t, 1, r.code, r.err)
		assert.Equal(t, "failure\n", r.out)
		assert.Equal(t, 3, *calls)
		assert.Contains(t, r.err, "checks pending on 0123456789ab; looking again in 1s")
	})
	t.Run("--watch is for get_ci_status", func(t *testing.T) {
		f, _ := ciForge(t, "success")
		r := runMain(t, fakeEnv(f), "", "--cli", "get_issue_by_index", "-R", "o/r", "--index", "1", "--watch")
		assert.Equal(t, ExitUsage, r.code)
		assert.Contains(t, r.err, "--watch")
	})
}
