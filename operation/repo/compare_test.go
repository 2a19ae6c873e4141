package repo_test

import (
	"encoding/json"
	"net/http"
	"path"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

func cmpCommit(sha, msg string, add, del int, files ...map[string]any) map[string]any {
	return map[string]any{"sha": sha, "html_url": "http://x",
		"commit": map[string]any{"message": msg, "author": map[string]any{"name": "Alice", "date": "2026-01-02T03:04:05Z"}},
		"author": map[string]any{"login": "alice"}, "files": files,
		"stats": map[string]any{"total": add + del, "additions": add, "deletions": del}}
}

func file(name, status string) map[string]any {
	return map[string]any{"filename": name, "status": status}
}

func TestCompareCommits(t *testing.T) {
	// Gitea lists the commits newest first and no files of its own.
	gitea := map[string]any{"total_commits": 3, "commits": []any{
		cmpCommit("c3", "Drop tmp\n\nbody", 0, 1, file("tmp.txt", "removed"), file("a.go", "modified")),
		cmpCommit("c2", "Edit", 2, 1, file("a.go", "modified"), file("b.go", "modified")),
		cmpCommit("c1", "Start", 5, 0, file("a.go", "added"), file("tmp.txt", "added")),
	}}
	forgejo := map[string]any{"total_commits": 1, "commits": []any{cmpCommit("c1", "Start", 1, 0)},
		"files": []any{file("a.go", "added")}}
	for _, tc := range []struct {
		name  string
		forge map[string]any
		want  string
	}{
		{"gitea: files from the commits", gitea, `{"base":"ba5e","head":"4ead","total_commits":3,"commits":[
			{"sha":"c3","message":"Drop tmp","author":"alice","date":"2026-01-02T03:04:05Z","additions":0,"deletions":1},
			{"sha":"c2","message":"Edit","author":"alice","date":"2026-01-02T03:04:05Z","additions":2,"deletions":1},
			{"sha":"c1","message":"Start","author":"alice","date":"2026-01-02T03:04:05Z","additions":5,"deletions":0}],
			"files":[{"filename":"a.go","status":"added"},{"filename":"b.go","status":"modified"}]}`},
		{"forgejo: its files stand in for commits without", forgejo, `{"base":"ba5e","head":"4ead","total_commits":1,"commits":[
			{"sha":"c1","message":"Start","author":"alice","date":"2026-01-02T03:04:05Z","additions":1,"deletions":0}],
			"files":[{"filename":"a.go","status":"added"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/compare/ba5e...4ead", 200, tc.forge)
			res := f.Call(t, repo.Tools(), "compare_commits", map[string]any{"owner": "o", "repo": "r", "base": "ba5e", "head": "4ead"})
			require.False(t, res.IsError, fakeforge.Text(t, res))
			assert.JSONEq(t, tc.want, fakeforge.Text(t, res))
			assert.Len(t, f.Requests(), 1, "SHAs need no resolving")
		})
	}
}

func TestCompareCommitsResolvesNames(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/commits", func(w http.ResponseWriter, r *http.Request) {
		sha := map[string]string{"main": "ba5e", "feature/x": "4ead"}[r.URL.Query().Get("sha")]
		fakeforge.WriteJSON(w, 200, []any{map[string]any{"sha": sha}})
	})
	f.JSON("GET /api/v1/repos/o/r/compare/ba5e...4ead", 200, map[string]any{"total_commits": 0, "commits": []any{}})
	res := f.Call(t, repo.Tools(), "compare_commits", map[string]any{"owner": "o", "repo": "r", "base": "main", "head": "feature/x"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"base":"ba5e","head":"4ead","total_commits":0,"commits":[],"files":[]}`, fakeforge.Text(t, res))
	reqs := f.Requests()
	require.Len(t, reqs, 3)
	assert.Equal(t, "/api/v1/repos/o/r/compare/ba5e...4ead", reqs[2].Path, "no name in the route")
}

func TestCompareCommitsBounded(t *testing.T) {
	commits := make([]any, 120)
	for i := range commits {
		commits[i] = cmpCommit("c", "m", 1, 0, file("a", "modified"))
	}
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/compare/ba5e...4ead", 200, map[string]any{"total_commits": 120, "commits": commits})
	res := f.Call(t, repo.Tools(), "compare_commits", map[string]any{"owner": "o", "repo": "r", "base": "ba5e", "head": "4ead"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	got := decode[repo.Comparison](t, fakeforge.Text(t, res))
	assert.Len(t, got.Commits, 100)
	assert.Equal(t, 120, got.TotalCommits)
	assert.Equal(t, "only the newest 100 of 120 commits are listed; list the rest with list_repo_commits (sha=4ead)", got.Note)
}

func TestCompareCommitsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, base, head string
		repoStatus       int
		missing          string // the commit GetSingleCommit does not find
		want             string
	}{
		{"missing repository", "ba5e", "4ead", 404, "", "repository o/r not found (404)"},
		{"missing base", "ba5e", "4ead", 200, "ba5e", `base "ba5e" in o/r not found (404)`},
		{"missing head", "ba5e", "4ead", 200, "4ead", `head "4ead" in o/r not found (404)`},
		{"missing branch", "main", "no/such", 200, "", `branch, tag or commit "main" in o/r not found (404)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r", tc.repoStatus, rawRepo)
			f.JSON("GET /api/v1/repos/o/r/commits", 404, nil)
			f.JSON("GET /api/v1/repos/o/r/compare/ba5e...4ead", 404, map[string]string{"message": "not found"})
			f.Handle("GET /api/v1/repos/o/r/git/commits/", func(w http.ResponseWriter, r *http.Request) {
				sha := path.Base(r.URL.Path)
				if sha == tc.missing {
					fakeforge.WriteJSON(w, 404, map[string]string{"message": "not found"})
					return
				}
				fakeforge.WriteJSON(w, 200, map[string]any{"sha": sha})
			})
			res := f.Call(t, repo.Tools(), "compare_commits", map[string]any{"owner": "o", "repo": "r", "base": tc.base, "head": tc.head})
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}
}

// The same four commits compared on Forgejo 13.0.5, whose files list is
// every commit's files concatenated (c.txt removed, b.txt and c.txt added,
// a.txt modified and added), and on Gitea 1.26, which sends none (recorded
// seq 25): the net change is the same on both.
func TestCompareCommitsNetFilesOnBoth(t *testing.T) {
	recs, err := fakeforge.Recordings()
	require.NoError(t, err)
	for _, rec := range recs {
		f := fakeforge.New(t)
		f.Replay(rec, "compare_commits")
		res := f.Call(t, repo.Tools(), "compare_commits", map[string]any{"owner": "forgeadmin", "repo": "sweep-rec", "base": "main", "head": "feature"})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var got repo.Comparison
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &got))
		assert.Equal(t, 4, got.TotalCommits, rec.Name)
		assert.Equal(t, []repo.ChangedFile{{Filename: "a.txt", Status: "added"}, {Filename: "b.txt", Status: "added"}}, got.Files,
			"%s: c.txt is added and removed again", rec.Name)
	}
}
