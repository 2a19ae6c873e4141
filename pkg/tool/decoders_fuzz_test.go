package tool

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"github.com/stretchr/testify/require"
)

// FuzzDiffWindow: a window of any diff text is a prefix of it that fits
// its budget as JSON (a line longer than the budget is cut inside it),
// follows on at NextOffset, and the file it names is in it.
func FuzzDiffWindow(f *testing.F) {
	f.Add("diff --git a/f b/f\n+x\n", 30)
	f.Add("diff --git \"a/with space\" \"b/with space\"\n+y\ndiff --git a/g b/g\n", 40)
	f.Add("+\xff\u2028\"\\\n", 7)
	f.Fuzz(func(t *testing.T, text string, budget int) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			budget = 1 + abs(budget%8192)
			w := window(text, 100, budget)
			require.True(t, strings.HasPrefix(text, w.Diff))
			require.LessOrEqual(t, JSONLen(w.Diff), budget)
			if w.NextOffset > 0 {
				require.Equal(t, int64(100+len(w.Diff)), w.NextOffset)
				require.Less(t, len(w.Diff), len(text))
			} else {
				require.Equal(t, text, w.Diff)
			}
			if f := lastFile(w.Diff); f != "" {
				require.Contains(t, w.Diff, f)
			}
			for line := range strings.SplitSeq(text, "\n") {
				if rest, ok := strings.CutPrefix(line, "diff --git a/"); ok && !strings.ContainsAny(rest, " \"") {
					require.True(t, headerNames("diff --git a/"+rest+" b/"+rest, rest))
					require.Equal(t, rest, headerFile("diff --git a/"+rest+" b/"+rest))
				}
			}
		})
	})
}

// FuzzSniff: what the bytes of a download say they are holds: an image
// type only for its signature, text only for valid UTF-8 without NUL, and
// git's binary test exactly.
func FuzzSniff(f *testing.F) {
	for _, s := range []string{"\x89PNG\r\n\x1a\nrest", "\xff\xd8\xff\xe0", "GIF89a", "RIFF\x00\x00\x00\x00WEBPVP8 ", "plain text\n",
		"\x00binary", "\xff\xfe", "\x1b[31mred\x1b[0m\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			if mt, ok := ImageType(data); ok {
				signature := map[string][]byte{"image/png": []byte("\x89PNG\r\n\x1a\n"), "image/jpeg": {0xff, 0xd8, 0xff},
					"image/gif": []byte("GIF8"), "image/webp": []byte("RIFF")}[mt]
				require.True(t, bytes.HasPrefix(data, signature), "%s without its signature", mt)
			}
			if IsText(data) {
				require.True(t, utf8.Valid(data))
				require.NotContains(t, string(data), "\x00")
			}
			head := data[:min(len(data), 8000)]
			require.Equal(t, bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(data), IsBinary(data))
			require.NotEmpty(t, BlobType("application/octet-stream", data))
		})
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
