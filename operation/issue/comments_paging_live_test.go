package issue_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// The live forge answers an issue's comments whole whatever limit says
// (as both recorded forges did): paged by the tool, three comments at
// limit 2 are two pages, each comment once.
func TestLiveCommentsPagedByTheTool(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	n := f.NewIssue(t, owner, repo, "Paged", "")
	var want []int64
	for _, body := range []string{"one", "two", "three"} {
		want = append(want, f.NewComment(t, owner, repo, n, body))
	}
	var got []int64
	for page, c := range []struct {
		count int
		more  bool
	}{{2, true}, {1, false}, {0, false}} {
		res := f.Call(t, issue.Tools(), "list_issue_comments", map[string]any{"owner": owner, "repo": repo,
			"index": float64(n), "limit": 2.0, "page": float64(page + 1)})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var out struct {
			Items []struct {
				ID int64 `json:"id"`
			} `json:"items"`
			HasMore bool `json:"has_more"`
		}
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
		assert.Len(t, out.Items, c.count, "page %d", page+1)
		assert.Equal(t, c.more, out.HasMore, "page %d", page+1)
		for _, it := range out.Items {
			got = append(got, it.ID)
		}
	}
	assert.Equal(t, want, got, "every comment once, in order")
}
