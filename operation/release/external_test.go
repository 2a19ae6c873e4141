package release_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/release"
)

// Forgejo 13.0.5's recorded answers about release 5 (recorded/README.md):
// tool.txt, a file of 20 bytes, and two external assets a repository
// writer linked, which the forge answers with size 0 and the link as
// browser_download_url. Each tool shows the external ones as external,
// with their URL and without a size; the file as a file.
func TestExternalAssetsSayTheyAreExternal(t *testing.T) {
	rec, err := fakeforge.LoadRecording("forgejo-13.0.5")
	require.NoError(t, err)
	const file = `{"id":4,"name":"tool.txt","size":20`
	extern := func(id, name, link string) string {
		return `{"id":` + id + `,"name":"` + name + `","type":"external","external_url":"` + link + `"}`
	}
	tarball := extern("5", "external.tar.gz", "https://example.invalid/dist/tool-1.0.tar.gz")
	for _, c := range []struct {
		tool string
		seq  int
		args map[string]any
		want []string // compact JSON fragments
	}{
		{"get_release_by_id", 173, map[string]any{"release_id": 5.0}, []string{file + `}`, tarball, `"name":"external-same-origin.json","type":"external"`}},
		{"list_release_attachments", 172, map[string]any{"release_id": 5.0}, []string{file, `"id":5,"name":"external.tar.gz","download_count":0`,
			`"type":"external","external_url":"https://example.invalid/dist/tool-1.0.tar.gz"`}},
		{"get_release_attachment", 177, map[string]any{"release_id": 5.0, "attachment_id": 5.0}, []string{`"id":5,"name":"external.tar.gz"`,
			`"type":"external","external_url":"https://example.invalid/dist/tool-1.0.tar.gz"}`}},
		{"get_release_attachment", 174, map[string]any{"release_id": 5.0, "attachment_id": 4.0}, []string{file, `"browser_download_url":"`}},
	} {
		f := fakeforge.New(t)
		f.ReplayExact(rec, c.seq)
		c.args["owner"], c.args["repo"] = "forgeadmin", "sweep-rec"
		res := f.Call(t, append(release.Tools(), attachment.ReleaseTools(release.Toolset)...), c.tool, c.args)
		text := fakeforge.Text(t, res)
		require.False(t, res.IsError, text)
		for _, w := range c.want {
			assert.Contains(t, text, w, c.tool)
		}
		if c.seq != 174 {
			assert.NotContains(t, text, `"size":0`, "%s: an external asset is not an empty file", c.tool)
			assert.NotContains(t, text, `"browser_download_url":"https://example.invalid`, c.tool)
		}
	}
}
