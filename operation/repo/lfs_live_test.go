package repo_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLiveGetFileContentLFS pushes an object to the forge's LFS store (the
// batch API, no git-lfs) and commits its pointer: get_file_content reads
// the object's text, in line windows, not the pointer.
func TestLiveGetFileContentLFS(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	text := []byte("first line\nsecond line\nthird line\n")
	f.PushLFS(t, owner, name, "data/notes.txt", text)

	res := f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": owner, "repo": name, "path": "data/notes.txt",
		"ref": "main", "from_line": 2.0, "to_line": 3.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out struct {
		Size  int64  `json:"size"`
		Lines int    `json:"lines"`
		Text  string `json:"text"`
		Note  string `json:"note"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	assert.Equal(t, "second line\nthird line\n", out.Text)
	assert.Equal(t, int64(len(text)), out.Size)
	assert.Equal(t, 3, out.Lines)
	assert.Equal(t, "Git LFS object (sha256 "+sha(text)+"), read in place of its pointer", out.Note)

	// A file that is its pointer's text but for the last line feed is text.
	near := testforge.LFSPointer([]byte("other"))
	near = near[:len(near)-1]
	f.Do(t, "POST", "/repos/"+owner+"/"+name+"/contents/near.txt", map[string]any{"content": b64(near)}, nil)
	res = f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": owner, "repo": name, "path": "near.txt"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	out.Note = ""
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	assert.Equal(t, near, out.Text)
	assert.Empty(t, out.Note)
}
