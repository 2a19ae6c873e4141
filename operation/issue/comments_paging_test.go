package issue_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// Both recorded forges answer an issue's comments whole: asked for limit=1
// they sent both comments (Forgejo 13.0.5 seq 230, Gitea 1.26.0 seq 220).
// The tool pages them itself, so page 1 of limit 1 is one comment with more
// to come, and page 2 the other, not the same two again.
func TestCommentsPagedHereWhenTheForgeIgnoresLimit(t *testing.T) {
	recs, err := fakeforge.Recordings()
	require.NoError(t, err)
	for _, rec := range recs {
		f := fakeforge.New(t)
		f.Replay(rec, "list_issue_comments")
		var ids []int64
		for _, c := range []struct {
			page  float64
			count int
			more  bool
		}{{1, 1, true}, {2, 1, false}, {3, 0, false}} {
			res := f.Call(t, issue.Tools(), "list_issue_comments", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec",
				"index": 1.0, "limit": 1.0, "page": c.page})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			var got struct {
				Items []struct {
					ID int64 `json:"id"`
				} `json:"items"`
				HasMore bool `json:"has_more"`
			}
			require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
			assert.Len(t, got.Items, c.count, "%s page %v", rec.Name, c.page)
			assert.Equal(t, c.more, got.HasMore, "%s page %v", rec.Name, c.page)
			for _, it := range got.Items {
				ids = append(ids, it.ID)
			}
		}
		require.Len(t, ids, 2, rec.Name)
		assert.NotEqual(t, ids[0], ids[1], "%s: page 2 is the other comment", rec.Name)
	}
}
