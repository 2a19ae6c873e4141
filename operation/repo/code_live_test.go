package repo_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
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
}

func TestLiveCommitAndDiff(t *testing.T) {
	f := testforge.Get(t)
	ch := newChange(t, f)
	call := f.RepoCaller(t, repo.Tools(), ch.owner, ch.name)

	c := decode[repo.CommitDetail](t, call("get_commit", map[string]any{"sha": ch.first}))
	assert.Equal(t, ch.first, c.SHA)
	assert.Equal(t, "Add a nested file\n\nAnd edit the README.\n", c.Message)
	assert.Equal(t, f.User, c.Author.Login)
	assert.NotEmpty(t, c.Author.Date)
	assert.NotEmpty(t, c.Committer.Name)
	assert.Equal(t, []string{ch.base}, c.Parents)
	one := func(n int) *int { return &n }
	assert.ElementsMatch(t, []repo.ChangedFile{
		{Filename: "docs/guide/intro.md", Status: "added", Additions: one(3), Deletions: one(0)},
		{Filename: "README.md", Status: "modified", Additions: one(1), Deletions: one(3)},
	}, c.Files)
	require.NotNil(t, c.Stats)
	assert.Equal(t, repo.Stats{Total: 7, Additions: 4, Deletions: 3}, *c.Stats)
	assert.Empty(t, c.Note)

	// A branch name with '/' resolves to its head commit.
	c = decode[repo.CommitDetail](t, call("get_commit", map[string]any{"sha": ch.branch}))
	assert.Equal(t, ch.second, c.SHA)
	assert.Equal(t, []string{ch.first}, c.Parents)

	d := decode[tool.DiffWindow](t, call("get_commit_diff", map[string]any{"sha": ch.first}))
	assert.Contains(t, d.Diff, "diff --git a/docs/guide/intro.md b/docs/guide/intro.md")
	assert.Contains(t, d.Diff, "+three")
	assert.Zero(t, d.NextOffset)
	p := decode[tool.DiffWindow](t, call("get_commit_diff", map[string]any{"sha": ch.branch, "type": "patch"}))
	assert.True(t, strings.HasPrefix(p.Diff, "From "+ch.second), p.Diff)
	assert.Contains(t, p.Diff, "Subject: [PATCH] Add z")
	tail := decode[tool.DiffWindow](t, call("get_commit_diff", map[string]any{"sha": ch.first, "offset": 10.0}))
	assert.Equal(t, d.Diff[10:], tail.Diff, "an offset reads on from that byte")

	for _, tc := range []struct{ tool, sha, want string }{
		{"get_commit", "0123456789abcdef0123456789abcdef01234567", `commit "0123456789abcdef0123456789abcdef01234567" in ` + ch.owner + "/" + ch.name + " not found (404)"},
		{"get_commit_diff", "0123456789abcdef0123456789abcdef01234567", `commit "0123456789abcdef0123456789abcdef01234567" in ` + ch.owner + "/" + ch.name + " not found (404)"},
		{"get_commit", "no/such-branch", `branch, tag or commit "no/such-branch" in ` + ch.owner + "/" + ch.name + " not found (404)"},
	} {
		res := f.Call(t, repo.Tools(), tc.tool, map[string]any{"owner": ch.owner, "repo": ch.name, "sha": tc.sha})
		require.True(t, res.IsError, "%s %s", tc.tool, tc.sha)
		assert.Contains(t, fakeforge.Text(t, res), tc.want)
	}
}
