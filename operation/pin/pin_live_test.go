package pin_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/pin/

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pin"
)

// TestLivePins: two issues are pinned, listed in pin order, reordered and
// unpinned on a real forge; a user who cannot write cannot pin.
func TestLivePins(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewPublicRepo(t)
	one := f.NewIssue(t, owner, repo, "first to pin", "")
	two := f.NewIssue(t, owner, repo, "second to pin", "")
	call := f.RepoCaller(t, pin.Tools(), owner, repo)
	numbers := func() []int64 {
		var page struct {
			Items []pin.Pinned `json:"items"`
		}
		require.NoError(t, json.Unmarshal([]byte(call("list_pinned_issues", map[string]any{})), &page))
		var out []int64
		for _, p := range page.Items {
			out = append(out, p.Number)
		}
		return out
	}

	assert.Empty(t, numbers())
	assert.JSONEq(t, `{"number":`+itoa(one)+`,"pinned":true}`, call("pin_issue", map[string]any{"index": float64(one)}))
	call("pin_issue", map[string]any{"index": float64(two)})
	assert.Equal(t, []int64{one, two}, numbers())
	call("move_issue_pin", map[string]any{"index": float64(two), "position": 1.0})
	assert.Equal(t, []int64{two, one}, numbers())
	assert.Contains(t, call("list_pinned_issues", map[string]any{}), `"title":"second to pin"`)
	assert.Contains(t, call("list_pinned_issues", map[string]any{"kind": "pulls"}), `"items":[]`)

	res := f.WithToken(f.Token2).Call(t, pin.Tools(), "unpin_issue", map[string]any{"owner": owner, "repo": repo, "index": float64(one)})
	require.True(t, res.IsError, "a reader cannot unpin")
	assert.Contains(t, fakeforge.Text(t, res), "issue "+owner+"/"+repo+"#"+itoa(one))

	call("unpin_issue", map[string]any{"index": float64(two)})
	assert.Equal(t, []int64{one}, numbers())
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
