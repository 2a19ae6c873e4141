package repo_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// fileAt answers a contents read of a file with text at sha.
func fileAt(path, sha, text string) map[string]any {
	return map[string]any{"name": path, "path": path, "type": "file", "sha": sha, "size": len(text),
		"encoding": "base64", "content": base64.StdEncoding.EncodeToString([]byte(text))}
}

func committed(shas ...string) map[string]any {
	files := make([]any, len(shas))
	for i, s := range shas {
		files[i] = map[string]any{"sha": s}
	}
	return map[string]any{"files": files, "commit": map[string]any{"sha": "c0ffee", "html_url": "http://x/c"}}
}

// sentFiles is the files list of the commit request.
func sentFiles(t *testing.T, f *fakeforge.Server) []map[string]any {
	t.Helper()
	for _, r := range f.Requests() {
		if r.Method == http.MethodPost {
			var body struct{ Files []map[string]any }
			require.NoError(t, json.Unmarshal(r.Body, &body))
			return body.Files
		}
	}
	t.Fatal("no commit was sent")
	return nil
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestChangeFilesReplace(t *testing.T) {
	const src = "package a\n\nfunc A() int { return 1 }\n\nfunc B() int { return 2 }\n"
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/contents/a.go", 200, fileAt("a.go", "s1", src))
	f.JSON("POST /api/v1/repos/o/r/contents", 201, committed("new-a", "new-b"))
	args := changeArgs(
		map[string]any{"operation": "replace", "path": "a.go", "old": "return 1", "content": "return 10"},
		map[string]any{"operation": "create", "path": "b.txt", "content": "b"},
		map[string]any{"operation": "replace", "path": "a.go", "old": "return 2 }\n", "content": "return 20 }\n", "sha": "s1"},
	)
	args["branch"] = "dev"
	res := f.Call(t, repo.Tools(), "change_files", args)
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"commit":"c0ffee","commit_url":"http://x/c","branch":"dev","files":[
		{"operation":"replace","path":"a.go","sha":"new-a"},
		{"operation":"create","path":"b.txt","sha":"new-b"},
		{"operation":"replace","path":"a.go","sha":"new-a"}]}`, fakeforge.Text(t, res))
	assert.Equal(t, "ref=dev", f.Requests()[0].RawQuery, "the file is read from the branch written")
	assert.Equal(t, []map[string]any{
		{"operation": "update", "path": "a.go", "sha": "s1",
			"content": b64("package a\n\nfunc A() int { return 10 }\n\nfunc B() int { return 20 }\n")},
		{"operation": "create", "path": "b.txt", "content": b64("b")},
	}, sentFiles(t, f), "both replaces of a.go go as one update carrying the SHA read")
	assert.Len(t, f.Requests(), 2, "a.go is read once")
}

func TestChangeFilesReplaceRefusals(t *testing.T) {
	const src = "x := 1\nx := 1\ny := 2\r\n"
	tests := []struct {
		name string
		file map[string]any // the contents answer for a.go
		item map[string]any
		more []map[string]any
		want string
	}{
		{"twice", fileAt("a.go", "s1", src), map[string]any{"old": "x := 1"}, nil,
			"files[0] (a.go): old text found 2 times: give more of the surrounding lines so it matches once"},
		{"absent", fileAt("a.go", "s1", src), map[string]any{"old": "z := 3"}, nil,
			"files[0] (a.go): old text not found (it must match exactly, spaces and line ends included)"},
		{"stale sha", fileAt("a.go", "s2", src), map[string]any{"old": "y := 2", "sha": "s1"}, nil,
			"files[0] (a.go) has an out-of-date sha s1: the file is now at s2; read it again with get_file_content"},
		{"binary", fileAt("a.go", "s1", "\x00\x01\x02"), map[string]any{"old": "x"}, nil, "file a.go in o/r is binary: replace edits text only"},
		{"too large for the API", map[string]any{"type": "file", "sha": "s1", "path": "a.go"}, map[string]any{"old": "x"}, nil,
			"too large) to edit in place: send the whole file with update"},
		{"a directory", map[string]any{"type": "dir", "path": "a.go"}, map[string]any{"old": "x"}, nil, "file a.go in o/r is not a file"},
		{"also updated", fileAt("a.go", "s1", src), map[string]any{"old": "y := 2"},
			[]map[string]any{{"operation": "update", "path": "a.go", "sha": "s1", "content": "z"}},
			"files[0] replaces text in a.go, which files[1] also writes: edit a file one way per call"},
		{"also moved away", fileAt("a.go", "s1", src), map[string]any{"old": "y := 2"},
			[]map[string]any{{"operation": "update", "path": "c.go", "from_path": "a.go", "sha": "s1", "content": "z"}},
			"which files[1] also writes"},
		{"second replace undone by the first", fileAt("a.go", "s1", src), map[string]any{"old": "y := 2", "content": "w"},
			[]map[string]any{{"operation": "replace", "path": "a.go", "old": "y := 2", "content": "v"}}, "files[1] (a.go): old text not found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/contents/a.go", 200, tc.file)
			item := map[string]any{"operation": "replace", "path": "a.go", "content": "new"}
			for k, v := range tc.item {
				item[k] = v
			}
			res := f.Call(t, repo.Tools(), "change_files", changeArgs(append([]map[string]any{item}, tc.more...)...))
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
			for _, r := range f.Requests() {
				assert.Equal(t, http.MethodGet, r.Method, "nothing is committed")
			}
		})
	}
}

func TestChangeFilesReplaceCRLF(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/contents/w.txt", 200, fileAt("w.txt", "s1", "one\r\ntwo\r\nthree\r\n"))
	f.JSON("POST /api/v1/repos/o/r/contents", 201, committed("s2"))
	res := f.Call(t, repo.Tools(), "change_files", changeArgs(
		map[string]any{"operation": "replace", "path": "w.txt", "old": "one\ntwo\n", "content": "1\n2\n"}))
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Equal(t, b64("1\r\n2\r\nthree\r\n"), sentFiles(t, f)[0]["content"], "the file keeps its CRLF line ends")
}

func TestChangeFilesReplaceRaced(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/contents/a.go", 200, fileAt("a.go", "s1", "a\n"))
	f.JSON("POST /api/v1/repos/o/r/contents", 422, map[string]any{"message": "sha does not match [given: s1, expected: s2]"})
	res := f.Call(t, repo.Tools(), "change_files", changeArgs(map[string]any{"operation": "replace", "path": "a.go", "old": "a", "content": "b"}))
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "files[0] (a.go) changed on the branch while it was being edited: try again")
}
