package pull_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLiveFindPulls: the PR of a branch and of a commit (an open PR's head
// and a merged PR's merge commit), by base, author and labels; and "PRs
// awaiting my review" and "issues assigned to me" in one call each.
func TestLiveFindPulls(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := append(append(repo.Tools(), pull.Tools()...), issue.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	open := func(branch string) (n float64, sha string) {
		call("create_branch", map[string]any{"branch": branch})
		call("create_file", map[string]any{"path": branch + ".txt", "content": branch + "\n", "message": "Add " + branch, "branch": branch})
		var pr struct {
			Number  int64  `json:"number"`
			HeadSHA string `json:"head_sha"`
		}
		require.NoError(t, json.Unmarshal([]byte(call("create_pull_request", map[string]any{"head": branch, "base": "main", "title": branch})), &pr))
		return float64(pr.Number), pr.HeadSHA
	}
	one, oneSHA := open("one")
	two, twoSHA := open("two")
	merged, _ := open("merged")
	call("create_repo_label", map[string]any{"name": "ready", "color": "00ff00"})
	call("add_issue_labels", map[string]any{"index": two, "labels": []any{"ready"}})
	var m struct {
		MergeSHA string `json:"merge_commit_sha"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("merge_pull_request", map[string]any{"index": merged})), &m))
	require.NotEmpty(t, m.MergeSHA)

	find := func(args map[string]any) []int {
		t.Helper()
		var page struct {
			Items []struct {
				Number int `json:"number"`
			} `json:"items"`
			Note string `json:"note"`
		}
		require.NoError(t, json.Unmarshal([]byte(call("list_repo_pull_requests", args)), &page))
		assert.Empty(t, page.Note)
		var out []int
		for _, i := range page.Items {
			out = append(out, i.Number)
		}
		return out
	}
	assert.Equal(t, []int{int(one)}, find(map[string]any{"head": "one"}))
	assert.Equal(t, []int{int(two)}, find(map[string]any{"head": "two", "base": "main"}))
	assert.Empty(t, find(map[string]any{"head": "two", "base": "other"}))
	assert.Equal(t, []int{int(one)}, find(map[string]any{"sha": oneSHA[:10]}), "an open PR's head commit")
	assert.Equal(t, []int{int(two)}, find(map[string]any{"sha": twoSHA}))
	assert.Empty(t, find(map[string]any{"sha": m.MergeSHA}), "merged PRs are closed: not in state=open")
	assert.Equal(t, []int{int(merged)}, find(map[string]any{"sha": m.MergeSHA, "state": "all"}), "a merged PR's merge commit")
	assert.Equal(t, []int{int(two)}, find(map[string]any{"labels": []any{"ready"}}))
	assert.ElementsMatch(t, []int{int(one), int(two)}, find(map[string]any{"author": f.User}))
	assert.Empty(t, find(map[string]any{"author": f.User2}))
	assert.Equal(t, []int{int(one), int(two)}, find(map[string]any{"sort": "oldest"}))

	// forgeuser2 is asked to review #one and is assigned an issue.
	var raw []byte
	require.Equal(t, http.StatusNoContent, f.Do(t, http.MethodPut, fmt.Sprintf("/repos/%s/%s/collaborators/%s", owner, name, f.User2),
		map[string]any{"permission": "write"}, &raw), string(raw))
	call("create_review_requests", map[string]any{"index": one, "reviewers": []any{f.User2}})
	assigned := f.NewIssue(t, owner, name, "for user2", "")
	call("update_issue", map[string]any{"index": float64(assigned), "assignees": []any{f.User2}})

	as2 := f.WithToken(f.Token2)
	search := func(args map[string]any) []string {
		t.Helper()
		args["owner"] = owner
		res := as2.Call(t, defs, "search_issues", args)
		require.False(t, res.IsError)
		var page struct {
			Items []struct {
				Repo   string `json:"repo"`
				Number int    `json:"number"`
			} `json:"items"`
		}
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
		var out []string
		for _, i := range page.Items {
			out = append(out, fmt.Sprintf("%s#%d", i.Repo, i.Number))
		}
		return out
	}
	full := owner + "/" + name
	assert.Equal(t, []string{fmt.Sprintf("%s#%d", full, int(one))}, search(map[string]any{"involved": "review_requested"}))
	assert.Equal(t, []string{fmt.Sprintf("%s#%d", full, assigned)}, search(map[string]any{"involved": "assigned"}))
	assert.Empty(t, search(map[string]any{"involved": "created"}))

	text := call("list_repo_issues", map[string]any{"assignee": f.User2})
	assert.Contains(t, text, `"title":"for user2"`)
	text = call("list_repo_issues", map[string]any{"type": "pulls", "author": f.User, "state": "all"})
	assert.Contains(t, text, `"title":"merged"`)
}
