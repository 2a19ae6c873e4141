package issue_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestLiveIssueTimeline(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	base := fmt.Sprintf("/repos/%s/%s", owner, repo)
	n := f.NewIssue(t, owner, repo, "Target", "")
	f.NewComment(t, owner, repo, n, "First look")
	var label, ms struct{ ID int64 }
	f.Do(t, "POST", base+"/labels", map[string]any{"name": "bug", "color": "#ff0000"}, &label)
	f.Do(t, "POST", base+"/milestones", map[string]any{"title": "v1"}, &ms)
	f.Do(t, "POST", fmt.Sprintf("%s/issues/%d/labels", base, n), map[string]any{"labels": []int64{label.ID}}, nil)
	f.Do(t, "PATCH", fmt.Sprintf("%s/issues/%d", base, n), map[string]any{"assignees": []string{f.User}, "milestone": ms.ID}, nil)
	f.Do(t, "PATCH", fmt.Sprintf("%s/issues/%d", base, n), map[string]any{"state": "closed"}, nil)
	other := f.NewIssue(t, owner, repo, "Other", fmt.Sprintf("Related to #%d", n))
	f.Do(t, "POST", base+"/contents/fix.txt", map[string]any{"content": "eA==", "message": fmt.Sprintf("Touch #%d", n)}, nil)
	defs := issue.Tools()

	// The forge records a commit's mention asynchronously: wait for it.
	var page tool.ListPage[issue.Event]
	require.Eventually(t, func() bool {
		res := f.Call(t, defs, "get_issue_timeline", map[string]any{"owner": owner, "repo": repo, "index": n, "limit": 50})
		page = tool.ListPage[issue.Event]{}
		if res.IsError || len(res.Content) == 0 {
			return false
		}
		tc, ok := res.Content[0].(mcp.TextContent) // no require: this runs outside the test's goroutine
		if !ok || json.Unmarshal([]byte(tc.Text), &page) != nil || len(page.Items) == 0 {
			return false
		}
		return page.Items[len(page.Items)-1].Type == "commit_ref"
	}, 20*time.Second, 250*time.Millisecond, "the commit mentioning the issue shows in its timeline")
	assert.False(t, page.HasMore)
	byType := map[string]issue.Event{}
	for _, e := range page.Items {
		assert.Equal(t, f.User, e.Actor, e.Type)
		assert.False(t, e.Created.IsZero(), e.Type)
		byType[e.Type] = e
	}
	assert.Equal(t, "First look", byType["comment"].Body)
	assert.Equal(t, "bug", byType["label"].Label)
	assert.False(t, byType["label"].Removed)
	assert.Equal(t, f.User, byType["assignees"].Assignee)
	assert.Equal(t, "v1", byType["milestone"].To)
	assert.Contains(t, byType, "close")
	assert.Equal(t, fmt.Sprintf("%s/%s#%d", owner, repo, other), byType["issue_ref"].Ref)
	assert.Equal(t, "Other", byType["issue_ref"].RefTitle)
	assert.Len(t, byType["commit_ref"].Commit, 40)
	assert.Empty(t, byType["commit_ref"].Body, "the forge's HTML link is left out")

	// Paged: a page of 2 says more follow, and the next page goes on.
	text := f.RepoCaller(t, defs, owner, repo)("get_issue_timeline", map[string]any{"index": n, "limit": 2, "page": 2})
	var p2 tool.ListPage[issue.Event]
	require.NoError(t, json.Unmarshal([]byte(text), &p2), text)
	require.Len(t, p2.Items, 2)
	assert.True(t, p2.HasMore)
	assert.Equal(t, page.Items[2].ID, p2.Items[0].ID)

	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`,
		f.RepoCaller(t, defs, owner, repo)("get_issue_timeline", map[string]any{"index": n, "since": "2100-01-01"}))

	res := f.Call(t, defs, "get_issue_timeline", map[string]any{"owner": owner, "repo": repo, "index": 999})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("issue %s/%s#999 not found (404)", owner, repo))

	res = f.WithToken(f.Token2).Call(t, defs, "get_issue_timeline", map[string]any{"owner": owner, "repo": repo, "index": n})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}

func TestLivePullRequestTimelinePush(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	base := fmt.Sprintf("/repos/%s/%s", owner, repo)
	f.Do(t, "POST", base+"/contents/a.txt", map[string]any{"content": "eA==", "message": "a", "branch": "main", "new_branch": "feat"}, nil)
	var pr struct{ Number int64 }
	f.Do(t, "POST", base+"/pulls", map[string]any{"title": "PR", "head": "feat", "base": "main"}, &pr)
	require.Positive(t, pr.Number)
	var pushed struct{ Commit struct{ SHA string } }
	f.Do(t, "POST", base+"/contents/b.txt", map[string]any{"content": "eQ==", "message": "b", "branch": "feat"}, &pushed)
	require.Len(t, pushed.Commit.SHA, 40)
	defs := issue.Tools()

	// The forge records a push to a pull request asynchronously: wait for it.
	require.Eventually(t, func() bool {
		res := f.Call(t, defs, "get_issue_timeline", map[string]any{"owner": owner, "repo": repo, "index": pr.Number})
		if res.IsError || len(res.Content) == 0 {
			return false
		}
		tc, ok := res.Content[0].(mcp.TextContent) // no require: this runs outside the test's goroutine
		var page tool.ListPage[issue.Event]
		if !ok || json.Unmarshal([]byte(tc.Text), &page) != nil {
			return false
		}
		for _, e := range page.Items {
			if e.Type == "pull_push" && len(e.Commits) == 1 && e.Commits[0] == pushed.Commit.SHA && e.Body == "" {
				return true
			}
		}
		return false
	}, 20*time.Second, 250*time.Millisecond, "the push of %s shows in the pull request's timeline as its commit", pushed.Commit.SHA)
}
