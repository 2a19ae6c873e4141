package repo_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

const compactRawRepo = `{"full_name":"alice/demo","description":"A demo","private":true,"default_branch":"main",
	"open_issues":2,"open_pulls":1,"stars":3,"updated_at":"2026-01-02T03:04:05Z","html_url":"http://x/alice/demo"}`

func TestListUserRepos(t *testing.T) {
	tests := []struct {
		tool, route string
		args        map[string]any
		subject     string
	}{
		{"list_user_repos", "/api/v1/users/alice/repos", map[string]any{"user": "alice"}, "user alice"},
	}
	for _, tc := range tests {
		t.Run(tc.tool, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET "+tc.route, 200, []any{rawRepo, rawRepo})
			args := map[string]any{"limit": 2.0, "page": 3.0}
			for k, v := range tc.args {
				args[k] = v
			}
			res := f.Call(t, repo.Tools(), tc.tool, args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, `{"items":[`+compactRawRepo+`,`+compactRawRepo+`],"page":3,"has_more":true}`, fakeforge.Text(t, res))
			assert.Equal(t, "limit=2&page=3", f.LastQuery(t).Encode())

			f2 := fakeforge.New(t)
			res = f2.Call(t, repo.Tools(), tc.tool, tc.args)
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.subject+" not found (404)")
		})
	}
}

func TestListAssigneeCandidates(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/assignees", 200, []any{map[string]any{"id": 1, "login": "alice", "full_name": "Alice A."}, map[string]any{"id": 2, "login": "bob"}})
	res := f.Call(t, repo.Tools(), "list_assignee_candidates", map[string]any{"owner": "o", "repo": "r"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"login":"alice","full_name":"Alice A."},{"login":"bob"}],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	f2 := fakeforge.New(t)
	f2.JSON("GET /api/v1/repos/o/r/assignees", 404, map[string]any{"message": "not found"})
	res = f2.Call(t, repo.Tools(), "list_assignee_candidates", map[string]any{"owner": "o", "repo": "r"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "repository o/r not found (404)")
}
