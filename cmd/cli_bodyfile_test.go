package cmd

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

// TestTextFileFlags: every long text parameter has a --NAME-file flag,
// and nothing else has one.
func TestTextFileFlags(t *testing.T) {
	n := 0
	for _, d := range operation.All() {
		r := runMain(t, nil, "", "--cli", d.Name, "--help")
		require.Equal(t, ExitOK, r.code, r.err)
		for _, p := range d.Params {
			has := strings.Contains(r.out, "; or --"+strings.ReplaceAll(p.Name, "_", "-")+"-file FILE")
			assert.Equal(t, longText(p), has, "%s --%s", d.Name, p.Name)
			if longText(p) {
				n++
			}
		}
	}
	assert.Greater(t, n, 30, "bodies, descriptions, messages and file texts")
}

// TestBodyFile: --body-file reads a file or standard input, exactly; it
// refuses a binary file, --body beside it, and two readers of standard
// input.
func TestBodyFile(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/issues", 201, map[string]any{"number": 9, "title": "t", "state": "open", "user": map[string]any{"login": "a"}})
	env := fakeEnv(f)
	body := "Steps:\n\n    git clone --depth 1 \"$URL\"\n\nIt's `quoted` — and 'single'.\n"
	file := filepath.Join(t.TempDir(), "body.md")
	require.NoError(t, os.WriteFile(file, []byte(body), 0o644))
	sent := func() map[string]any {
		// The last write: the trust pass's own lookups are reads.
		var reqs []fakeforge.Request
		for _, r := range f.Requests() {
			if r.Method == http.MethodPost {
				reqs = append(reqs, r)
			}
		}
		require.NotEmpty(t, reqs)
		var got map[string]any
		require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &got))
		return got
	}
	create := []string{"--cli", "create_issue", "-R", "o/r", "--title", "t"}

	r := runMain(t, env, "", append(create, "--body-file", file)...)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Equal(t, body, sent()["body"])

	r = runMain(t, env, body, append(create, "--body-file", "-")...)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Equal(t, body, sent()["body"])

	r = runMain(t, env, `{"title": "from args"}`, "--cli", "create_issue", "-R", "o/r", "--args", "-", "--body-file", file)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Equal(t, "from args", sent()["title"])
	assert.Equal(t, body, sent()["body"])

	binary := filepath.Join(t.TempDir(), "shot.png")
	require.NoError(t, os.WriteFile(binary, []byte("\x89PNG\r\n\x1a\n\x00\x00"), 0o644))
	before := len(f.Requests())
	for _, tt := range []struct {
		args  []string
		stdin string
		err   string
	}{
		{[]string{"--body-file", binary}, "", "--body-file " + binary + ": not text"},
		{[]string{"--body-file", filepath.Join(t.TempDir(), "none.md")}, "", "no such file or directory"},
		{[]string{"--body-file", file, "--body", "x"}, "", "--body and --body-file both give body: give one"},
		{[]string{"--body-file", "-", "--args", "-"}, "{}", "standard input can be read once"},
		{[]string{"--body-file", file, "--body-file", file}, "", "--body-file is given twice"},
	} {
		r := runMain(t, env, tt.stdin, append(create, tt.args...)...)
		assert.Equal(t, ExitUsage, r.code, r.err)
		assert.Contains(t, r.err, tt.err)
	}
	assert.Len(t, f.Requests(), before, "nothing was sent")

	// Every long text flag works the same: a commit message, a file's text.
	f.JSON("POST /api/v1/repos/o/r/contents/docs/a.md", 201, map[string]any{"content": map[string]any{"path": "docs/a.md", "sha": strings.Repeat("a", 40)},
		"commit": map[string]any{"sha": strings.Repeat("b", 40)}})
	msg := filepath.Join(t.TempDir(), "msg.txt")
	require.NoError(t, os.WriteFile(msg, []byte("docs: add a\n\nWhy it matters.\n"), 0o644))
	r = runMain(t, env, "", "--cli", "create_file", "-R", "o/r", "--path", "docs/a.md", "--content-file", file, "--message-file", msg)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Equal(t, "docs: add a\n\nWhy it matters.\n", sent()["message"])
}
