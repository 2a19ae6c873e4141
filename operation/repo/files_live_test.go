package repo_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

func TestLiveFileLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := repo.Tools()
	call := f.RepoCaller(t, defs, owner, name)

	text := call("create_branch", map[string]any{"branch": "feature", "from": "main"})
	assert.Contains(t, text, `"name":"feature"`)
	text = call("list_branches", map[string]any{})
	assert.Contains(t, text, `"name":"main"`)
	assert.Contains(t, text, `"name":"feature"`)

	var w struct{ Path, SHA, Commit string }
	text = call("create_file", map[string]any{"path": "src/hello world.txt", "content": "one\ntwo\nthree\n", "message": "Add hello", "branch": "feature"})
	require.NoError(t, json.Unmarshal([]byte(text), &w))
	assert.Equal(t, "src/hello world.txt", w.Path)
	assert.NotEmpty(t, w.SHA)
	assert.NotEmpty(t, w.Commit)

	text = call("get_file_content", map[string]any{"path": "src/hello world.txt", "ref": "feature", "from_line": 2.0, "to_line": 2.0})
	var got struct {
		SHA   string `json:"sha"`
		Text  string `json:"text"`
		Lines int    `json:"lines"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &got))
	assert.Equal(t, "two\n", got.Text)
	assert.Equal(t, 3, got.Lines)
	assert.Equal(t, w.SHA, got.SHA)

	text = call("list_repo_contents", map[string]any{"path": "src", "ref": "feature"})
	assert.JSONEq(t, `{"items":[{"name":"hello world.txt","type":"file","size":14,"path":"src/hello world.txt"}],"page":1,"has_more":false}`, text)
	text = call("list_repo_contents", map[string]any{})
	assert.Contains(t, text, `"name":"README.md"`, "the root, on the default branch")
	assert.NotContains(t, text, `"src"`, "feature's file is not on main")

	res := f.Call(t, defs, "update_file", map[string]any{"owner": owner, "repo": name, "path": "src/hello world.txt", "content": "x", "sha": strings.Repeat("0", 40), "branch": "feature"})
	assert.True(t, res.IsError, "a stale sha is refused")
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("update file src/hello world.txt in %s/%s@feature", owner, name))

	text = call("update_file", map[string]any{"path": "src/hello world.txt", "content": "ONE\n", "sha": w.SHA, "message": "Shout", "branch": "feature"})
	require.NoError(t, json.Unmarshal([]byte(text), &w))
	text = call("get_file_content", map[string]any{"path": "src/hello world.txt", "ref": "feature"})
	assert.Contains(t, text, `"text":"ONE\n"`)

	text = call("list_repo_commits", map[string]any{"sha": "feature", "limit": 2.0})
	assert.Contains(t, text, `"message":"Shout"`)
	assert.Contains(t, text, `"message":"Add hello"`)
	assert.Contains(t, text, `"has_more":true`)

	text = call("delete_file", map[string]any{"path": "src/hello world.txt", "sha": w.SHA, "branch": "feature"})
	assert.Contains(t, text, `"deleted":true`)
	res = f.Call(t, defs, "get_file_content", map[string]any{"owner": owner, "repo": name, "path": "src/hello world.txt", "ref": "feature"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("file src/hello world.txt in %s/%s@feature not found (404): it does not exist or this token cannot see it", owner, name))
}

func TestLiveFileContentKinds(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := repo.Tools()
	res := f.Call(t, defs, "create_file", map[string]any{"owner": owner, "repo": name, "path": "bin/blob.dat", "content": "a\x01\x02\uFFFDb"})
	require.False(t, res.IsError, fakeforge.Text(t, res))

	res = f.Call(t, defs, "get_file_content", map[string]any{"owner": owner, "repo": name, "path": "bin"})
	assert.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("file bin in %s/%s is a directory: use list_repo_contents", owner, name), fakeforge.Text(t, res))

	res = f.Call(t, defs, "get_file_content", map[string]any{"owner": owner, "repo": name, "path": "README.md"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"from_line":1`)

	res = f.Call(t, defs, "list_repo_contents", map[string]any{"owner": owner, "repo": name, "path": "README.md"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "is a file, not a directory")

	readOnly := f.WithToken(f.TokenWithScopes(t, "read:repository"))
	res = readOnly.Call(t, defs, "create_branch", map[string]any{"owner": owner, "repo": name, "branch": "nope"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "permission denied (403)")
}
