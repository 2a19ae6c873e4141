package repo_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

func contents(path, text string) map[string]any {
	enc := base64.StdEncoding.EncodeToString([]byte(text))
	return map[string]any{"name": path[strings.LastIndex(path, "/")+1:], "path": path, "sha": "abc123", "type": "file",
		"size": len(text), "encoding": "base64", "content": enc, "url": "http://x/api", "html_url": "http://x/html",
		"git_url": "http://x/git", "download_url": "http://x/raw", "_links": map[string]any{"self": "http://x/api"}}
}

type fileResult struct {
	Path      string  `json:"path"`
	SHA       string  `json:"sha"`
	Size      int64   `json:"size"`
	Lines     int     `json:"lines"`
	FromLine  int     `json:"from_line"`
	ToLine    int     `json:"to_line"`
	Text      *string `json:"text"`
	Truncated bool    `json:"truncated"`
	Note      string  `json:"note"`
}

func getFile(t *testing.T, f *fakeforge.Server, args map[string]any) fileResult {
	t.Helper()
	res := f.Call(t, repo.Tools(), "get_file_content", args)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out fileResult
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	return out
}

func TestGetFileContentWholeAndRange(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/contents/src/main.go", 200, contents("src/main.go", "package main\n\nfunc main() {}\n"))
	res := f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": "src/main.go", "ref": "dev"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"path":"src/main.go","sha":"abc123","size":29,"lines":3,"from_line":1,"to_line":3,
		"text":"package main\n\nfunc main() {}\n"}`, fakeforge.Text(t, res))
	assert.Equal(t, "ref=dev", f.Requests()[0].RawQuery)

	got := getFile(t, f, map[string]any{"owner": "o", "repo": "r", "path": "src/main.go", "from_line": 2.0, "to_line": 9.0})
	assert.Equal(t, "\nfunc main() {}\n", *got.Text)
	assert.Equal(t, 2, got.FromLine)
	assert.Equal(t, 3, got.ToLine, "to_line past the end stops at the last line")
	assert.Empty(t, f.Requests()[1].RawQuery, "no ref, no query")

	res = f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": "src/main.go", "from_line": 7.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "from_line 7 is past the end of src/main.go (3 lines)")
}

func TestGetFileContentBinaryAndHuge(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/contents/tool.bin", 200, contents("tool.bin", "\x7fELF\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	got := getFile(t, f, map[string]any{"owner": "o", "repo": "r", "path": "tool.bin"})
	assert.Nil(t, got.Text, "binary content is not dumped")
	assert.Equal(t, "binary file (16 bytes): not shown", got.Note)

	line := strings.Repeat("x", 1023) + "\n"
	big := strings.Repeat(line, 300) // 300 KiB
	f.JSON("GET /api/v1/repos/o/r/contents/big.txt", 200, contents("big.txt", big))
	got = getFile(t, f, map[string]any{"owner": "o", "repo": "r", "path": "big.txt"})
	assert.True(t, got.Truncated)
	assert.Equal(t, 47, got.ToLine, "47 lines of 1,025 bytes of JSON each fit 48 KiB")
	assert.Len(t, *got.Text, 47*1024)
	assert.Equal(t, 300, got.Lines)
	assert.Equal(t, "cut at line 47 (limit 48 KiB per call); read on with from_line=48", got.Note)
	got = getFile(t, f, map[string]any{"owner": "o", "repo": "r", "path": "big.txt", "from_line": 257.0})
	assert.False(t, got.Truncated)
	assert.Equal(t, 300, got.ToLine)

	f.JSON("GET /api/v1/repos/o/r/contents/huge.bin", 200, map[string]any{"path": "huge.bin", "sha": "s", "type": "file", "size": 50 << 20, "content": nil})
	got = getFile(t, f, map[string]any{"owner": "o", "repo": "r", "path": "huge.bin"})
	assert.Nil(t, got.Text)
	assert.Contains(t, got.Note, "too large")
}

func TestGetFileContentErrors(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/contents/src", 200, []any{contents("src/a.go", "x")})
	f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"full_name": "o/r"})
	f.JSON("GET /api/v1/repos/o/r/git/commits/v1", 200, map[string]any{"sha": "c0ffee"})
	res := f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": "src"})
	assert.True(t, res.IsError)
	assert.Equal(t, "file src in o/r is a directory: use list_repo_contents", fakeforge.Text(t, res))

	res = f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": "nope.go", "ref": "v1"})
	assert.True(t, res.IsError)
	assert.Equal(t, "file nope.go in o/r@v1 not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))

	n := len(f.Requests())
	res = f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": "a/../../etc/passwd"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `argument "path"`)
	assert.Contains(t, fakeforge.Text(t, res), "'.' and '..' are not names")
	assert.Len(t, f.Requests(), n, "refused before the forge")
}

func TestListRepoContents(t *testing.T) {
	f := fakeforge.New(t)
	dir := contents("src/sub", "")
	dir["type"], dir["content"], dir["encoding"], dir["size"] = "dir", nil, nil, 0
	f.JSON("GET /api/v1/repos/o/r/contents/src", 200, []any{contents("src/a.go", "abc"), dir})
	f.JSON("GET /api/v1/repos/o/r/contents/", 200, []any{contents("README.md", "hi")})
	res := f.Call(t, repo.Tools(), "list_repo_contents", map[string]any{"owner": "o", "repo": "r", "path": "src/", "ref": "main"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"name":"a.go","type":"file","size":3,"path":"src/a.go"},
		{"name":"sub","type":"dir","size":0,"path":"src/sub"}],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, repo.Tools(), "list_repo_contents", map[string]any{"owner": "o", "repo": "r"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"path":"README.md"`)
	assert.Equal(t, "/api/v1/repos/o/r/contents/", f.Requests()[1].Path)

	f.JSON("GET /api/v1/repos/o/r/contents/README.md", 200, contents("README.md", "hi"))
	res = f.Call(t, repo.Tools(), "list_repo_contents", map[string]any{"owner": "o", "repo": "r", "path": "README.md"})
	assert.True(t, res.IsError)
	assert.Equal(t, "README.md in o/r is a file, not a directory: use get_file_content", fakeforge.Text(t, res))
}

func TestWriteFiles(t *testing.T) {
	f := fakeforge.New(t)
	answer := func(w http.ResponseWriter, r *http.Request) {
		fakeforge.WriteJSON(w, 201, map[string]any{
			"content": contents("docs/a b.md", "new"),
			"commit": map[string]any{"sha": "c0ffee", "html_url": "http://x/commit/c0ffee", "message": "m",
				"author": map[string]any{"name": "n", "email": "e"}},
		})
	}
	for _, m := range []string{"POST", "PUT"} {
		f.Handle(m+" /api/v1/repos/o/r/contents/docs/a%20b.md", answer)
	}
	f.Handle("DELETE /api/v1/repos/o/r/contents/docs/a%20b.md", func(w http.ResponseWriter, r *http.Request) {
		fakeforge.WriteJSON(w, 200, map[string]any{"content": nil, "commit": map[string]any{"sha": "dead", "html_url": "http://x/commit/dead"}})
	})

	res := f.Call(t, repo.Tools(), "create_file", map[string]any{"owner": "o", "repo": "r", "path": "docs/a b.md", "content": "new", "branch": "feat"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"path":"docs/a b.md","sha":"abc123","commit":"c0ffee","commit_url":"http://x/commit/c0ffee"}`, fakeforge.Text(t, res))
	assert.JSONEq(t, fmt.Sprintf(`{"content":%q,"branch":"feat"}`, base64.StdEncoding.EncodeToString([]byte("new"))), string(f.Requests()[0].Body),
		"plain text goes out base64-encoded; nothing not given is sent")

	res = f.Call(t, repo.Tools(), "update_file", map[string]any{"owner": "o", "repo": "r", "path": "docs/a b.md", "content": "newer", "sha": "abc123", "message": "Fix"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[1].Body, &sent))
	assert.Equal(t, map[string]any{"content": base64.StdEncoding.EncodeToString([]byte("newer")), "sha": "abc123", "message": "Fix"}, sent)

	res = f.Call(t, repo.Tools(), "delete_file", map[string]any{"owner": "o", "repo": "r", "path": "docs/a b.md", "sha": "abc123"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"path":"docs/a b.md","commit":"dead","commit_url":"http://x/commit/dead","deleted":true}`, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"sha":"abc123"}`, string(f.Requests()[2].Body))

	f.JSON("PUT /api/v1/repos/o/r/contents/stale.txt", 409, map[string]string{"message": "sha does not match"})
	res = f.Call(t, repo.Tools(), "update_file", map[string]any{"owner": "o", "repo": "r", "path": "stale.txt", "content": "x", "sha": "old", "branch": "dev"})
	assert.True(t, res.IsError)
	assert.Equal(t, "update file stale.txt in o/r@dev: conflict (409), it may already exist: sha does not match", fakeforge.Text(t, res))
}

func TestListRepoContentsBounded(t *testing.T) {
	f := fakeforge.New(t)
	var many []any
	for i := 0; i < repo.MaxEntries+5; i++ {
		many = append(many, map[string]any{"name": fmt.Sprint(i), "path": fmt.Sprint(i), "type": "file", "size": 1})
	}
	f.JSON("GET /api/v1/repos/o/r/contents/", 200, many)
	res := f.Call(t, repo.Tools(), "list_repo_contents", map[string]any{"owner": "o", "repo": "r", "path": "/"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out struct {
		Entries []repo.Entry `json:"items"`
		HasMore bool         `json:"has_more"`
		Note    string       `json:"note"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	assert.Len(t, out.Entries, repo.MaxEntries)
	assert.True(t, out.HasMore)
	assert.Equal(t, fmt.Sprintf("only the first %d of %d entries; list a subdirectory", repo.MaxEntries, repo.MaxEntries+5), out.Note)
}
