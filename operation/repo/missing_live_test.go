package repo_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLiveErrorsNameWhatIsMissing runs, against the live forge, the cases
// whose raw 404 named the wrong thing or carried a forge function name.
func TestLiveErrorsNameWhatIsMissing(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := repo.Tools()
	call := f.RepoCaller(t, defs, owner, name)
	call("create_file", map[string]any{"path": "dir/f.txt", "content": "x\n", "message": "add"})
	fail := func(tool string, args map[string]any) string {
		t.Helper()
		if _, ok := args["owner"]; !ok {
			args["owner"], args["repo"] = owner, name
		}
		res := f.Call(t, defs, tool, args)
		require.True(t, res.IsError, "%s: %s", tool, fakeforge.Text(t, res))
		return fakeforge.Text(t, res)
	}
	in := owner + "/" + name
	notFound := " not found (404): it does not exist or this token cannot see it"

	assert.Equal(t, fmt.Sprintf(`base branch "nosuch" in %s`, in)+notFound, fail("create_branch", map[string]any{"branch": "new", "from": "nosuch"}))
	assert.Equal(t, fmt.Sprintf(`branch, tag or commit "nosuch" in %s`, in)+notFound, fail("list_repo_commits", map[string]any{"sha": "nosuch"}))
	assert.Equal(t, fmt.Sprintf(`branch, tag or commit "0123456789abcdef0123456789abcdef01234567" in %s`, in)+notFound,
		fail("list_repo_commits", map[string]any{"sha": "0123456789abcdef0123456789abcdef01234567"}))
	assert.Equal(t, fmt.Sprintf(`no commit touches path "nosuch" in %s (404): check the path with list_repo_contents`, in),
		fail("list_repo_commits", map[string]any{"path": "nosuch"}))
	assert.Equal(t, fmt.Sprintf("repository %s/nosuchrepo", owner)+notFound, fail("list_repo_commits", map[string]any{"owner": owner, "repo": "nosuchrepo", "sha": "main"}))
	assert.Equal(t, fmt.Sprintf(`branch, tag or commit "nosuch" in %s`, in)+notFound, fail("get_file_content", map[string]any{"path": "dir/f.txt", "ref": "nosuch"}))
	assert.Equal(t, fmt.Sprintf(`branch, tag or commit "nosuch" in %s`, in)+notFound, fail("list_repo_contents", map[string]any{"path": "dir", "ref": "nosuch"}))
	assert.Equal(t, fmt.Sprintf("file missing.txt in %s", in)+notFound, fail("get_file_content", map[string]any{"path": "missing.txt"}))
	assert.Equal(t, fmt.Sprintf("directory nodir in %s", in)+notFound, fail("list_repo_contents", map[string]any{"path": "nodir"}))
	for _, p := range []string{".", "dir/"} {
		assert.Equal(t, fmt.Sprintf("path %q names a directory, and get_file_content reads one file: use list_repo_contents to list a directory", p),
			fail("get_file_content", map[string]any{"path": p}))
	}
	assert.Equal(t, fmt.Sprintf("file dir in %s is a directory: use list_repo_contents", in), fail("get_file_content", map[string]any{"path": "dir"}))
	assert.Contains(t, call("list_repo_contents", map[string]any{"path": "."}), `"dir"`)
}

// TestLiveCreateRepoOptions: a repository created in an organisation with
// a license and .gitignore templates, as a template; unknown names refused.
func TestLiveCreateRepoOptions(t *testing.T) {
	f := testforge.Get(t)
	org := f.NewOrg(t) // the repository the tool creates is deleted with it
	name := "with-license"
	res := f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": name, "org": org, "private": true,
		"license": "MIT", "gitignores": []any{"Go"}, "template": true})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var created struct {
		FullName string `json:"full_name"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &created))
	assert.Equal(t, org+"/"+name, created.FullName)
	var r struct {
		Template bool `json:"template"`
	}
	require.Equal(t, 200, f.Do(t, "GET", fmt.Sprintf("/repos/%s/%s", org, name), nil, &r))
	assert.True(t, r.Template)
	text := f.RepoCaller(t, repo.Tools(), org, name)("list_repo_contents", map[string]any{})
	assert.Contains(t, text, `"LICENSE"`)
	assert.Contains(t, text, `".gitignore"`)

	res = f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "never", "license": "NOPE"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `unknown license "NOPE"; the forge offers: `)
	assert.Contains(t, fakeforge.Text(t, res), "MIT")
	res = f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "never", "gitignores": []any{"Nope"}})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `unknown gitignore template "Nope"; the forge offers: `)
	res = f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": "never", "org": "nosuchorg"})
	require.True(t, res.IsError)
	if f.Identify(t).ForgejoUpTo(10) { // Forgejo 10 calls a missing organisation bad input
		assert.Equal(t, `create repository "never" in nosuchorg: the forge rejected the input (422): org does not exist`, fakeforge.Text(t, res))
		return
	}
	assert.Equal(t, "organisation nosuchorg not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}

// TestLiveWriteToMissingBranch: writing a file on a branch that does not
// exist names the branch, not the file.
func TestLiveWriteToMissingBranch(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	res := f.Call(t, repo.Tools(), "create_file", map[string]any{"owner": owner, "repo": name, "path": "n.txt", "content": "x", "branch": "nosuch"})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf(`branch "nosuch" in %s/%s not found (404): it does not exist or this token cannot see it`, owner, name), fakeforge.Text(t, res))
}
