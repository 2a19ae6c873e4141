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
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
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

func TestLiveCompareCommits(t *testing.T) {
	f := testforge.Get(t)
	ch := newChange(t, f)
	call := f.RepoCaller(t, repo.Tools(), ch.owner, ch.name)

	cmp := decode[repo.Comparison](t, call("compare_commits", map[string]any{"base": "main", "head": ch.branch}))
	assert.Equal(t, ch.base, cmp.Base, "names resolve to SHAs")
	assert.Equal(t, ch.second, cmp.Head)
	assert.Equal(t, 2, cmp.TotalCommits)
	require.Len(t, cmp.Commits, 2)
	assert.Equal(t, ch.second, cmp.Commits[0].SHA, "newest first")
	assert.Equal(t, "Add z", cmp.Commits[0].Message)
	assert.Equal(t, f.User, cmp.Commits[0].Author)
	assert.Equal(t, 1, cmp.Commits[0].Additions)
	assert.Equal(t, "Add a nested file", cmp.Commits[1].Message, "the subject line only")
	assert.Equal(t, 4, cmp.Commits[1].Additions)
	assert.Equal(t, 3, cmp.Commits[1].Deletions)
	assert.Equal(t, []repo.ChangedFile{
		{Filename: "README.md", Status: "modified"},
		{Filename: "docs/guide/intro.md", Status: "added"},
		{Filename: "z.txt", Status: "added"},
	}, cmp.Files)

	// SHAs work as well, and the other way round there is nothing new.
	cmp = decode[repo.Comparison](t, call("compare_commits", map[string]any{"base": ch.second, "head": ch.base}))
	assert.Zero(t, cmp.TotalCommits)
	assert.Empty(t, cmp.Commits)
	assert.Empty(t, cmp.Files)

	res := f.Call(t, repo.Tools(), "compare_commits", map[string]any{"owner": ch.owner, "repo": ch.name, "base": "main", "head": "no/such"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `branch, tag or commit "no/such" in `+ch.owner+"/"+ch.name+" not found (404)")
	res = f.Call(t, repo.Tools(), "compare_commits", map[string]any{"owner": ch.owner, "repo": ch.name, "base": "0123456789abcdef0123456789abcdef01234567", "head": ch.second})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `base "0123456789abcdef0123456789abcdef01234567" in `+ch.owner+"/"+ch.name+" not found (404)")
}

func TestLiveRepoTree(t *testing.T) {
	f := testforge.Get(t)
	ch := newChange(t, f)
	call := f.RepoCaller(t, repo.Tools(), ch.owner, ch.name)

	top := decode[repo.Tree](t, call("get_repo_tree", map[string]any{"ref": ch.branch}))
	paths := map[string]string{}
	for _, e := range top.Entries {
		paths[e.Path] = e.Type
	}
	assert.Equal(t, map[string]string{"README.md": "blob", "docs": "tree", "z.txt": "blob"}, paths)
	assert.False(t, top.HasMore)

	all := decode[repo.Tree](t, call("get_repo_tree", map[string]any{"ref": ch.branch, "recursive": true}))
	paths = map[string]string{}
	for _, e := range all.Entries {
		paths[e.Path] = e.Type
		if e.Path == "docs/guide/intro.md" {
			assert.Equal(t, int64(len("one\ntwo\nthree\n")), e.Size)
		}
	}
	assert.Equal(t, map[string]string{"README.md": "blob", "docs": "tree", "docs/guide": "tree", "docs/guide/intro.md": "blob", "z.txt": "blob"}, paths)
	assert.Equal(t, 5, all.TotalCount)

	// Paged: two entries at a time, until has_more is false.
	var seen []string
	for page := 1.0; page < 10; page++ {
		p := decode[repo.Tree](t, call("get_repo_tree", map[string]any{"ref": ch.branch, "recursive": true, "page": page, "limit": 2.0}))
		for _, e := range p.Entries {
			seen = append(seen, e.Path)
		}
		if !p.HasMore {
			assert.Equal(t, 3.0, page)
			break
		}
		assert.True(t, p.Truncated)
	}
	assert.Len(t, seen, 5)

	// The default branch, when no ref is given, has no docs/ yet.
	main := decode[repo.Tree](t, call("get_repo_tree", map[string]any{}))
	require.Len(t, main.Entries, 1)
	assert.Equal(t, "README.md", main.Entries[0].Path)
}

func TestLiveTags(t *testing.T) {
	f := testforge.Get(t)
	ch := newChange(t, f)
	call := f.RepoCaller(t, repo.Tools(), ch.owner, ch.name)

	light := decode[repo.Tag](t, call("create_tag", map[string]any{"tag_name": "v1.0.0", "target": ch.first}))
	assert.Equal(t, repo.Tag{Name: "v1.0.0", Commit: ch.first}, light)
	ann := decode[repo.Tag](t, call("create_tag", map[string]any{"tag_name": "release/v2", "target": ch.branch, "message": "Second release"}))
	assert.Equal(t, repo.Tag{Name: "release/v2", Commit: ch.second, Message: "Second release", Annotated: true}, ann)

	list := decode[tool.ListPage[repo.Tag]](t, call("list_tags", map[string]any{}))
	assert.ElementsMatch(t, []repo.Tag{light, ann}, list.Items)
	assert.Equal(t, ann, decode[repo.Tag](t, call("get_tag", map[string]any{"tag": "release/v2"})), "a tag with '/' travels part by part")

	assert.Equal(t, light, decode[repo.Tag](t, call("get_tag", map[string]any{"tag": "v1.0.0"})))
	assert.JSONEq(t, `{"deleted":true,"tag":"v1.0.0"}`, call("delete_tag", map[string]any{"tag": "v1.0.0"}))
	res := f.Call(t, repo.Tools(), "get_tag", map[string]any{"owner": ch.owner, "repo": ch.name, "tag": "v1.0.0"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "tag v1.0.0 in "+ch.owner+"/"+ch.name+" not found (404)")

	res = f.Call(t, repo.Tools(), "create_tag", map[string]any{"owner": ch.owner, "repo": ch.name, "tag_name": "release/v2"})
	require.True(t, res.IsError)
	assert.Equal(t, "create tag release/v2 in "+ch.owner+"/"+ch.name+": conflict (409), it may already exist: tag already exists [name: release/v2]", fakeforge.Text(t, res))

	// A tag a release uses is refused, with what to do.
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", fmt.Sprintf("/repos/%s/%s/releases", ch.owner, ch.name),
		map[string]any{"tag_name": "release/v2", "name": "Two"}, nil))
	res = f.Call(t, repo.Tools(), "delete_tag", map[string]any{"owner": ch.owner, "repo": ch.name, "tag": "release/v2"})
	require.True(t, res.IsError)
	assert.Equal(t, "delete tag release/v2 in "+ch.owner+"/"+ch.name+": refused (409): a release uses it; delete the release first "+
		"(delete_release_by_tag, or delete_release with its id from list_releases; the tag stays), then the tag", fakeforge.Text(t, res))

	res = f.Call(t, repo.Tools(), "create_tag", map[string]any{"owner": ch.owner, "repo": ch.name, "tag_name": "v3", "target": "no-such-branch"})
	require.True(t, res.IsError)
	assert.Equal(t, `target "no-such-branch" in `+ch.owner+"/"+ch.name+" not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}

func TestLiveCommitStatus(t *testing.T) {
	f := testforge.Get(t)
	ch := newChange(t, f)
	call := f.RepoCaller(t, repo.Tools(), ch.owner, ch.name)

	empty := decode[repo.CombinedStatus](t, call("get_commit_status", map[string]any{"ref": ch.branch}))
	assert.Equal(t, ch.second, empty.SHA)
	assert.Zero(t, empty.TotalCount)
	assert.Empty(t, empty.Statuses)
	assert.Equal(t, "no check has reported a status on this commit", empty.Note, "the forge says %q", empty.State)

	s := decode[repo.Status](t, call("create_commit_status", map[string]any{"sha": ch.second, "state": "pending", "context": "ci/lint",
		"description": "linting", "target_url": "https://ci.example.com/run/1"}))
	assert.Equal(t, "ci/lint", s.Context)
	assert.Equal(t, "pending", s.State)
	assert.Equal(t, f.User, s.Creator)
	call("create_commit_status", map[string]any{"sha": ch.branch, "state": "success", "context": "ci/lint", "description": "clean"})
	call("create_commit_status", map[string]any{"sha": ch.second, "state": "failure", "context": "ci/test",
		"target_url": "https://ci.example.com/run/2"})

	combined := decode[repo.CombinedStatus](t, call("get_commit_status", map[string]any{"ref": ch.branch}))
	assert.Equal(t, "failure", combined.State, "the worst latest state wins")
	assert.Equal(t, ch.second, combined.SHA)
	assert.Equal(t, 2, combined.TotalCount, "one per context")
	byContext := map[string]repo.Status{}
	for _, st := range combined.Statuses {
		byContext[st.Context] = st
	}
	assert.Equal(t, "success", byContext["ci/lint"].State, "the latest status of a context")
	assert.Equal(t, "clean", byContext["ci/lint"].Description)
	assert.Equal(t, "https://ci.example.com/run/2", byContext["ci/test"].TargetURL)

	all := decode[tool.ListPage[repo.Status]](t, call("list_commit_statuses", map[string]any{"ref": ch.second}))
	require.Len(t, all.Items, 3, "superseded statuses too")
	page := decode[tool.ListPage[repo.Status]](t, call("list_commit_statuses", map[string]any{"ref": ch.second, "limit": 2.0}))
	assert.Len(t, page.Items, 2)
	assert.True(t, page.HasMore)

	res := f.Call(t, repo.Tools(), "create_commit_status", map[string]any{"owner": ch.owner, "repo": ch.name, "sha": ch.second, "state": "done"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `"state" must be one of`)
	res = f.Call(t, repo.Tools(), "create_commit_status", map[string]any{"owner": ch.owner, "repo": ch.name, "sha": "0123456789abcdef0123456789abcdef01234567", "state": "success"})
	require.True(t, res.IsError)
	missing := fmt.Sprintf(`"0123456789abcdef0123456789abcdef01234567" in %s/%s not found (404): it does not exist or this token cannot see it`, ch.owner, ch.name)
	assert.Equal(t, "commit "+missing, fakeforge.Text(t, res), "the forge's 500 for a missing commit reads as a 404")
	res = f.Call(t, repo.Tools(), "get_commit_status", map[string]any{"owner": ch.owner, "repo": ch.name, "ref": "0123456789abcdef0123456789abcdef01234567"})
	require.True(t, res.IsError)
	assert.Equal(t, "ref "+missing, fakeforge.Text(t, res))
}

func TestLiveForkIntoOrganisation(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	org := "t-fork-" + strings.ToLower(strings.ReplaceAll(name[len(name)-8:], "-", ""))
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", "/orgs", map[string]any{"username": org}, nil))
	t.Cleanup(func() { f.Do(t, "DELETE", "/orgs/"+org, nil, nil) })
	t.Cleanup(func() { f.Do(t, "DELETE", fmt.Sprintf("/repos/%s/%s-fork", org, name), nil, nil) })

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
	assert.Equal(t, fmt.Sprintf("fork repository %s/%s into organisation no-such-org-%s: the repository or the organisation does not exist (404), or this token cannot see it", owner, name, org), fakeforge.Text(t, res))
}

func TestLiveDeleteBranchAndCollaborators(t *testing.T) {
	f := testforge.Get(t)
	ch := newChange(t, f)
	call := f.RepoCaller(t, repo.Tools(), ch.owner, ch.name)

	assert.JSONEq(t, `{"deleted":true,"branch":"feature/two"}`, call("delete_branch", map[string]any{"branch": ch.branch}))
	res := f.Call(t, repo.Tools(), "delete_branch", map[string]any{"owner": ch.owner, "repo": ch.name, "branch": ch.branch})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("branch feature/two in %s/%s not found (404): it does not exist or this token cannot see it; list_branches shows the branches", ch.owner, ch.name), fakeforge.Text(t, res))
	res = f.Call(t, repo.Tools(), "delete_branch", map[string]any{"owner": ch.owner, "repo": ch.name, "branch": "main"})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("delete branch main in %s/%s: refused (403): it is the repository's default branch; make another branch the default first", ch.owner, ch.name), fakeforge.Text(t, res))

	list := decode[tool.ListPage[repo.Collaborator]](t, call("list_collaborators", map[string]any{}))
	assert.Empty(t, list.Items)
	require.Equal(t, http.StatusNoContent, f.Do(t, "PUT", fmt.Sprintf("/repos/%s/%s/collaborators/%s", ch.owner, ch.name, f.User2),
		map[string]any{"permission": "write"}, nil))
	list = decode[tool.ListPage[repo.Collaborator]](t, call("list_collaborators", map[string]any{}))
	assert.Equal(t, []repo.Collaborator{{Login: f.User2}}, list.Items)
}
