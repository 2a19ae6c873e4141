package repo_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestErrorsNameWhatIsMissing: a 404 of a route that takes a ref or a
// path names the ref, the path or the repository, whichever is missing.
func TestErrorsNameWhatIsMissing(t *testing.T) {
	tests := []struct {
		name     string
		repo     int // status of GET /repos/o/r
		tool     string
		args     map[string]any
		route    string
		response map[string]string
		want     string
	}{
		{name: "branch from a missing base", repo: 200, tool: "create_branch", args: map[string]any{"branch": "new", "from": "nosuch"},
			route: "POST /api/v1/repos/o/r/branches", response: map[string]string{"message": "The old branch does not exist"},
			want: `base branch "nosuch" in o/r not found (404): it does not exist or this token cannot see it`},
		{name: "branch in a missing repository", repo: 404, tool: "create_branch", args: map[string]any{"branch": "new", "from": "main"},
			route: "POST /api/v1/repos/o/r/branches",
			want:  "repository o/r not found (404): it does not exist or this token cannot see it"},
		{name: "commits of a missing ref", repo: 200, tool: "list_repo_commits", args: map[string]any{"sha": "nosuch"},
			route: "GET /api/v1/repos/o/r/commits",
			want:  `branch, tag or commit "nosuch" in o/r not found (404): it does not exist or this token cannot see it`},
		{name: "commits of a path never touched", repo: 200, tool: "list_repo_commits", args: map[string]any{"path": "nosuch"},
			route: "GET /api/v1/repos/o/r/commits", response: map[string]string{"message": "FileCommitsCount"},
			want: `no commit touches path "nosuch" in o/r (404): check the path with list_repo_contents`},
		{name: "commits of a missing repository", repo: 404, tool: "list_repo_commits", args: map[string]any{"sha": "main"},
			route: "GET /api/v1/repos/o/r/commits",
			want:  "repository o/r not found (404): it does not exist or this token cannot see it"},
		{name: "file at a missing ref", repo: 200, tool: "get_file_content", args: map[string]any{"path": "a.go", "ref": "nosuch"},
			route: "GET /api/v1/repos/o/r/contents/a.go",
			want:  `branch, tag or commit "nosuch" in o/r not found (404): it does not exist or this token cannot see it`},
		{name: "directory at a missing ref", repo: 200, tool: "list_repo_contents", args: map[string]any{"path": "src", "ref": "nosuch"},
			route: "GET /api/v1/repos/o/r/contents/src",
			want:  `branch, tag or commit "nosuch" in o/r not found (404): it does not exist or this token cannot see it`},
		{name: "file on a missing branch", repo: 200, tool: "create_file", args: map[string]any{"path": "a.go", "content": "x", "branch": "nosuch"},
			route: "POST /api/v1/repos/o/r/contents/a.go", response: map[string]string{"message": "branch does not exist [repo_id: 1 name: nosuch]"},
			want: `branch "nosuch" in o/r not found (404): it does not exist or this token cannot see it`},
		{name: "missing file, no function name", repo: 200, tool: "get_file_content", args: map[string]any{"path": "a.go"},
			route: "GET /api/v1/repos/o/r/contents/a.go", response: map[string]string{"message": "GetContentsOrList"},
			want: "file a.go in o/r not found (404): it does not exist or this token cannot see it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON(tt.route, 404, tt.response)
			f.JSON("GET /api/v1/repos/o/r", tt.repo, map[string]any{"full_name": "o/r"})
			f.JSON("GET /api/v1/repos/o/r/git/commits/nosuch", 404, map[string]string{"message": "commit doesn't exist: nosuch"})
			f.JSON("GET /api/v1/repos/o/r/git/commits/main", 200, map[string]any{"sha": "c0ffee"})
			args := map[string]any{"owner": "o", "repo": "r"}
			for k, v := range tt.args {
				args[k] = v
			}
			res := f.Call(t, repo.Tools(), tt.tool, args)
			require.True(t, res.IsError)
			assert.Equal(t, tt.want, fakeforge.Text(t, res))
		})
	}
}

// TestDirectoryPathsPointToListRepoContents: get_file_content given a
// directory path says to list it; list_repo_contents takes "." as the root.
func TestDirectoryPathsPointToListRepoContents(t *testing.T) {
	f := fakeforge.New(t)
	for _, p := range []string{".", "./", "/", "src/", "src/."} {
		res := f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": p})
		require.True(t, res.IsError, p)
		assert.Contains(t, fakeforge.Text(t, res), "names a directory, and get_file_content reads one file: use list_repo_contents to list a directory", p)
	}
	assert.Empty(t, f.Requests(), "refused before asking the forge")

	f.JSON("GET /api/v1/repos/o/r/contents/", 200, []any{map[string]any{"name": "a.go", "path": "a.go", "type": "file", "size": 1}})
	res := f.Call(t, repo.Tools(), "list_repo_contents", map[string]any{"owner": "o", "repo": "r", "path": "."})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"a.go"`)
}

// TestCreateRepoOptions: org, license, gitignores and template reach the
// forge; unknown license or template names are refused with the valid ones.
func TestCreateRepoOptions(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/licenses", 200, []any{map[string]any{"key": "MIT", "name": "MIT"}, map[string]any{"key": "Apache-2.0", "name": "Apache-2.0"}})
	f.JSON("GET /api/v1/gitignore/templates", 200, []string{"Go", "Python"})
	f.JSON("POST /api/v1/org/acme/repos", 201, rawRepo)
	res := f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "demo", "org": "acme", "license": "MIT",
		"gitignores": []any{"Go", "Python"}, "template": true})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	reqs := f.Requests()
	var sent map[string]any
	require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &sent))
	assert.Equal(t, "MIT", sent["license"])
	assert.Equal(t, "Go,Python", sent["gitignores"])
	assert.Equal(t, true, sent["template"])
	assert.Equal(t, true, sent["auto_init"], "a license needs an initial commit")

	res = f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "demo", "license": "NOPE"})
	require.True(t, res.IsError)
	assert.Equal(t, `unknown license "NOPE"; the forge offers: MIT, Apache-2.0`, fakeforge.Text(t, res))
	res = f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "demo", "gitignores": []any{"Go", "Cobol"}})
	require.True(t, res.IsError)
	assert.Equal(t, `unknown gitignore template "Cobol"; the forge offers: Go, Python`, fakeforge.Text(t, res))

	f.JSON("POST /api/v1/org/nosuch/repos", 404, map[string]string{"message": "GetOrgByName"})
	res = f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "demo", "org": "nosuch"})
	require.True(t, res.IsError)
	assert.Equal(t, "organisation nosuch not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}
