package repo_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// change is a two-commit change on a branch with a '/' in its name, made
// with the forge's own API: the first commit adds a nested file and edits
// README.md, the second adds z.txt.
type change struct {
	owner, name, branch string
	base, first, second string // commit SHAs: main's head, then the branch's two commits
}

func newChange(t *testing.T, f *testforge.Forge) change {
	t.Helper()
	owner, name := f.NewRepo(t)
	ch := change{owner: owner, name: name, branch: "feature/two"}
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	var readme struct {
		SHA string `json:"sha"`
	}
	route := fmt.Sprintf("/repos/%s/%s", owner, name)
	require.Equal(t, http.StatusOK, f.Do(t, "GET", route+"/contents/README.md", nil, &readme))
	var head struct {
		Commit struct {
			ID string `json:"id"`
		} `json:"commit"`
	}
	require.Equal(t, http.StatusOK, f.Do(t, "GET", route+"/branches/main", nil, &head))
	ch.base = head.Commit.ID
	commit := func(body map[string]any) string {
		var out struct {
			Commit struct {
				SHA string `json:"sha"`
			} `json:"commit"`
		}
		require.Equal(t, http.StatusCreated, f.Do(t, "POST", route+"/contents", body, &out))
		return out.Commit.SHA
	}
	ch.first = commit(map[string]any{"branch": "main", "new_branch": ch.branch, "message": "Add a nested file\n\nAnd edit the README.",
		"files": []any{
			map[string]any{"operation": "create", "path": "docs/guide/intro.md", "content": b64("one\ntwo\nthree\n")},
			map[string]any{"operation": "update", "path": "README.md", "sha": readme.SHA, "content": b64("# replaced\n")},
		}})
	ch.second = commit(map[string]any{"branch": ch.branch, "message": "Add z",
		"files": []any{map[string]any{"operation": "create", "path": "z.txt", "content": b64("z\n")}}})
	return ch
}

func decode[T any](t *testing.T, text string) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal([]byte(text), &v), text)
	return v
}
func TestLiveGetRepo(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	require.Equal(t, http.StatusNoContent, f.Do(t, "PUT", fmt.Sprintf("/repos/%s/%s/topics", owner, name),
		map[string]any{"topics": []string{"go", "mcp"}}, nil))
	call := f.RepoCaller(t, repo.Tools(), owner, name)

	r := decode[repo.RepoDetail](t, call("get_repo", map[string]any{}))
	assert.Equal(t, owner+"/"+name, r.FullName)
	assert.Equal(t, "main", r.DefaultBranch)
	assert.True(t, r.Private)
	assert.False(t, r.Fork)
	assert.Empty(t, r.Parent)
	assert.Equal(t, &repo.Permissions{Admin: true, Push: true, Pull: true}, r.Permissions)
	assert.Equal(t, []string{"go", "mcp"}, r.Topics)
	assert.Positive(t, r.SizeKiB)
	assert.Equal(t, fmt.Sprintf("%s/%s/%s", f.URL, owner, name), r.HTMLURL)

	// The other user sees only what it may do: nothing, on a private repository.
	res := f.WithToken(f.Token2).Call(t, repo.Tools(), "get_repo", map[string]any{"owner": owner, "repo": name})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("repository %s/%s not found (404): it does not exist or this token cannot see it", owner, name), fakeforge.Text(t, res))

	// Given read access, it sees the repository and that it may only read.
	require.Equal(t, http.StatusNoContent, f.Do(t, "PUT", fmt.Sprintf("/repos/%s/%s/collaborators/%s", owner, name, f.User2),
		map[string]any{"permission": "read"}, nil))
	res = f.WithToken(f.Token2).Call(t, repo.Tools(), "get_repo", map[string]any{"owner": owner, "repo": name})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Equal(t, &repo.Permissions{Pull: true}, decode[repo.RepoDetail](t, fakeforge.Text(t, res)).Permissions)
}

func TestLiveForkIntoOrganisation(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	org := f.NewOrg(t) // the fork is deleted with it

	res := f.Call(t, operation.All(), "fork_repo", map[string]any{"user": owner, "repo": name, "organization": org, "name": name + "-fork"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	fork := decode[repo.RepoDetail](t, fakeforge.Text(t, res))
	assert.Equal(t, org+"/"+name+"-fork", fork.FullName)
	assert.True(t, fork.Fork)
	assert.Equal(t, owner+"/"+name, fork.Parent)
	assert.Equal(t, "main", fork.DefaultBranch)

	got := decode[repo.RepoDetail](t, f.RepoCaller(t, repo.Tools(), org, name+"-fork")("get_repo", map[string]any{}))
	assert.Equal(t, owner+"/"+name, got.Parent, "get_repo shows the fork parent")

	res = f.Call(t, repo.Tools(), "fork_repo", map[string]any{"owner": owner, "repo": name, "organization": org, "name": name + "-fork"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("fork repository %s/%s into organisation %s: conflict (409), it may already exist: repository is already forked", owner, name, org))
	res = f.Call(t, repo.Tools(), "fork_repo", map[string]any{"owner": owner, "repo": name, "organization": "no-such-org-" + org})
	require.True(t, res.IsError)
	if f.Identify(t).ForgejoUpTo(10) { // Forgejo 10 calls a missing organisation bad input
		assert.Equal(t, fmt.Sprintf("fork repository %s/%s into organisation no-such-org-%s: the forge rejected the input (422): org does not exist", owner, name, org), fakeforge.Text(t, res))
		return
	}
	assert.Equal(t, fmt.Sprintf("fork repository %s/%s into organisation no-such-org-%s: the repository or the organisation does not exist (404), or this token cannot see it", owner, name, org), fakeforge.Text(t, res))
}

func TestLiveEmptyRepository(t *testing.T) {
	f := testforge.Get(t)
	name := fmt.Sprintf("t-empty-%d", time.Now().UnixNano())
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", "/user/repos", map[string]any{"name": name, "private": true}, nil))
	t.Cleanup(func() { f.Do(t, "DELETE", fmt.Sprintf("/repos/%s/%s", f.User, name), nil, nil) })
	call := f.RepoCaller(t, repo.Tools(), f.User, name)

	r := decode[repo.RepoDetail](t, call("get_repo", map[string]any{}))
	assert.True(t, r.Empty)
	assert.Equal(t, []string{}, r.Topics)
	for _, tl := range []string{"get_repo_tree", "get_commit_status"} {
		res := f.Call(t, repo.Tools(), tl, map[string]any{"owner": f.User, "repo": name, "ref": "main"})
		require.True(t, res.IsError, tl)
		assert.Equal(t, fmt.Sprintf("repository %s/%s is empty: it has no commits yet", f.User, name), fakeforge.Text(t, res), tl)
	}
}
