package cmd

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMatchRemote: which remote URLs point at the configured forge, and
// the owner and repository they name.
func TestMatchRemote(t *testing.T) {
	codeberg, _ := url.Parse("https://codeberg.org")
	prefixed, _ := url.Parse("https://git.example.org/forge")
	local, _ := url.Parse("http://127.0.0.1:3000")
	tests := []struct {
		forge       *url.URL
		remote      string
		owner, repo string
	}{
		{codeberg, "https://codeberg.org/forgejo/forgejo.git", "forgejo", "forgejo"},
		{codeberg, "https://codeberg.org/forgejo/forgejo", "forgejo", "forgejo"},
		{codeberg, "https://user:secret@codeberg.org/o/r.git", "o", "r"},
		{codeberg, "https://CODEBERG.org:443/o/r.git/", "o", "r"},
		{codeberg, "git@codeberg.org:o/r.git", "o", "r"},
		{codeberg, "codeberg.org:o/r", "o", "r"},
		{codeberg, "ssh://git@codeberg.org/o/r.git", "o", "r"},
		{codeberg, "ssh://git@codeberg.org:2222/o/my.repo.git", "o", "my.repo"},
		{codeberg, "https://codeberg.org:8443/o/r.git", "", ""},  // another port
		{codeberg, "http://codeberg.org/o/r.git", "", ""},        // another scheme
		{codeberg, "https://github.com/o/r.git", "", ""},         // another host
		{codeberg, "git@github.com:o/r.git", "", ""},             // another host
		{codeberg, "https://codeberg.org/o/r/extra.git", "", ""}, // not owner/repo
		{codeberg, "https://codeberg.org/o.git", "", ""},
		{codeberg, "https://codeberg.org/o/r%2F..", "", ""},
		{codeberg, "file:///srv/git/o/r.git", "", ""},
		{codeberg, "/srv/git/o/r.git", "", ""},
		{codeberg, "../r.git", "", ""},
		{prefixed, "https://git.example.org/forge/o/r.git", "o", "r"},
		{prefixed, "https://git.example.org/o/r.git", "", ""}, // over https the prefix is in every path
		{prefixed, "git@git.example.org:o/r.git", "o", "r"},   // ssh paths have no prefix
		{prefixed, "ssh://git@git.example.org/forge/o/r.git", "o", "r"},
		{local, "http://127.0.0.1:3000/forgeadmin/demo.git", "forgeadmin", "demo"},
		{local, "http://127.0.0.1:4000/forgeadmin/demo.git", "", ""},
		{local, "git@127.0.0.1:forgeadmin/demo.git", "forgeadmin", "demo"},
		{nil, "https://codeberg.org/o/r.git", "", ""},
	}
	for _, tt := range tests {
		owner, repo, ok := matchRemote(tt.remote, tt.forge)
		assert.Equal(t, tt.owner != "", ok, tt.remote)
		assert.Equal(t, tt.owner, owner, tt.remote)
		assert.Equal(t, tt.repo, repo, tt.remote)
	}
}

// writeGitConfig makes dir a repository's root whose configuration is
// config.
func writeGitConfig(t *testing.T, dir, config string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "config"), []byte(config), 0o644))
}

// TestRemoteRepo: the remotes are read from the repository's
// configuration (from a subdirectory, through a worktree's .git file and
// its common directory), origin preferred, then upstream, then by name.
func TestRemoteRepo(t *testing.T) {
	forge, _ := url.Parse("https://codeberg.org")
	noEnv := func(string) string { return "" }
	config := `[core]
	repositoryformatversion = 0
[remote "fork"]
	url = https://codeberg.org/me/r.git
[remote "upstream"]
	url = git@codeberg.org:project/r.git
	fetch = +refs/heads/*:refs/remotes/upstream/*
[remote "origin"] ; a comment
	url = "https://codeberg.org/me/mine.git"
	url = https://codeberg.org/ignored/second.git
[branch "main"]
	remote = origin
`
	root := t.TempDir()
	writeGitConfig(t, root, config)
	sub := filepath.Join(root, "a", "b")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	owner, repo, remote, ok := remoteRepo(sub, forge, noEnv)
	require.True(t, ok)
	assert.Equal(t, []string{"me", "mine", "origin"}, []string{owner, repo, remote})

	other, _ := url.Parse("https://git.example.org")
	_, _, _, ok = remoteRepo(sub, other, noEnv)
	assert.False(t, ok, "no remote on that forge")

	noOrigin := t.TempDir()
	writeGitConfig(t, noOrigin, "[remote \"zzz\"]\n\turl = https://codeberg.org/z/z.git\n[remote \"upstream\"]\n\turl = https://codeberg.org/project/r.git\n")
	_, repo, remote, _ = remoteRepo(noOrigin, forge, noEnv)
	assert.Equal(t, []string{"r", "upstream"}, []string{repo, remote})

	// A worktree: .git is a file naming its git directory, whose commondir
	// holds the shared configuration.
	wt := t.TempDir()
	gitdir := filepath.Join(root, ".git", "worktrees", "wt")
	require.NoError(t, os.MkdirAll(gitdir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(gitdir, "commondir"), []byte("../..\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+gitdir+"\n"), 0o644))
	owner, _, _, ok = remoteRepo(wt, forge, noEnv)
	assert.True(t, ok)
	assert.Equal(t, "me", owner)

	// $GIT_DIR wins over the directory.
	owner, _, _, ok = remoteRepo(t.TempDir(), forge, func(k string) string {
		if k == "GIT_DIR" {
			return filepath.Join(noOrigin, ".git")
		}
		return ""
	})
	assert.True(t, ok)
	assert.Equal(t, "project", owner)

	_, _, _, ok = remoteRepo(t.TempDir(), forge, noEnv)
	assert.False(t, ok, "not in a repository")
}

// TestRepoContext: the repository a call acts on, in the documented
// order: --owner/--repo, then -R (or --repo OWNER/REPO), then the git
// remote; and a clear error when there is none.
func TestRepoContext(t *testing.T) {
	f := newFakeWithIssue(t)
	env := fakeEnv(f)
	dir := t.TempDir()
	writeGitConfig(t, dir, "[remote \"origin\"]\n\turl = "+f.URL+"/o/r.git\n")
	t.Chdir(filepath.Join(dir, ".git")) // anywhere inside the clone

	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"the git remote", nil, ExitOK, ""},
		{"-R", []string{"-R", "o/r"}, ExitOK, ""},
		{"--repo OWNER/REPO", []string{"--repo", "o/r"}, ExitOK, ""},
		{"-R wins over the remote", []string{"-R", "x/y"}, ExitToolError, "issue x/y#3 not found"},
		{"flags win over the remote", []string{"--owner", "x", "--repo", "y"}, ExitToolError, "issue x/y#3 not found"},
		{"--args win over the remote", []string{"--args", `{"owner":"x","repo":"y"}`}, ExitToolError, "issue x/y#3 not found"},
		{"-R and --owner", []string{"-R", "o/r", "--owner", "o"}, ExitUsage, "-R o/r names the owner already"},
		{"-R HOST/OWNER/REPO", []string{"-R", strings.TrimPrefix(f.URL, "http://") + "/o/r"}, ExitOK, ""},
		{"-R web URL", []string{"-R", f.URL + "/o/r/issues/9"}, ExitOK, ""},
		{"-R another host", []string{"-R", "o/r/x"}, ExitUsage, `o/r/x is on o, not on the configured forge`},
		{"-R another forge's URL", []string{"-R", "https://github.com/o/r"}, ExitUsage, `is not on the configured forge`},
		{"-R not OWNER/REPO", []string{"-R", "a/b/c/d"}, ExitUsage, `-R wants OWNER/REPO, HOST/OWNER/REPO or the repository's web URL, got "a/b/c/d"`},
		{"-R empty owner", []string{"-R", "/r"}, ExitUsage, `-R wants OWNER/REPO`},
		{"a web URL", []string{f.URL + "/o/r/issues/3"}, ExitOK, ""},
		{"a web URL wins over the remote", []string{f.URL + "/x/y/issues/3"}, ExitToolError, "issue x/y#3 not found"},
		{"a web URL disagreeing", []string{f.URL + "/o/r/issues/4"}, ExitUsage, "index is 3, but the url names 4"},
		{"a web URL of another forge", []string{"https://evil.example/o/r/issues/3"}, ExitUsage, "is not on the configured forge"},
		{"two arguments", []string{f.URL + "/o/r/issues/3", "x"}, ExitUsage, `unexpected argument`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--cli", "get_issue_by_index", "--index", "3", "--output", "json"}, tt.args...)
			r := runMain(t, env, "", args...)
			assert.Equal(t, tt.code, r.code, r.err)
			assert.Contains(t, r.err, tt.err)
			if tt.code == ExitOK {
				assert.Contains(t, r.out, `"title": "Export fails"`)
			}
		})
	}

	t.Chdir(t.TempDir())
	r := runMain(t, env, "", "--cli", "get_issue_by_index", "--index", "3")
	assert.Equal(t, ExitUsage, r.code)
	assert.Contains(t, r.err, "get_issue_by_index needs a repository: give -R OWNER/REPO (or --owner and --repo, or a web URL), or run it in a clone whose git remote is on "+f.URL)
}
