package issue_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// TestLiveIssueFilters: label filters are honoured or refused, the time
// window is honoured, due dates are set and removed, and a comment on a
// missing issue is "not found" — against the live forge.
func TestLiveIssueFilters(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := issue.Tools()
	call := f.RepoCaller(t, defs, owner, name)
	titles := func(text string) []string {
		var page struct {
			Items []struct {
				Title string `json:"title"`
			} `json:"items"`
		}
		require.NoError(t, json.Unmarshal([]byte(text), &page), text)
		out := []string{}
		for _, i := range page.Items {
			out = append(out, i.Title)
		}
		return out
	}
	call("create_repo_label", map[string]any{"name": "la", "color": "#ff0000"})
	call("create_repo_label", map[string]any{"name": "lb", "color": "#00ff00"})
	a := f.NewIssue(t, owner, name, "has a", "")
	ab := f.NewIssue(t, owner, name, "has a b", "")
	f.NewIssue(t, owner, name, "has none", "")
	call("add_issue_labels", map[string]any{"index": float64(a), "labels": []any{"la"}})
	call("add_issue_labels", map[string]any{"index": float64(ab), "labels": []any{"la", "lb"}})

	res := f.Call(t, defs, "list_repo_issues", map[string]any{"owner": owner, "repo": name, "labels": []any{"la", "nosuch"}})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf(`no label "nosuch" in repository %s/%s; its labels are: la, lb`, owner, name), fakeforge.Text(t, res))
	assert.Equal(t, []string{"has a b"}, titles(call("list_repo_issues", map[string]any{"labels": []any{"LA", "lb"}})))
	assert.ElementsMatch(t, []string{"has a b", "has a"}, titles(call("list_repo_issues", map[string]any{"labels": []any{"la"}})))

	search := func(args map[string]any) []string {
		args["owner"], args["limit"] = owner, 50.0
		res := f.Call(t, defs, "search_issues", args)
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var page struct {
			Items []struct {
				Repo  string `json:"repo"`
				Title string `json:"title"`
			} `json:"items"`
		}
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
		out := []string{}
		for _, i := range page.Items {
			if i.Repo == owner+"/"+name { // other tests' repositories share the owner
				out = append(out, i.Title)
			}
		}
		return out
	}
	assert.Equal(t, []string{"has a b"}, search(map[string]any{"labels": []any{"la", "lb"}, "query": "has"}))
	assert.Empty(t, search(map[string]any{"labels": []any{"nosuch"}, "query": "has"}))

	assert.Empty(t, titles(call("list_repo_issues", map[string]any{"since": "2999-01-01"})))
	assert.Empty(t, titles(call("list_repo_issues", map[string]any{"before": "2000-01-01"})))
	assert.Len(t, titles(call("list_repo_issues", map[string]any{"since": "2000-01-01", "before": "2999-01-01"})), 3)
	f.NewComment(t, owner, name, a, "a comment")
	assert.Contains(t, call("list_issue_comments", map[string]any{"index": float64(a), "since": "2000-01-01"}), "a comment")
	assert.NotContains(t, call("list_issue_comments", map[string]any{"index": float64(a), "since": "2999-01-01"}), "a comment")

	due := func() any {
		var got map[string]any
		require.Equal(t, 200, f.Do(t, "GET", fmt.Sprintf("/repos/%s/%s/issues/%d", owner, name, a), nil, &got))
		return got["due_date"]
	}
	call("update_issue", map[string]any{"index": float64(a), "due_date": "2027-03-04T12:00:00Z"})
	assert.Contains(t, due(), "2027-03-04")
	call("update_issue", map[string]any{"index": float64(a), "due_date": ""})
	assert.Nil(t, due())

	res = f.Call(t, defs, "create_issue_comment", map[string]any{"owner": owner, "repo": name, "index": 999.0, "body": "x"})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("issue %s/%s#999 not found (404): it does not exist or this token cannot see it: issue does not exist", owner, name), fakeforge.Text(t, res))
	res = f.Call(t, defs, "list_issue_comments", map[string]any{"owner": owner, "repo": name, "index": 999.0})
	require.True(t, res.IsError)
	assert.NotContains(t, fakeforge.Text(t, res), "retry later")

	// A missing repository is named as such, not as a missing issue.
	res = f.Call(t, defs, "get_issue_by_index", map[string]any{"owner": owner, "repo": name + "-nope", "index": 1.0})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("repository %s/%s-nope not found (404): it does not exist or this token cannot see it", owner, name), fakeforge.Text(t, res))

	anon := f.WithToken("")
	res = anon.Call(t, defs, "create_issue", map[string]any{"owner": owner, "repo": name, "title": "x"})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("repository %s/%s not found (404): no access token is set, so only public data is visible; if it exists and is private, set FORGEJO_ACCESS_TOKEN or --token-file (over HTTP, send an Authorization header)", owner, name), fakeforge.Text(t, res))
}
