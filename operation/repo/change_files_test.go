package repo_test

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

func changeArgs(ops ...map[string]any) map[string]any {
	files := make([]any, len(ops))
	for i, o := range ops {
		files[i] = o
	}
	return map[string]any{"owner": "o", "repo": "r", "files": files}
}

func TestChangeFiles(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/contents", 201, map[string]any{
		"files": []any{
			map[string]any{"name": "a.txt", "path": "a.txt", "sha": "aaa", "content": "YWxwaGEK"},
			map[string]any{"name": "b.txt", "path": "docs/b.txt", "sha": "bbb"},
			nil,
		},
		"commit": map[string]any{"sha": "c0ffee", "html_url": "http://x/o/r/commit/c0ffee", "message": "m"},
	})
	args := changeArgs(
		map[string]any{"operation": "create", "path": "a.txt", "content": "alpha\n"},
		map[string]any{"operation": "update", "path": "docs/b.txt", "from_path": "b.txt", "sha": "old", "content": "ünïcode"},
		map[string]any{"operation": "delete", "path": "c.txt", "sha": "ccc"},
	)
	args["message"], args["new_branch"], args["branch"] = "Three at once", "work", "main"
	res := f.Call(t, repo.Tools(), "change_files", args)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"commit":"c0ffee","commit_url":"http://x/o/r/commit/c0ffee","branch":"work","files":[
		{"operation":"create","path":"a.txt","sha":"aaa"},
		{"operation":"update","path":"docs/b.txt","sha":"bbb"},
		{"operation":"delete","path":"c.txt"}]}`, fakeforge.Text(t, res))

	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, map[string]any{
		"message": "Three at once", "new_branch": "work", "branch": "main",
		"files": []any{
			map[string]any{"operation": "create", "path": "a.txt", "content": base64.StdEncoding.EncodeToString([]byte("alpha\n"))},
			map[string]any{"operation": "update", "path": "docs/b.txt", "from_path": "b.txt", "sha": "old",
				"content": base64.StdEncoding.EncodeToString([]byte("ünïcode"))},
			map[string]any{"operation": "delete", "path": "c.txt", "sha": "ccc"},
		},
	}, sent, "content is text, sent base64-encoded as create_file does")
}

func TestChangeFilesRefusals(t *testing.T) {
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"no files", changeArgs(), "files must have at least one item"},
		{"create without content", changeArgs(map[string]any{"operation": "create", "path": "a"}), "files[0]: create needs content"},
		{"update without sha", changeArgs(map[string]any{"operation": "create", "path": "a", "content": ""},
			map[string]any{"operation": "update", "path": "b", "content": "x"}), "files[1]: update needs sha"},
		{"delete with content", changeArgs(map[string]any{"operation": "delete", "path": "a", "sha": "s", "content": "x"}), "files[0]: delete takes no content"},
		{"move on create", changeArgs(map[string]any{"operation": "create", "path": "a", "content": "x", "from_path": "b"}), "files[0]: from_path moves a file: only with update"},
		{"climbing path", changeArgs(map[string]any{"operation": "create", "path": "../etc/passwd", "content": "x"}), `files[0]: path: `},
		{"absolute path", changeArgs(map[string]any{"operation": "create", "path": "/a", "content": "x"}), "without a leading '/'"},
		{"climbing from_path", changeArgs(map[string]any{"operation": "update", "path": "a", "from_path": "a/../../b", "sha": "s", "content": "x"}), "files[0]: from_path: "},
		{"unknown operation", changeArgs(map[string]any{"operation": "rename", "path": "a"}), "files[0].operation must be one of create, update, delete, replace"},
		{"replace without old", changeArgs(map[string]any{"operation": "replace", "path": "a", "content": "x"}), "files[0]: replace needs old"},
		{"replace without content", changeArgs(map[string]any{"operation": "replace", "path": "a", "old": "x"}), "files[0]: replace needs old"},
		{"old on update", changeArgs(map[string]any{"operation": "update", "path": "a", "sha": "s", "content": "x", "old": "y"}), "files[0]: old is the text replace changes: only with replace"},
		{"move on replace", changeArgs(map[string]any{"operation": "replace", "path": "a", "old": "x", "content": "y", "from_path": "b"}), "files[0]: from_path moves a file: only with update"},
		{"unknown field", changeArgs(map[string]any{"operation": "create", "path": "a", "content": "x", "encoding": "base64"}), `files[0]: unknown field "encoding"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			res := f.Call(t, repo.Tools(), "change_files", tc.args)
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
			assert.True(t, strings.HasPrefix(fakeforge.Text(t, res), "invalid arguments for change_files: "), fakeforge.Text(t, res))
			assert.Empty(t, f.Requests(), "refused before the forge")
		})
	}
}

func TestChangeFilesForgeRefusal(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/contents", 422, map[string]any{"message": "sha does not match [given: x, expected: y]"})
	args := changeArgs(map[string]any{"operation": "update", "path": "a", "sha": "x", "content": "y"})
	args["branch"] = "dev"
	res := f.Call(t, repo.Tools(), "change_files", args)
	require.True(t, res.IsError)
	assert.Equal(t, "change file a in o/r@dev: the forge rejected the input (422): sha does not match [given: x, expected: y]; "+
		"files[0] (a) has an out-of-date sha: read the file's current one with get_file_content", fakeforge.Text(t, res))
}

// TestChangeFilesStreamsItsBody: the body is produced as it is sent
// (issue 18, item 10), with an exact Content-Length, and decodes to the
// text given, however long; without message or branches it is still JSON.
func TestChangeFilesStreamsItsBody(t *testing.T) {
	f := fakeforge.New(t)
	var got struct {
		length int64
		body   []byte
	}
	f.Handle("POST /api/v1/repos/o/r/contents", func(w http.ResponseWriter, r *http.Request) {
		got.length = r.ContentLength
		got.body, _ = io.ReadAll(r.Body)
		fakeforge.WriteJSON(w, http.StatusCreated, map[string]any{"commit": map[string]any{"sha": "c0ffee"}})
	})
	text := strings.Repeat("a€\"\\\n", 300_001) // not a multiple of 3 bytes, with escapes
	res := f.Call(t, repo.Tools(), "change_files", changeArgs(
		map[string]any{"operation": "delete", "path": "old.txt", "sha": "s"},
		map[string]any{"operation": "create", "path": "big.txt", "content": text}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Equal(t, int64(len(got.body)), got.length, "the declared length is exact")
	var sent struct {
		Files []map[string]string `json:"files"`
	}
	require.NoError(t, json.Unmarshal(got.body, &sent), "valid JSON")
	require.Len(t, sent.Files, 2)
	assert.Equal(t, map[string]string{"operation": "delete", "path": "old.txt", "sha": "s"}, sent.Files[0])
	content, err := base64.StdEncoding.DecodeString(sent.Files[1]["content"])
	require.NoError(t, err)
	assert.Equal(t, text, string(content))
}
