package pull_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
)

// TestCreatePullInOneCall: labels (by name), assignees, milestone and
// draft go in the one request that opens the pull request; reviewers
// follow; a follow-up that fails is named beside the opened pull request.
func TestCreatePullInOneCall(t *testing.T) {
	opened := maps.Clone(rawPull)
	opened["title"] = "WIP: Fix crash"
	opened["assignees"] = []any{map[string]any{"login": "bob"}}
	opened["milestone"] = map[string]any{"id": 3, "title": "v1"}
	in := map[string]any{"owner": "o", "repo": "r", "head": "fix", "base": "main", "title": "Fix crash",
		"labels": []any{"bug"}, "assignees": []any{"bob"}, "milestone": 3.0, "reviewers": []any{"carol"}, "draft": true}

	t.Run("all set", func(t *testing.T) {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{map[string]any{"id": 1, "name": "bug"}})
		f.JSON("GET /api/v1/orgs/o/labels", 404, map[string]any{"message": "not found"})
		f.JSON("POST /api/v1/repos/o/r/pulls", 201, opened)
		f.JSON("POST /api/v1/repos/o/r/pulls/4/requested_reviewers", 201, []any{})
		res := f.Call(t, pull.Tools(), "create_pull_request", in)
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.NotContains(t, fakeforge.Text(t, res), "incomplete")
		assert.Contains(t, fakeforge.Text(t, res), `"title":"WIP: Fix crash"`)
		var body map[string]any
		reqs := f.Requests()
		require.Len(t, reqs, 4)
		require.NoError(t, json.Unmarshal(reqs[2].Body, &body))
		assert.Equal(t, map[string]any{"head": "fix", "base": "main", "title": "WIP: Fix crash", "body": "",
			"labels": []any{1.0}, "assignees": []any{"bob"}, "milestone": 3.0}, body)
		var review map[string]any
		require.NoError(t, json.Unmarshal(reqs[3].Body, &review))
		assert.Equal(t, map[string]any{"reviewers": []any{"carol"}, "team_reviewers": []any{}}, review)
	})

	t.Run("follow-ups fail, the PR is kept", func(t *testing.T) {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{map[string]any{"id": 1, "name": "bug"}})
		f.JSON("GET /api/v1/orgs/o/labels", 404, map[string]any{"message": "not found"})
		f.JSON("POST /api/v1/repos/o/r/pulls", 201, rawPull) // no assignee, no milestone
		f.JSON("POST /api/v1/repos/o/r/pulls/4/requested_reviewers", 422, map[string]any{"message": "reviewer is not a collaborator"})
		res := f.Call(t, pull.Tools(), "create_pull_request", in)
		require.False(t, res.IsError, "the PR exists: never an error")
		var out struct {
			Number     int64  `json:"number"`
			Incomplete string `json:"incomplete"`
		}
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
		assert.Equal(t, int64(4), out.Number)
		assert.Contains(t, out.Incomplete, "PR #4 is open; assignees bob not set")
		assert.Contains(t, out.Incomplete, "milestone not set")
		assert.Contains(t, out.Incomplete, "review requests failed")
		assert.Contains(t, out.Incomplete, "reviewer is not a collaborator")
		assert.Contains(t, out.Incomplete, "create_review_requests")
	})

	t.Run("unknown label opens nothing", func(t *testing.T) {
		f := fakeforge.New(t)
		f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{map[string]any{"id": 1, "name": "bug"}})
		f.JSON("GET /api/v1/orgs/o/labels", 404, map[string]any{"message": "not found"})
		f.Handle("POST /api/v1/repos/o/r/pulls", func(w http.ResponseWriter, _ *http.Request) { t.Error("opened") })
		res := f.Call(t, pull.Tools(), "create_pull_request", map[string]any{"owner": "o", "repo": "r", "head": "fix", "base": "main", "title": "t", "labels": []any{"nope"}})
		require.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), "nothing opened")
		assert.Contains(t, fakeforge.Text(t, res), "nope")
	})
}
