package content_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/content"
)

func blob(s string) map[string]any {
	return map[string]any{"content": base64.StdEncoding.EncodeToString([]byte(s)), "encoding": "base64", "size": len(s)}
}

// TestSearchRepoContent: matches by path and line in path order, a large
// file and a binary one skipped, long lines cut, a file's matches past
// the limit named with where to go on.
func TestSearchRepoContent(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/commits", 200, []any{map[string]any{"sha": "1234567890abcdef1234567890abcdef12345678",
		"commit": map[string]any{"message": "m"}}})
	f.JSON("GET /api/v1/repos/o/r/git/trees/1234567890abcdef1234567890abcdef12345678", 200, map[string]any{"total_count": 5, "tree": []any{
		map[string]any{"path": "z.txt", "type": "blob", "size": 10, "sha": "z1"},
		map[string]any{"path": "a.txt", "type": "blob", "size": 10, "sha": "a1"},
		map[string]any{"path": "dir", "type": "tree", "sha": "d1"},
		map[string]any{"path": "big.bin", "type": "blob", "size": 1 << 30, "sha": "b1"},
		map[string]any{"path": "img.png", "type": "blob", "size": 4, "sha": "p1"},
	}})
	f.JSON("GET /api/v1/repos/o/r/git/blobs/a1", 200, blob("one\nneedle here\n"+strings.Repeat("x", 300)+"needle\n"))
	f.JSON("GET /api/v1/repos/o/r/git/blobs/z1", 200, blob("needle\nneedle\nneedle\n"))
	f.JSON("GET /api/v1/repos/o/r/git/blobs/p1", 200, blob("\x89PNG\x00needle"))

	res := f.Call(t, content.Tools(), "search_repo_content", map[string]any{"owner": "o", "repo": "r", "query": "needle", "limit": 4.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var out struct {
		Matches []struct {
			Path string `json:"path"`
			Line int    `json:"line"`
			Text string `json:"text"`
		} `json:"matches"`
		Files     int    `json:"files_searched"`
		Skipped   int    `json:"files_skipped"`
		Complete  bool   `json:"complete"`
		NextAfter string `json:"next_after"`
		Note      string `json:"note"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	require.Len(t, out.Matches, 4)
	assert.Equal(t, "a.txt", out.Matches[0].Path)
	assert.Equal(t, 2, out.Matches[0].Line)
	assert.Equal(t, 3, out.Matches[1].Line)
	assert.True(t, strings.HasSuffix(out.Matches[1].Text, "…"), "a long line is cut")
	assert.LessOrEqual(t, len(out.Matches[1].Text), 204)
	assert.Equal(t, "z.txt", out.Matches[3].Path)
	assert.Equal(t, 2, out.Skipped, "the large file unread, the binary one read and skipped")
	assert.False(t, out.Complete)
	assert.Equal(t, "z.txt", out.NextAfter)
	assert.Contains(t, out.Note, "z.txt has more")
	for _, r := range f.Requests() {
		assert.NotContains(t, r.Path, "blobs/b1", "a file over the bound is never read")
	}

	res = f.Call(t, content.Tools(), "search_repo_content", map[string]any{"owner": "o", "repo": "r", "query": "needle", "after": "img.png", "ref": "main"})
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &out))
	assert.True(t, out.Complete)
	assert.Len(t, out.Matches, 3, "only z.txt, after img.png")
}
