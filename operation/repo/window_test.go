package repo

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// windowText is the text and note window puts in a result.
func windowText(t testing.TB, text string, args map[string]any) (File, error) {
	res, err := window(File{Path: "f"}, text, tool.NewArgs(args))
	if err != nil {
		return File{}, err
	}
	var out File
	require.NoError(t, json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &out))
	return out, nil
}

// TestWindowLongLines: a line longer than the window is cut, and the
// window otherwise ends at a line end.
func TestWindowLongLines(t *testing.T) {
	for _, text := range []string{strings.Repeat("x", MaxTextBytes+10) + "\nnext\n", strings.Repeat("\"\\\n", 20000)} {
		for _, from := range []int{1, 2} {
			out, err := windowText(t, text, map[string]any{"from_line": int64(from)})
			require.NoError(t, err)
			want, last, long := referenceLines(text, from, lineCount(text), MaxTextBytes)
			assert.Equal(t, lineCount(text), out.Lines)
			assert.Equal(t, want, *out.Text)
			assert.Equal(t, last, out.ToLine)
			assert.Equal(t, long || last < lineCount(text), out.Truncated)
		}
	}
}

// TestWindowDoesNotSplitTheFile: a file of 16 Mi newlines costs the
// window its result, not 16 bytes a line (256 MB split into a slice).
func TestWindowDoesNotSplitTheFile(t *testing.T) {
	text := strings.Repeat("\n", 16<<20)
	var out File
	var err error
	cost := costcheck.Measure(func() { out, err = windowText(t, text, map[string]any{"from_line": int64(1 << 23)}) })
	require.NoError(t, err)
	assert.Equal(t, 16<<20, out.Lines)
	assert.Less(t, cost.Alloc, int64(4<<20), "allocated")
	assert.Equal(t, 1<<23, out.FromLine)
	assert.True(t, out.Truncated)
}

// FuzzFileWindow: walking the lines gives what splitting them gave.
func FuzzFileWindow(f *testing.F) {
	f.Add("package main\n\nfunc main() {}\n", 2, 9, 48)
	f.Add("a\nb", 1, 1, 1)
	f.Add("\"\\\n\n\u2028\n", 3, 0, 5)
	f.Fuzz(func(t *testing.T, text string, from, to, budget int) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			n := lineCount(text)
			from = 1 + abs(from%(n+1))
			to = from + abs(to%(n+2))
			budget = abs(budget % 4096)
			got, last, long := lines(text, from, min(to, n), budget)
			want, wantLast, wantLong := referenceLines(text, from, min(to, n), budget)
			require.Equal(t, want, got)
			require.Equal(t, wantLast, last)
			require.Equal(t, wantLong, long)
		})
	})
}

// referenceLines is lines as it was, the text split into a slice.
func referenceLines(text string, from, to, budget int) (string, int, bool) {
	all := strings.SplitAfter(text, "\n")
	if len(all) > 0 && all[len(all)-1] == "" {
		all = all[:len(all)-1]
	}
	var b strings.Builder
	last, size := from-1, 0
	for i := from - 1; i < to && i < len(all); i++ {
		n := tool.JSONLen(all[i])
		if size+n > budget && i > from-1 {
			break
		}
		b.WriteString(all[i])
		last, size = i+1, size+n
	}
	s := b.String()
	if size > budget {
		return s[:tool.FitPrefix(s, budget)], last, true
	}
	return s, last, false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// FuzzDiffLineCounts: a commit's diff is the forge's text of anyone's
// commit: any bytes are counted without a panic, and no file is counted
// more added and deleted lines than the diff has lines.
func FuzzDiffLineCounts(f *testing.F) {
	for _, s := range []string{
		"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n",
		"diff --git \"a/sp ace\" \"b/sp ace\"\n--- \"a/sp ace\"\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n",
		"--- a/x\n+++ \"b/\\xff\"\n@@\n+++ inside\n--- inside\n", "@@\n+\n-\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, diff []byte) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			lines := strings.Count(string(diff), "\n") + 1
			total := 0
			for _, n := range diffLineCounts(diff) {
				require.GreaterOrEqual(t, n[0], 0)
				require.GreaterOrEqual(t, n[1], 0)
				total += n[0] + n[1]
			}
			require.LessOrEqual(t, total, lines)
		})
	})
}
