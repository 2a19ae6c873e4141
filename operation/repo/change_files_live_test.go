package repo_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLiveChangeFiles: one commit creates two files on a new branch; the
// next updates one, moves it and deletes the other; one with a stale SHA
// changes nothing at all.
func TestLiveChangeFiles(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	call := f.RepoCaller(t, repo.Tools(), owner, name)

	var first repo.Changed
	require.NoError(t, json.Unmarshal([]byte(call("change_files", map[string]any{"new_branch": "work", "message": "Two files", "files": []any{
		map[string]any{"operation": "create", "path": "src/a.txt", "content": "alpha\n"},
		map[string]any{"operation": "create", "path": "src/b.txt", "content": "beta\n"},
	}})), &first))
	assert.Len(t, first.Commit, 40)
	assert.Equal(t, "work", first.Branch)
	require.Len(t, first.Files, 2)
	assert.Equal(t, "src/a.txt", first.Files[0].Path)
	assert.Len(t, first.Files[0].SHA, 40)

	text := call("list_repo_commits", map[string]any{"sha": "work", "limit": 1})
	assert.Contains(t, text, first.Commit, "one commit holds both files")
	text = call("get_file_content", map[string]any{"path": "src/b.txt", "ref": "work"})
	assert.Contains(t, text, `"text":"beta\n"`)

	var second repo.Changed
	require.NoError(t, json.Unmarshal([]byte(call("change_files", map[string]any{"branch": "work", "message": "Rename and drop", "files": []any{
		map[string]any{"operation": "update", "path": "src/alpha.txt", "from_path": "src/a.txt", "sha": first.Files[0].SHA, "content": "ALPHA\n"},
		map[string]any{"operation": "delete", "path": "src/b.txt", "sha": first.Files[1].SHA},
	}})), &second))
	assert.NotEqual(t, first.Commit, second.Commit)
	assert.Empty(t, second.Files[1].SHA, "a deleted file has no SHA")
	text = call("list_repo_contents", map[string]any{"path": "src", "ref": "work"})
	assert.Contains(t, text, `"name":"alpha.txt"`)
	assert.NotContains(t, text, `"name":"a.txt"`)
	assert.NotContains(t, text, "b.txt")

	// Atomic: a stale SHA in the second change, and the first is not made either.
	res := f.Call(t, repo.Tools(), "change_files", map[string]any{"owner": owner, "repo": name, "branch": "work", "files": []any{
		map[string]any{"operation": "create", "path": "src/c.txt", "content": "gamma\n"},
		map[string]any{"operation": "update", "path": "src/alpha.txt", "sha": first.Files[0].SHA, "content": "stale\n"},
	}})
	require.True(t, res.IsError)
	t.Logf("stale sha: %s", fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), "change 2 files in "+owner+"/"+name+"@work")
	assert.Contains(t, fakeforge.Text(t, res), "files[1] (src/alpha.txt) has an out-of-date sha")
	res = f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": owner, "repo": name, "path": "src/c.txt", "ref": "work"})
	assert.True(t, res.IsError, "nothing of a refused change is committed")

	// A missing branch is named.
	res = f.Call(t, repo.Tools(), "change_files", map[string]any{"owner": owner, "repo": name, "branch": "nope", "files": []any{
		map[string]any{"operation": "create", "path": "x.txt", "content": "x"},
	}})
	require.True(t, res.IsError)
	t.Logf("missing branch: %s", fakeforge.Text(t, res))
	assert.True(t, strings.Contains(fakeforge.Text(t, res), `"nope"`), fakeforge.Text(t, res))
}

// TestLiveChangeFilesReplace: one line of a file edited in place on a new
// branch; an ambiguous edit and a stale sha change nothing.
func TestLiveChangeFilesReplace(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	call := f.RepoCaller(t, repo.Tools(), owner, name)
	call("change_files", map[string]any{"files": []any{
		map[string]any{"operation": "create", "path": "cfg.ini", "content": "[a]\nlevel = 1\n[b]\nlevel = 1\nname = x\n"}}})

	var edit repo.Changed
	require.NoError(t, json.Unmarshal([]byte(call("change_files", map[string]any{"new_branch": "tune", "message": "Raise b", "files": []any{
		map[string]any{"operation": "replace", "path": "cfg.ini", "old": "[b]\nlevel = 1", "content": "[b]\nlevel = 2"},
		map[string]any{"operation": "replace", "path": "cfg.ini", "old": "name = x", "content": "name = y"},
	}})), &edit))
	assert.Equal(t, "tune", edit.Branch)
	require.Len(t, edit.Files, 2)
	assert.Equal(t, "replace", edit.Files[0].Operation)
	assert.Len(t, edit.Files[0].SHA, 40)
	assert.Contains(t, call("get_file_content", map[string]any{"path": "cfg.ini", "ref": "tune"}), `"text":"[a]\nlevel = 1\n[b]\nlevel = 2\nname = y\n"`)
	assert.Contains(t, call("get_file_content", map[string]any{"path": "cfg.ini"}), `level = 1\nname = x`, "the base branch is as it was")

	for _, tc := range []struct {
		name string
		item map[string]any
		want string
	}{
		{"ambiguous", map[string]any{"old": "level = 1", "content": "level = 3"}, "old text found 2 times"},
		{"stale sha", map[string]any{"old": "name = x", "content": "name = z", "sha": edit.Files[0].SHA}, "has an out-of-date sha"},
		{"missing file", map[string]any{"path": "nope.ini", "old": "a", "content": "b"}, "nope.ini"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			item := map[string]any{"operation": "replace", "path": "cfg.ini"}
			for k, v := range tc.item {
				item[k] = v
			}
			res := f.Call(t, repo.Tools(), "change_files", map[string]any{"owner": owner, "repo": name, "files": []any{item}})
			require.True(t, res.IsError)
			t.Logf("%s: %s", tc.name, fakeforge.Text(t, res))
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}
	assert.Contains(t, call("get_file_content", map[string]any{"path": "cfg.ini"}), `"text":"[a]\nlevel = 1\n[b]\nlevel = 1\nname = x\n"`, "nothing changed")
}
