package issue_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// TestLiveListMyIssues: a user's work across repositories in one call:
// an issue they opened, one assigned to them, a pull request whose review
// is asked of them.
func TestLiveListMyIssues(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	me := f.NewUser(t)
	login := me.User
	require.Equal(t, http.StatusNoContent, f.Do(t, http.MethodPut, fmt.Sprintf("/repos/%s/%s/collaborators/%s", owner, repo, login),
		map[string]any{"permission": "write"}, nil))

	var opened, assigned, pr struct {
		Number int64 `json:"number"`
	}
	require.Equal(t, http.StatusCreated, me.Do(t, http.MethodPost, fmt.Sprintf("/repos/%s/%s/issues", owner, repo),
		map[string]any{"title": "opened by me"}, &opened))
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, fmt.Sprintf("/repos/%s/%s/issues", owner, repo),
		map[string]any{"title": "assigned to me", "assignees": []string{login}}, &assigned))
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, fmt.Sprintf("/repos/%s/%s/branches", owner, repo),
		map[string]any{"new_branch_name": "feature"}, nil))
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, fmt.Sprintf("/repos/%s/%s/contents/f.txt", owner, repo),
		map[string]any{"content": "Zgo=", "branch": "feature", "message": "f"}, nil))
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, fmt.Sprintf("/repos/%s/%s/pulls", owner, repo),
		map[string]any{"head": "feature", "base": "main", "title": "review me"}, &pr))
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, fmt.Sprintf("/repos/%s/%s/pulls/%d/requested_reviewers", owner, repo, pr.Number),
		map[string]any{"reviewers": []string{login}}, nil))

	// A closed issue of theirs is not open work.
	closed := me.NewIssue(t, owner, repo, "closed by me", "")
	require.Equal(t, http.StatusCreated, me.Do(t, http.MethodPatch, fmt.Sprintf("/repos/%s/%s/issues/%d", owner, repo, closed),
		map[string]any{"state": "closed"}, nil))

	list := func(args map[string]any) []string {
		t.Helper()
		res := me.Call(t, issue.Tools(), "list_my_issues", args)
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var page struct {
			Items []struct {
				Repo  string   `json:"repo"`
				Title string   `json:"title"`
				Via   []string `json:"via"`
			} `json:"items"`
		}
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
		var got []string
		for _, it := range page.Items {
			assert.Equal(t, owner+"/"+repo, it.Repo)
			got = append(got, it.Title+" "+strings.Join(it.Via, ","))
		}
		return got
	}
	assert.Equal(t, []string{"review me review_requested", "assigned to me assigned", "opened by me created"},
		list(map[string]any{}), "open work, each once, newest first")
	assert.Equal(t, []string{"review me review_requested"}, list(map[string]any{"type": "pulls"}))
	assert.Equal(t, []string{"closed by me created", "opened by me created"},
		list(map[string]any{"involved": "created", "state": "all"}))
}
