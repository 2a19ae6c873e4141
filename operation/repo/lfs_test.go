package repo_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// pointerOf is the Git LFS pointer file of data.
func pointerOf(data []byte) string {
	return fmt.Sprintf("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n", sha(data), len(data))
}

// Only the spec's three-line pointer is one; files that merely look like
// one stay text.
func TestParseLFSPointer(t *testing.T) {
	oid := strings.Repeat("ab", 32)
	good := "version https://git-lfs.github.com/spec/v1\noid sha256:" + oid + "\nsize 12345\n"
	p, ok := repo.ParseLFSPointer([]byte(good))
	require.True(t, ok)
	assert.Equal(t, repo.LFSPointer{OID: oid, Size: 12345}, p)
	p, ok = repo.ParseLFSPointer([]byte(strings.Replace(good, "12345", "0", 1)))
	require.True(t, ok)
	assert.Zero(t, p.Size)

	for name, text := range map[string]string{
		"no final line feed":   strings.TrimSuffix(good, "\n"),
		"CRLF":                 strings.ReplaceAll(good, "\n", "\r\n"),
		"old spec URL":         strings.Replace(good, "git-lfs.github.com/spec/v1", "hawser.github.com/spec/v1", 1),
		"other version":        strings.Replace(good, "spec/v1", "spec/v2", 1),
		"extension line":       strings.Replace(good, "\noid", "\next-0-foo sha256:"+oid+"\noid", 1),
		"trailing line":        good + "x\n",
		"leading space":        " " + good,
		"capital hex":          strings.Replace(good, oid, strings.ToUpper(oid), 1),
		"short oid":            strings.Replace(good, oid, oid[:63], 1),
		"sha1 oid":             strings.Replace(good, "sha256:", "sha1:", 1),
		"negative size":        strings.Replace(good, "12345", "-1", 1),
		"leading zero size":    strings.Replace(good, "12345", "012345", 1),
		"size over int64":      strings.Replace(good, "12345", "99999999999999999999", 1),
		"size with unit":       strings.Replace(good, "12345", "12345B", 1),
		"lines out of order":   "oid sha256:" + oid + "\nversion https://git-lfs.github.com/spec/v1\nsize 1\n",
		"doc quoting pointer":  "# How LFS works\n\n" + good,
		"empty":                "",
		"over 1024 bytes":      good + strings.Repeat(" ", 1024),
		"two spaces after key": strings.Replace(good, "size 12345", "size  12345", 1),
	} {
		_, ok := repo.ParseLFSPointer([]byte(text))
		assert.False(t, ok, name)
	}
}

// get_file_content of an LFS-tracked file reads the object through
// /media (with the ref) and shows it as any file: text in line windows,
// an image as an image; lfs says so.
func TestGetFileContentLFS(t *testing.T) {
	f := fakeforge.New(t)
	text := []byte("line one\nline two\nline three\n")
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR-lfs")
	objects := map[string][]byte{"data/notes.txt": text, "logo.png": png}
	for path, data := range objects {
		f.JSON("GET /api/v1/repos/o/r/contents/"+path, 200, contents(path, pointerOf(data)))
	}
	var media []string
	f.Handle("GET /api/v1/repos/o/r/media/", func(w http.ResponseWriter, r *http.Request) {
		media = append(media, r.URL.Path+"?"+r.URL.RawQuery)
		_, _ = w.Write(objects[strings.TrimPrefix(r.URL.Path, "/api/v1/repos/o/r/media/")])
	})
	res := f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": "data/notes.txt",
		"ref": "v1", "from_line": 2.0, "to_line": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"path":"data/notes.txt","sha":"abc123","size":29,"lines":3,"from_line":2,"to_line":2,"text":"line two\n",
		"note":"Git LFS object (sha256 `+sha(text)+`), read in place of its pointer"}`, fakeforge.Text(t, res))
	assert.Equal(t, []string{"/api/v1/repos/o/r/media/data/notes.txt?ref=v1"}, media)

	res = f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": "logo.png"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"note":"Git LFS object (sha256 `+sha(png)+`)`)
	require.Len(t, res.Content, 2)
	assert.Equal(t, "image/png", res.Content[1].(mcp.ImageContent).MIMEType)
	assert.Equal(t, "/api/v1/repos/o/r/media/logo.png?", media[1])
}

// A pointer whose object the forge does not serve (/media answers the
// pointer again, or other bytes), or whose object is too large, is shown
// as the pointer with a note; a near-miss pointer is text and /media is
// never asked.
func TestGetFileContentLFSFallbacks(t *testing.T) {
	f := fakeforge.New(t)
	pointer := pointerOf([]byte("the real object"))
	huge := fmt.Sprintf("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n", strings.Repeat("0", 64), repo.MaxLFSBytes+1)
	nearMiss := strings.TrimSuffix(pointer, "\n")
	f.JSON("GET /api/v1/repos/o/r/contents/gone.bin", 200, contents("gone.bin", pointer))
	f.JSON("GET /api/v1/repos/o/r/contents/other.bin", 200, contents("other.bin", pointer))
	f.JSON("GET /api/v1/repos/o/r/contents/huge.bin", 200, contents("huge.bin", huge))
	f.JSON("GET /api/v1/repos/o/r/contents/near.txt", 200, contents("near.txt", nearMiss))
	f.Handle("GET /api/v1/repos/o/r/media/gone.bin", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(pointer)) })
	f.Handle("GET /api/v1/repos/o/r/media/other.bin", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("tampered")) })
	for _, path := range []string{"gone.bin", "other.bin"} {
		res := f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": path})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.Contains(t, fakeforge.Text(t, res), "Git LFS pointer whose object (15 bytes", path)
		assert.Contains(t, fakeforge.Text(t, res), `"text":"version https://git-lfs.github.com/spec/v1\n`, path)
	}
	res := f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": "huge.bin"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), "over the 10 MiB get_file_content reads")
	assert.Empty(t, f.RequestsTo("GET", "/api/v1/repos/o/r/media/huge.bin"))

	res = f.Call(t, repo.Tools(), "get_file_content", map[string]any{"owner": "o", "repo": "r", "path": "near.txt"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.NotContains(t, fakeforge.Text(t, res), "LFS")
	assert.Empty(t, f.RequestsTo("GET", "/api/v1/repos/o/r/media/near.txt"))
}
