package attachment_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestControlBytesAreNotLabelledText: issue 18, item 11. A .md attachment
// whose bytes are mostly terminal escapes, bells and backspaces is no
// text: it comes back as a blob labelled application/octet-stream, in the
// blob and in the metadata, whole or in windows, never as text/markdown.
// A real Markdown file still comes back as text.
func TestControlBytesAreNotLabelledText(t *testing.T) {
	f := newForge(t)
	hostile := bytes.Repeat([]byte("# Title\x1b[2J\x1b]0;pwned\x07\x08\x08\n"), 100)
	a := f.add("issue/3", "notes.md", hostile)
	md := f.add("issue/3", "README.md", []byte(strings.Repeat("# Title\n\nSome *text*.\n", 20)))

	for name, extra := range map[string][]any{"whole": nil, "window": {"offset", 10, "max_bytes", 500}} {
		t.Run(name, func(t *testing.T) {
			res := f.call(t, "download_issue_attachment", args(append([]any{"index", 3, "attachment_id", a.ID}, extra...)...))
			require.False(t, res.IsError, textOf(t, res))
			_, blob := blobOf(t, res)
			assert.Equal(t, "application/octet-stream", blob.MIMEType)
			meta := decodeDownload(t, textOf(t, res))
			assert.Equal(t, "blob", meta.Content)
			assert.Equal(t, "application/octet-stream", meta.MIMEType)
		})
	}
	res := f.call(t, "download_issue_attachment", args("index", 3, "attachment_id", md.ID))
	require.False(t, res.IsError, textOf(t, res))
	meta := decodeDownload(t, textOf(t, res))
	assert.Equal(t, "text", meta.Content)
	assert.Equal(t, "text/plain", meta.MIMEType, "as the forge served it")
}
