package repo_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// rawFork is the forge's repository object of a fork, with the noise the
// compact shape leaves out.
var rawFork = map[string]any{
	"id": 12, "name": "demo", "full_name": "team/demo", "description": "A fork", "private": false, "fork": true,
	"owner": map[string]any{"login": "team", "avatar_url": "http://x/t"}, "default_branch": "main",
	"parent":      map[string]any{"full_name": "alice/demo", "owner": map[string]any{"login": "alice"}},
	"permissions": map[string]any{"admin": false, "push": true, "pull": true}, "size": 42,
	"topics": []any{"go", "mcp"}, "open_issues_count": 2, "open_pr_counter": 1, "stars_count": 3, "forks_count": 0,
	"html_url": "http://x/team/demo", "clone_url": "http://x/team/demo.git", "updated_at": "2026-01-02T03:04:05Z",
	"archived": false, "empty": false, "mirror": false,
}

const forkJSON = `{"full_name":"team/demo","description":"A fork","default_branch":"main","private":false,"fork":true,
	"parent":"alice/demo","archived":false,"empty":false,"permissions":{"admin":false,"push":true,"pull":true},
	"size_kib":42,"topics":["go","mcp"],"open_issues":2,"open_pulls":1,"stars":3,"forks":0,
	"updated_at":"2026-01-02T03:04:05Z","html_url":"http://x/team/demo"}`

func TestGetRepo(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/team/demo", 200, rawFork)
	res := f.Call(t, repo.Tools(), "get_repo", map[string]any{"owner": "team", "repo": "demo"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, forkJSON, fakeforge.Text(t, res))
	assert.Len(t, f.Requests(), 1, "topics come in the repository object: one call")
}

func TestGetRepoNoTopics(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/alice/demo", 200, rawRepo)
	res := f.Call(t, repo.Tools(), "get_repo", map[string]any{"owner": "alice", "repo": "demo"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
	assert.Equal(t, []any{}, got["topics"], "no topics is an empty list, never null")
	assert.NotContains(t, got, "parent", "not a fork: no parent")
}

func TestGetRepoErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   map[string]any
		status int
		want   string
	}{
		{"missing", map[string]any{"owner": "alice", "repo": "nope"}, 404,
			"repository alice/nope not found (404): it does not exist or this token cannot see it"},
		{"bad name", map[string]any{"owner": "alice", "repo": "../x"}, 0, `argument "repo" must contain letters, digits`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/alice/nope", tc.status, map[string]string{"message": "The target couldn't be found."})
			res := f.Call(t, repo.Tools(), "get_repo", tc.args)
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}
}

func TestForkRepo(t *testing.T) {
	for _, tc := range []struct {
		name string
		args map[string]any
		sent string
	}{
		{"into the user", map[string]any{}, `{}`},
		{"into an organisation, renamed", map[string]any{"organization": "team", "name": "demo2"}, `{"organization":"team","name":"demo2"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("POST /api/v1/repos/alice/demo/forks", 202, rawFork)
			tc.args["owner"], tc.args["repo"] = "alice", "demo"
			res := f.Call(t, repo.Tools(), "fork_repo", tc.args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, forkJSON, fakeforge.Text(t, res))
			assert.JSONEq(t, tc.sent, string(f.Requests()[0].Body))
		})
	}
}

func TestForkRepoErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   map[string]any
		status int
		msg    string
		want   string
	}{
		{"repository missing", map[string]any{}, 404, "", "repository alice/demo not found (404)"},
		{"organisation or repository missing", map[string]any{"organization": "ghost"}, 404, "",
			"fork repository alice/demo into organisation ghost: the repository or the organisation does not exist (404)"},
		{"already forked", map[string]any{}, 409, "repository is already forked by user",
			"fork repository alice/demo into the token's user: conflict (409), it may already exist: repository is already forked by user"},
		{"bad organisation", map[string]any{"organization": "a/b"}, 0, "", `argument "organization" must contain letters, digits`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("POST /api/v1/repos/alice/demo/forks", tc.status, map[string]string{"message": tc.msg})
			tc.args["owner"], tc.args["repo"] = "alice", "demo"
			res := f.Call(t, repo.Tools(), "fork_repo", tc.args)
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}
}
