package repo_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

func rawStatus(context, state string) map[string]any {
	return map[string]any{"id": 1, "status": state, "context": context, "description": "d", "target_url": "https://ci/1",
		"url": "http://x/api", "creator": map[string]any{"login": "ci-bot", "avatar_url": "http://x/a"},
		"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z"}
}

func TestGetCommitStatus(t *testing.T) {
	for _, tc := range []struct {
		name  string
		forge map[string]any
		want  string
	}{
		{"two checks", map[string]any{"state": "failure", "sha": "c0ffee", "total_count": 2,
			"statuses":   []any{rawStatus("ci/lint", "success"), rawStatus("ci/test", "failure")},
			"repository": map[string]any{"full_name": "o/r"}, "commit_url": "http://x", "url": "http://x"},
			`{"state":"failure","sha":"c0ffee","total_count":2,"statuses":[
			{"context":"ci/lint","state":"success","description":"d","target_url":"https://ci/1","creator":"ci-bot","updated_at":"2026-01-02T03:04:05Z"},
			{"context":"ci/test","state":"failure","description":"d","target_url":"https://ci/1","creator":"ci-bot","updated_at":"2026-01-02T03:04:05Z"}]}`},
		{"none yet", map[string]any{"state": "pending", "sha": "c0ffee", "total_count": 0, "statuses": []any{}},
			`{"state":"pending","sha":"c0ffee","total_count":0,"statuses":[],"note":"no check has reported a status on this commit"}`},
		{"more than a page", map[string]any{"state": "success", "sha": "c0ffee", "total_count": 60, "statuses": []any{rawStatus("a", "success")}},
			`{"state":"success","sha":"c0ffee","total_count":60,"statuses":[{"context":"a","state":"success","description":"d",
			"target_url":"https://ci/1","creator":"ci-bot","updated_at":"2026-01-02T03:04:05Z"}],
			"note":"1 of 60 checks shown; list_commit_statuses pages through all statuses"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/commits/c0ffee/status", 200, tc.forge)
			res := f.Call(t, repo.Tools(), "get_commit_status", map[string]any{"owner": "o", "repo": "r", "ref": "c0ffee"})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, tc.want, fakeforge.Text(t, res))
			assert.Equal(t, "limit=50&page=1", f.Requests()[0].RawQuery)
		})
	}
}

func TestListCommitStatuses(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/commits", 200, []any{map[string]any{"sha": "c0ffee"}})
	f.JSON("GET /api/v1/repos/o/r/commits/c0ffee/statuses", 200, []any{rawStatus("ci/lint", "success"), rawStatus("ci/lint", "pending")})
	res := f.Call(t, repo.Tools(), "list_commit_statuses", map[string]any{"owner": "o", "repo": "r", "ref": "feature/x", "limit": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var got struct {
		Items   []repo.Status `json:"items"`
		HasMore bool          `json:"has_more"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
	require.Len(t, got.Items, 2)
	assert.Equal(t, "pending", got.Items[1].State)
	assert.True(t, got.HasMore, "a full page may have more")
	assert.Contains(t, f.Requests()[0].RawQuery, "sha=feature%2Fx")
}

func TestCreateCommitStatus(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/statuses/main", 201, rawStatus("ci/lint", "success"))
	res := f.Call(t, repo.Tools(), "create_commit_status", map[string]any{"owner": "o", "repo": "r", "ref": "main",
		"state": "success", "context": "ci/lint", "description": "clean", "target_url": "https://ci/1"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"context":"ci/lint","state":"success","description":"d","target_url":"https://ci/1","creator":"ci-bot",
		"updated_at":"2026-01-02T03:04:05Z"}`, fakeforge.Text(t, res))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, map[string]any{"state": "success", "context": "ci/lint", "description": "clean", "target_url": "https://ci/1"}, sent)
	assert.Len(t, f.Requests(), 1, "the forge resolves a name without '/' itself")
}

func TestCreateCommitStatusErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"bad state", map[string]any{"ref": "c0ffee", "state": "done"}, `argument "state" must be one of`},
		{"bad target_url", map[string]any{"ref": "c0ffee", "state": "success", "target_url": "javascript:alert(1)"},
			`target_url "javascript:alert(1)" is not an http(s) URL`},
		{"missing commit (the forge's 500)", map[string]any{"ref": "dead", "state": "success"}, `commit "dead" in o/r not found (404)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r", 200, rawRepo)
			f.JSON("POST /api/v1/repos/o/r/statuses/dead", 500, map[string]string{"message": "object does not exist"})
			tc.args["owner"], tc.args["repo"] = "o", "r"
			res := f.Call(t, repo.Tools(), "create_commit_status", tc.args)
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}
}
