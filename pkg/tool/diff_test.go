package tool_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func serveDiff(t *testing.T, diff string) *fakeforge.Server {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/d.diff", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(diff)) })
	return f
}

func readDiff(t *testing.T, f *fakeforge.Server, args map[string]any) (tool.DiffWindow, error) {
	t.Helper()
	a := map[string]any{}
	for k, v := range args {
		if n, ok := v.(int); ok {
			v = int64(n)
		}
		a[k] = v
	}
	return tool.ReadDiffWindow(context.Background(), f.Client(), "/d.diff", tool.NewArgs(a), "get_x")
}

func TestReadDiffWindow(t *testing.T) {
	short := "diff --git a/f b/f\n+x\n"
	longLine := "+" + strings.Repeat("y", tool.TextBudget+10) + "\n"
	for _, tc := range []struct {
		name       string
		diff       string
		offset     int
		want       string
		wantNext   int64
		wantNoteIn string
	}{
		{"whole", short, 0, short, 0, ""},
		{"from an offset", short, 19, "+x\n", 0, ""},
		{"past the end", short, 100, "", 0, "offset is at or past the end of the diff"},
		{"a line longer than the window is cut inside it", longLine, 0, longLine[:tool.TextBudget], tool.TextBudget, "read on with offset=49152"},
		{"invalid UTF-8 is replaced", "+\xff\n", 0, "+\uFFFD\n", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readDiff(t, serveDiff(t, tc.diff), map[string]any{"offset": tc.offset})
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.Diff)
			assert.EqualValues(t, tc.offset, got.Offset)
			assert.Equal(t, tc.wantNext, got.NextOffset)
			if tc.wantNoteIn == "" {
				assert.Empty(t, got.Note)
			} else {
				assert.Contains(t, got.Note, tc.wantNoteIn)
			}
		})
	}
}

// TestReadLargeDiff: a 2 MB diff comes in windows that fit the client as
// JSON, cut at line ends, each naming the file it stops in; path reads one
// file's part of it.
func TestReadLargeDiff(t *testing.T) {
	diff := string(fakeforge.BigDiff(2 << 20))
	f := serveDiff(t, diff)
	var read strings.Builder
	var offset int64
	for i := 0; i < 3; i++ {
		got, err := readDiff(t, f, map[string]any{"offset": int(offset)})
		require.NoError(t, err)
		assert.LessOrEqual(t, tool.JSONLen(got.Diff), tool.TextBudget)
		assert.Greater(t, tool.JSONLen(got.Diff), tool.TextBudget-200, "the window is filled")
		assert.True(t, strings.HasSuffix(got.Diff, "\n"))
		assert.Regexp(t, `^diff cut at byte \d+; read on with offset=\d+, or read one file's diff with path \(this window ends in pkg/f\d+\.go; get_x lists the files\)$`, got.Note)
		read.WriteString(got.Diff)
		offset = got.NextOffset
	}
	assert.Equal(t, diff[:offset], read.String(), "windows follow on without gap or overlap")

	got, err := readDiff(t, f, map[string]any{"max_bytes": 200000})
	require.NoError(t, err)
	assert.Greater(t, len(got.Diff), 150000, "a larger window when asked")

	got, err = readDiff(t, f, map[string]any{"path": "pkg/f7.go"})
	require.NoError(t, err)
	start := strings.Index(diff, "diff --git a/pkg/f7.go")
	end := strings.Index(diff, "diff --git a/pkg/f8.go")
	assert.Equal(t, diff[start:end], got.Diff, "exactly the file's part")
	assert.Zero(t, got.NextOffset)
	assert.Empty(t, got.Note)

	_, err = readDiff(t, f, map[string]any{"path": "nope.go"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `no file "nope.go" in this diff; it changes pkg/f0.go, pkg/f1.go`)
	assert.Contains(t, err.Error(), "(get_x lists them all)")
}

func TestReadOneFilesDiffInWindows(t *testing.T) {
	big := "diff --git a/x b/x\n" + strings.Repeat("+\"line\"\n", 20000) + "diff --git \"a/with space\" \"b/with space\"\n+y\n"
	f := serveDiff(t, big)
	got, err := readDiff(t, f, map[string]any{"path": "x"})
	require.NoError(t, err)
	assert.LessOrEqual(t, tool.JSONLen(got.Diff), tool.TextBudget)
	assert.Contains(t, got.Note, "x's diff cut at byte")
	next, err := readDiff(t, f, map[string]any{"path": "x", "offset": int(got.NextOffset)})
	require.NoError(t, err)
	assert.Equal(t, big[got.NextOffset:got.NextOffset+int64(len(next.Diff))], next.Diff)

	got, err = readDiff(t, f, map[string]any{"path": "with space"})
	require.NoError(t, err)
	assert.Equal(t, "diff --git \"a/with space\" \"b/with space\"\n+y\n", got.Diff)
}

func TestReadDiffWindowFailure(t *testing.T) {
	f := fakeforge.New(t)
	_, err := tool.ReadDiffWindow(context.Background(), f.Client(), "/missing.diff", tool.NewArgs(map[string]any{}), "get_x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "404")
}

// TestOneFilesDiffHoldsOnlyItsWindow: reading a file's part from far into
// it holds the window, not the part before it (10 MiB held and copied
// twice before).
func TestOneFilesDiffHoldsOnlyItsWindow(t *testing.T) {
	diff := []byte("diff --git a/x b/x\n" + strings.Repeat("+"+strings.Repeat("z", 99)+"\n", 120_000))
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/d.diff", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(diff) })
	offset := 10 << 20
	var got tool.DiffWindow
	var err error
	cost := costcheck.Measure(func() { got, err = readDiff(t, f, map[string]any{"path": "x", "offset": offset}) })
	require.NoError(t, err)
	assert.Equal(t, string(diff[offset:offset+len(got.Diff)]), got.Diff)
	assert.Less(t, cost.Alloc, int64(4<<20), "allocated")
}
