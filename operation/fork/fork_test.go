package fork_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/fork"
)

func call(t *testing.T, f *fakeforge.Server, name string, args map[string]any) (bool, string) {
	t.Helper()
	args["owner"], args["repo"] = "me", "r"
	res := f.Call(t, fork.Tools(), name, args)
	return res.IsError, fakeforge.Text(t, res)
}

func last(f *fakeforge.Server) fakeforge.Request { r := f.Requests(); return r[len(r)-1] }

func TestListForks(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/me/r/forks", 200, []any{map[string]any{"full_name": "you/r", "fork": true, "default_branch": "main",
		"html_url": "http://forge/you/r", "updated_at": "2026-01-02T03:04:05Z"}})
	isErr, text := call(t, f, "list_repo_forks", map[string]any{"limit": 5.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"full_name":"you/r","private":false,"fork":true,"default_branch":"main","open_issues":0,
		"open_pulls":0,"stars":0,"updated_at":"2026-01-02T03:04:05Z","html_url":"http://forge/you/r"}],"page":1,"has_more":false}`, text)
	assert.Equal(t, "limit=5&page=1", last(f).RawQuery)
}

// TestSyncOnForgejo: Forgejo's sync_fork route, for the default branch or
// a named one; the status route's answer is shaped.
func TestSyncOnForgejo(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "15.0.3+gitea-1.22.0"})
	f.JSON("POST /api/v1/repos/me/r/sync_fork", 204, nil)
	f.JSON("POST /api/v1/repos/me/r/sync_fork/dev", 204, nil)
	f.JSON("GET /api/v1/repos/me/r/sync_fork/dev", 200, map[string]any{"allowed": true, "base_commit": "b4se", "commits_behind": 3, "fork_commit": "f0rk"})
	f.JSON("GET /api/v1/repos/me/r/sync_fork", 400, map[string]any{"message": "repo is not a fork"})

	isErr, text := call(t, f, "sync_fork", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"synced":true,"branch":""}`, text)
	assert.Equal(t, "/api/v1/repos/me/r/sync_fork", last(f).Path)
	isErr, text = call(t, f, "sync_fork", map[string]any{"branch": "dev"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"synced":true,"branch":"dev"}`, text)

	isErr, text = call(t, f, "get_fork_sync_status", map[string]any{"branch": "dev"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"branch":"dev","can_sync":true,"commits_behind":3,"fork_commit":"f0rk","upstream_commit":"b4se"}`, text)
	isErr, text = call(t, f, "get_fork_sync_status", map[string]any{})
	assert.True(t, isErr)
	assert.Contains(t, text, "read the sync status of fork me/r: the forge refused the request (400 Bad Request): repo is not a fork")

	isErr, text = call(t, f, "sync_fork", map[string]any{"ff_only": true})
	require.False(t, isErr, text)
	assert.Equal(t, "/api/v1/repos/me/r/sync_fork", last(f).Path, "Forgejo's route takes no option")
}

// TestSyncOnGitea: Gitea lacks sync_fork, so sync_fork takes its
// merge-upstream route, reading the default branch when none is given;
// the status route is refused saying what to do instead.
func TestSyncOnGitea(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "1.26.0"})
	f.JSON("GET /api/v1/repos/me/r", 200, map[string]any{"full_name": "me/r", "default_branch": "trunk"})
	f.JSON("POST /api/v1/repos/me/r/merge-upstream", 200, map[string]any{"merge_type": "fast-forward"})

	isErr, text := call(t, f, "sync_fork", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"synced":true,"branch":"trunk","how":"fast-forward"}`, text)
	var body map[string]any
	require.NoError(t, json.Unmarshal(last(f).Body, &body))
	assert.Equal(t, map[string]any{"branch": "trunk"}, body)

	isErr, text = call(t, f, "sync_fork", map[string]any{"branch": "dev", "ff_only": true})
	require.False(t, isErr, text)
	require.NoError(t, json.Unmarshal(last(f).Body, &body))
	assert.Equal(t, map[string]any{"branch": "dev", "ff_only": true}, body)
	assert.Empty(t, f.RequestsTo(http.MethodPost, "/api/v1/repos/me/r/sync_fork"))

	isErr, text = call(t, f, "get_fork_sync_status", map[string]any{})
	assert.True(t, isErr)
	assert.Contains(t, text, "has no such API route, so nothing was sent")
	assert.Contains(t, text, "compare_commits")
}

// TestSyncUnknownVersion: a Forgejo version the table does not know gets
// the sync_fork route; its router's 404 sends the call to merge-upstream.
func TestSyncUnknownVersion(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/version", 200, map[string]any{"version": "99.0.0+gitea-1.22.0"})
	f.Handle("POST /api/v1/repos/me/r/sync_fork/dev", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	f.JSON("POST /api/v1/repos/me/r/merge-upstream", 200, map[string]any{"merge_type": "merge"})
	isErr, text := call(t, f, "sync_fork", map[string]any{"branch": "dev"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"synced":true,"branch":"dev","how":"merge"}`, text)
}
