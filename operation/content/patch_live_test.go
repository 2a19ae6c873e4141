package content_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/content"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLiveApplyDiffPatch applies a git diff that edits one file and adds
// another as one commit on a new branch, reads both back, and sees a diff
// that no longer applies refused with what to do.
func TestLiveApplyDiffPatch(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := append(repo.Tools(), content.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	call("create_file", map[string]any{"path": "greet.txt", "content": "hello\nworld\n", "message": "Add greet"})

	diff := "diff --git a/greet.txt b/greet.txt\n--- a/greet.txt\n+++ b/greet.txt\n@@ -1,2 +1,2 @@\n hello\n-world\n+there\n" +
		"diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n"
	var out struct {
		Commit string `json:"commit"`
		Branch string `json:"branch"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("apply_diff_patch", map[string]any{"diff": diff, "message": "Greet there", "new_branch": "patched"})), &out))
	assert.Len(t, out.Commit, 40)
	assert.Equal(t, "patched", out.Branch)

	assert.Contains(t, call("get_file_content", map[string]any{"path": "greet.txt", "ref": "patched"}), "hello\\nthere\\n")
	assert.Contains(t, call("get_file_content", map[string]any{"path": "new.txt", "ref": "patched"}), "new\\n")
	assert.Contains(t, call("get_commit", map[string]any{"sha": "patched"}), "Greet there")
	assert.Contains(t, call("get_file_content", map[string]any{"path": "greet.txt"}), "hello\\nworld\\n", "main is untouched")

	// The same diff on the patched branch no longer applies.
	res := f.Call(t, defs, "apply_diff_patch", map[string]any{"owner": owner, "repo": name, "diff": diff, "branch": "patched"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "the diff does not apply to branch patched as it is now")

	res = f.Call(t, defs, "apply_diff_patch", map[string]any{"owner": owner, "repo": name, "diff": "just words"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "diff is not a unified diff")
}
