package content_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/content"
)

const oneHunk = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b"

func TestApplyDiffPatch(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/diffpatch", 200, map[string]any{
		"commit": map[string]any{"sha": "c0ffee", "html_url": "http://x/o/r/commit/c0ffee", "message": "Fix a\n\nbody"}})
	res := f.Call(t, content.Tools(), "apply_diff_patch", map[string]any{"owner": "o", "repo": "r", "diff": oneHunk, "message": "Fix a", "new_branch": "fix"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"commit":"c0ffee","commit_url":"http://x/o/r/commit/c0ffee","branch":"fix","message":"Fix a"}`, fakeforge.Text(t, res))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, map[string]any{"content": oneHunk + "\n", "message": "Fix a", "new_branch": "fix"}, sent,
		"the diff as it is, not base64, its last line ended")

	for _, tc := range []struct {
		name, want string
		status     int
		body       string
	}{
		{"does not apply", "the diff does not apply to the default branch as it is now", 422, `{"message":"patch does not apply"}`},
		{"no route", "this forge cannot apply a diff (no repoApplyDiffPatch route): change_files", 404, "404 page not found\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Handle("POST /api/v1/repos/o/r/diffpatch", func(w http.ResponseWriter, _ *http.Request) {
				if tc.status == 404 {
					w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				} else {
					w.Header().Set("Content-Type", "application/json")
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			})
			res := f.Call(t, content.Tools(), "apply_diff_patch", map[string]any{"owner": "o", "repo": "r", "diff": oneHunk})
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}

	f = fakeforge.New(t)
	res = f.Call(t, content.Tools(), "apply_diff_patch", map[string]any{"owner": "o", "repo": "r", "diff": "not a diff"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "diff is not a unified diff")
	assert.Empty(t, f.Requests(), "nothing sent")
}
