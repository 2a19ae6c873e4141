package repo_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

var rawCommit = map[string]any{
	"url": "http://x/api", "sha": "c0ffee", "html_url": "http://x/o/r/commit/c0ffee", "created": "2026-01-02T03:04:05Z",
	"commit": map[string]any{"message": "Add b\n\nWith a body.\n",
		"author":    map[string]any{"name": "Alice", "email": "alice@example.com", "date": "2026-01-02T03:04:05Z"},
		"committer": map[string]any{"name": "Bob", "email": "bob@example.com", "date": "2026-01-02T04:00:00Z"},
		"tree":      map[string]any{"sha": "7ree"}},
	"author":    map[string]any{"login": "alice", "avatar_url": "http://x/a"},
	"committer": nil,
	"parents":   []any{map[string]any{"sha": "pa1"}, map[string]any{"sha": "pa2"}},
	"files": []any{map[string]any{"filename": "dir/b.txt", "status": "added"},
		map[string]any{"filename": "old.txt", "status": "removed"}, map[string]any{"filename": "sp ace.txt", "status": "modified"}},
	"stats": map[string]any{"total": 6, "additions": 3, "deletions": 3},
}

const commitDiff = `diff --git a/dir/b.txt b/dir/b.txt
new file mode 100644
--- /dev/null
+++ b/dir/b.txt
@@ -0,0 +1,2 @@
+one
+--- not a header
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-gone
-too
diff --git "a/sp ace.txt" "b/sp ace.txt"
--- "a/sp ace.txt"
+++ "b/sp ace.txt"
@@ -1 +1 @@
-x
+y
`

func TestGetCommit(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/git/commits/c0ffee", 200, rawCommit)
	f.Handle("GET /api/v1/repos/o/r/git/commits/c0ffee.diff", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(commitDiff))
	})
	res := f.Call(t, repo.Tools(), "get_commit", map[string]any{"owner": "o", "repo": "r", "sha": "c0ffee"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"sha":"c0ffee","message":"Add b\n\nWith a body.\n",
		"author":{"name":"Alice","email":"alice@example.com","login":"alice","date":"2026-01-02T03:04:05Z"},
		"committer":{"name":"Bob","email":"bob@example.com","date":"2026-01-02T04:00:00Z"},
		"parents":["pa1","pa2"],
		"files":[{"filename":"dir/b.txt","status":"added","additions":2,"deletions":0},
			{"filename":"old.txt","status":"removed","additions":0,"deletions":2},
			{"filename":"sp ace.txt","status":"modified","additions":1,"deletions":1}],
		"stats":{"total":6,"additions":3,"deletions":3},"html_url":"http://x/o/r/commit/c0ffee"}`, fakeforge.Text(t, res))
	assert.Equal(t, "files=true&stat=true&verification=false", f.Requests()[0].RawQuery, "files and stats asked for, signature checks not")
}

func TestGetCommitLargeDiffLeavesCountsOut(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/git/commits/c0ffee", 200, rawCommit)
	f.Handle("GET /api/v1/repos/o/r/git/commits/c0ffee.diff", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(commitDiff + strings.Repeat("+x\n", 400_000)))
	})
	res := f.Call(t, repo.Tools(), "get_commit", map[string]any{"owner": "o", "repo": "r", "sha": "c0ffee"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var got repo.CommitDetail
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
	require.Len(t, got.Files, 3)
	assert.Nil(t, got.Files[0].Additions, "no partial counts")
	assert.Equal(t, "per-file line counts left out: the diff is over 1024 KiB; read it with get_commit_diff", got.Note)
}

func TestGetCommitBranchWithSlash(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/commits", 200, []any{map[string]any{"sha": "c0ffee"}})
	f.JSON("GET /api/v1/repos/o/r/git/commits/c0ffee", 200, rawCommit)
	f.Handle("GET /api/v1/repos/o/r/git/commits/c0ffee.diff", func(w http.ResponseWriter, r *http.Request) {})
	res := f.Call(t, repo.Tools(), "get_commit", map[string]any{"owner": "o", "repo": "r", "sha": "feature/x"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	reqs := f.Requests()
	assert.Contains(t, reqs[0].RawQuery, "sha=feature%2Fx", "the name travels in a query")
	assert.Contains(t, reqs[0].RawQuery, "limit=1")
	assert.Equal(t, "/api/v1/repos/o/r/git/commits/c0ffee", reqs[1].Path)
}

func TestGetCommitErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		sha  string
		want string
	}{
		{"missing commit", "dead", `commit "dead" in o/r not found (404)`},
		{"missing branch with slash", "no/such", `branch, tag or commit "no/such" in o/r not found (404)`},
		{"dot segment goes in the query", "..", `branch, tag or commit ".." in o/r not found (404)`},
		{"empty", " ", `argument "sha" must not be empty`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r", 200, rawRepo)
			f.JSON("GET /api/v1/repos/o/r/commits", 404, map[string]string{"message": "object does not exist"})
			res := f.Call(t, repo.Tools(), "get_commit", map[string]any{"owner": "o", "repo": "r", "sha": tc.sha})
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}
}

func TestGetCommitDiff(t *testing.T) {
	line := "+" + strings.Repeat("x", 99) + "\n"
	diff := "diff --git a/f b/f\n" + strings.Repeat(line, 3000) // ~300 KB
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/git/commits/c0ffee.patch", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("From c0ffee\n" + diff)) // no Range support, like the forge
	})
	call := func(args map[string]any) tool.DiffWindow {
		t.Helper()
		args["owner"], args["repo"], args["sha"], args["type"] = "o", "r", "c0ffee", "patch"
		res := f.Call(t, repo.Tools(), "get_commit_diff", args)
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var d tool.DiffWindow
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &d))
		return d
	}
	d := call(map[string]any{})
	assert.True(t, strings.HasPrefix(d.Diff, "From c0ffee\n"))
	assert.LessOrEqual(t, tool.JSONLen(d.Diff), tool.TextBudget)
	assert.True(t, strings.HasSuffix(d.Diff, "\n"), "cut at a line end")
	assert.Contains(t, d.Note, "read on with offset=")
	assert.Contains(t, d.Note, "get_commit lists the files")
	whole := d.Diff
	for d.NextOffset > 0 {
		d = call(map[string]any{"offset": float64(d.NextOffset)})
		whole += d.Diff
	}
	assert.Equal(t, "From c0ffee\n"+diff, whole, "the windows give the whole patch")

	res := f.Call(t, repo.Tools(), "get_commit_diff", map[string]any{"owner": "o", "repo": "r", "sha": "c0ffee", "type": "tar"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "diff, patch")
}

func TestGetCommitDiffMissingCommit(t *testing.T) {
	f := fakeforge.New(t)
	// Gitea's answer to the diff of a missing commit.
	f.JSON("GET /api/v1/repos/o/r/git/commits/dead.diff", 500, map[string]string{"message": "object does not exist"})
	f.JSON("GET /api/v1/repos/o/r", 200, rawRepo)
	res := f.Call(t, repo.Tools(), "get_commit_diff", map[string]any{"owner": "o", "repo": "r", "sha": "dead"})
	require.True(t, res.IsError)
	assert.Equal(t, `commit "dead" in o/r not found (404): it does not exist or this token cannot see it`, fakeforge.Text(t, res))
}
