package content_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/content"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

type found struct {
	Matches []struct {
		Path string `json:"path"`
		Line int    `json:"line"`
		Text string `json:"text"`
	} `json:"matches"`
	Files     int    `json:"files_searched"`
	Complete  bool   `json:"complete"`
	NextAfter string `json:"next_after"`
}

// TestLiveSearchRepoContent greps a repository on a live forge: matches
// with path and line, a path prefix, a branch, case folding, and a
// limit that stops with the after that resumes.
func TestLiveSearchRepoContent(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := append(repo.Tools(), content.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	call("change_files", map[string]any{"message": "Seed", "files": []any{
		map[string]any{"operation": "create", "path": "a.go", "content": "package a\n// TODO: one\n"},
		map[string]any{"operation": "create", "path": "docs/b.md", "content": "title\nTodo: two\nTODO: three\n"},
		map[string]any{"operation": "create", "path": "docs/c.md", "content": "nothing\n"},
	}})
	search := func(args map[string]any) found {
		var out found
		require.NoError(t, json.Unmarshal([]byte(call("search_repo_content", args)), &out))
		return out
	}
	out := search(map[string]any{"query": "TODO"})
	assert.True(t, out.Complete)
	require.Len(t, out.Matches, 2)
	assert.Equal(t, "a.go", out.Matches[0].Path)
	assert.Equal(t, 2, out.Matches[0].Line)
	assert.Equal(t, "// TODO: one", out.Matches[0].Text)
	assert.Equal(t, "docs/b.md", out.Matches[1].Path)
	assert.Equal(t, 3, out.Matches[1].Line)

	out = search(map[string]any{"query": "todo", "ignore_case": true, "path": "docs/"})
	require.Len(t, out.Matches, 2)
	assert.Equal(t, 2, out.Files, "only the files under docs/")

	out = search(map[string]any{"query": "todo", "ignore_case": true, "limit": 1.0})
	assert.False(t, out.Complete)
	assert.Equal(t, "a.go", out.NextAfter)
	out = search(map[string]any{"query": "todo", "ignore_case": true, "after": out.NextAfter})
	require.Len(t, out.Matches, 2, "resumed after a.go")
	assert.Equal(t, "docs/b.md", out.Matches[0].Path)

	call("create_branch", map[string]any{"branch": "other"})
	call("create_file", map[string]any{"path": "other.txt", "content": "TODO: on other\n", "branch": "other"})
	out = search(map[string]any{"query": "on other", "ref": "other"})
	require.Len(t, out.Matches, 1)
	assert.Empty(t, search(map[string]any{"query": "on other"}).Matches, "the default branch lacks it")
}
