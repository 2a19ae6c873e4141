package cmd

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// pullJSON is an open pull request as the forge lists it.
func pullJSON(n int, head, headRepo string) map[string]any {
	return map[string]any{"number": n, "title": "PR " + head, "state": "open", "user": map[string]any{"login": "alice"},
		"head": map[string]any{"ref": head, "sha": "abc", "repo": map[string]any{"full_name": headRepo}},
		"base": map[string]any{"ref": "main"}, "html_url": "https://forge.example/o/r/pulls/1"}
}

// cloneOn makes dir a clone of o/r on f, with branch checked out (a
// worktree's HEAD when worktree is set); merge is the branch it tracks.
func cloneOn(t *testing.T, f *fakeforge.Server, branch, merge string) string {
	t.Helper()
	dir := t.TempDir()
	config := "[remote \"origin\"]\n\turl = " + f.URL + "/o/r.git\n"
	if merge != "" {
		config += "[branch \"" + branch + "\"]\n\tremote = origin\n\tmerge = refs/heads/" + merge + "\n"
	}
	writeGitConfig(t, dir, config)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/"+branch+"\n"), 0o644))
	return dir
}

// TestBranchPull: a pull request tool called in a clone without an index
// works on the open pull request of the checked-out branch, and says so;
// a write there names the repository the git remote gave, under --yes
// too.
func TestBranchPull(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/pulls", 200, []any{
		pullJSON(4, "feature", "o/r"), pullJSON(5, "fix", "o/r"), pullJSON(6, "fix", "someone/r"),
		pullJSON(7, "dup", "a/r"), pullJSON(8, "dup", "b/r")})
	for _, n := range []int{4, 5, 9} {
		f.JSON(fmt.Sprintf("GET /api/v1/repos/o/r/pulls/%d", n), 200, map[string]any{"number": n, "title": fmt.Sprint("PR number ", n), "state": "open",
			"head": map[string]any{"ref": "x", "sha": "abc"}, "base": map[string]any{"ref": "main"}})
	}
	f.JSON("PATCH /api/v1/repos/o/r/pulls/4", 201, map[string]any{"number": 4, "title": "new", "state": "open"})
	env := fakeEnv(f)
	tests := []struct {
		name, branch, merge string
		args                []string
		code                int
		out, err            string
	}{
		{"the branch's pull request", "feature", "", nil, ExitOK, "PR number 4", "pull request o/r#4 (the branch feature checked out here)"},
		{"the tracked branch's name", "local-name", "feature", nil, ExitOK, "PR number 4", "the branch feature checked out here"},
		{"this repository's head before a fork's", "fix", "", nil, ExitOK, "PR number 5", "o/r#5"},
		{"an index given wins", "feature", "", []string{"--index", "9"}, ExitOK, "PR number 9", ""},
		{"two forks' pull requests", "dup", "", nil, ExitUsage, "", "the head of several open pull requests in o/r (#7, #8): give --index"},
		{"no pull request", "lonely", "", nil, ExitUsage, "", "no open pull request in o/r has the branch lonely (checked out here) as its head: give --index"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(cloneOn(t, f, tt.branch, tt.merge))
			r := runMain(t, env, "", append([]string{"--cli", "get_pull_request_by_index", "--output", "json"}, tt.args...)...)
			assert.Equal(t, tt.code, r.code, r.err)
			assert.Contains(t, r.out, tt.out)
			assert.Contains(t, r.err, tt.err)
		})
	}

	t.Run("get_ci_status reads the branch without a pull request", func(t *testing.T) {
		t.Chdir(cloneOn(t, f, "lonely", ""))
		var refs []string
		f.Handle("GET /api/v1/repos/o/r/commits", func(w http.ResponseWriter, r *http.Request) {
			refs = append(refs, r.URL.Query().Get("sha"))
			fakeforge.WriteJSON(w, 404, map[string]any{"message": "not found"})
		})
		r := runMain(t, env, "", "--cli", "get_ci_status", "--output", "json")
		assert.NotEqual(t, ExitUsage, r.code, r.err)
		assert.Contains(t, r.err, "no open pull request in o/r has the branch lonely as its head: reading the branch")
		assert.Contains(t, strings.Join(refs, " "), "lonely", "the branch was looked up")
	})

	t.Run("a write names the remote's repository", func(t *testing.T) {
		t.Chdir(cloneOn(t, f, "feature", ""))
		r := runMain(t, env, "", "--cli", "update_pull_request", "--title", "new", "--yes", "--output", "json")
		assert.Equal(t, ExitOK, r.code, r.err)
		assert.Contains(t, r.err, "update_pull_request acts on o/r (from the git remote origin)")
		assert.Contains(t, r.err, "pull request o/r#4")
	})

	t.Run("a read does not", func(t *testing.T) {
		t.Chdir(cloneOn(t, f, "feature", ""))
		r := runMain(t, env, "", "--cli", "get_pull_request_by_index", "--output", "json")
		assert.Equal(t, ExitOK, r.code, r.err)
		assert.NotContains(t, r.err, "acts on")
	})

	t.Run("-R names it: no note", func(t *testing.T) {
		t.Chdir(cloneOn(t, f, "feature", ""))
		r := runMain(t, env, "", "--cli", "update_pull_request", "-R", "o/r", "--index", "4", "--title", "new", "--output", "json")
		assert.Equal(t, ExitOK, r.code, r.err)
		assert.NotContains(t, r.err, "acts on")
	})
}
