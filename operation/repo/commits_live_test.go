package repo_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

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
			require.NotNil(t, e.Size)
			assert.Equal(t, int64(len("one\ntwo\nthree\n")), *e.Size)
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
