package pull_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLiveCreatePullInOneCall opens a draft PR with a label, an
// assignee, a milestone and a reviewer in one call, then reads each back
// from the forge; a reviewer the forge refuses is named beside the PR.
func TestLiveCreatePullInOneCall(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	f.AddCollaborator(t, owner, name, f.User2, "write")
	defs := append(append(repo.Tools(), pull.Tools()...), issue.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	call("create_repo_label", map[string]any{"name": "feature", "color": "#00aabb"})
	var ms struct {
		ID int64 `json:"id"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("create_milestone", map[string]any{"title": "v1"})), &ms))
	call("create_branch", map[string]any{"branch": "one"})
	call("create_file", map[string]any{"path": "one.txt", "content": "1\n", "message": "Add one", "branch": "one"})

	var pr struct {
		Number     int64    `json:"number"`
		Title      string   `json:"title"`
		Labels     []string `json:"labels"`
		Incomplete string   `json:"incomplete"`
	}
	text := call("create_pull_request", map[string]any{"head": "one", "base": "main", "title": "One", "draft": true,
		"labels": []any{"feature"}, "assignees": []any{f.User}, "milestone": float64(ms.ID), "reviewers": []any{f.User2}})
	require.NoError(t, json.Unmarshal([]byte(text), &pr))
	assert.Empty(t, pr.Incomplete, text)
	assert.Equal(t, "WIP: One", pr.Title)
	assert.Equal(t, []string{"feature"}, pr.Labels)

	var got struct {
		Draft     bool `json:"draft"`
		Assignees []struct {
			Login string `json:"login"`
		} `json:"assignees"`
		Milestone *struct {
			ID int64 `json:"id"`
		} `json:"milestone"`
		Reviewers []struct {
			Login string `json:"login"`
		} `json:"requested_reviewers"`
	}
	require.Equal(t, http.StatusOK, f.Do(t, "GET", fmt.Sprintf("/repos/%s/%s/pulls/%d", owner, name, pr.Number), nil, &got))
	assert.True(t, got.Draft)
	require.Len(t, got.Assignees, 1)
	assert.Equal(t, f.User, got.Assignees[0].Login)
	require.NotNil(t, got.Milestone)
	assert.Equal(t, ms.ID, got.Milestone.ID)
	require.Len(t, got.Reviewers, 1)
	assert.Equal(t, f.User2, got.Reviewers[0].Login)

	// A reviewer who cannot be asked: the PR is open all the same, and the
	// result says which step failed and what retries it.
	call("create_branch", map[string]any{"branch": "two"})
	call("create_file", map[string]any{"path": "two.txt", "content": "2\n", "message": "Add two", "branch": "two"})
	text = call("create_pull_request", map[string]any{"head": "two", "base": "main", "title": "Two", "reviewers": []any{"no-such-user-29"}})
	require.NoError(t, json.Unmarshal([]byte(text), &pr))
	assert.NotZero(t, pr.Number)
	assert.Contains(t, pr.Incomplete, fmt.Sprintf("PR #%d is open; review requests failed", pr.Number))
	assert.Contains(t, pr.Incomplete, "create_review_requests")
}
