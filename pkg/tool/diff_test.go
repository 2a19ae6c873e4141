package tool_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestReadDiffWindow(t *testing.T) {
	short := "diff --git a/f b/f\n+x\n"
	longLine := "+" + strings.Repeat("y", tool.MaxDiffBytes+10) + "\n"
	for _, tc := range []struct {
		name       string
		diff       string
		offset     int64
		want       string
		wantNext   int64
		wantNoteIn string
	}{
		{"whole", short, 0, short, 0, ""},
		{"from an offset", short, 19, "+x\n", 0, ""},
		{"past the end", short, 100, "", 0, "offset is at or past the end of the diff"},
		{"a line longer than the window is cut inside it", longLine, 0, longLine[:tool.MaxDiffBytes], tool.MaxDiffBytes, "narrow with get_x"},
		{"invalid UTF-8 is replaced", "+\xff\n", 0, "+\uFFFD\n", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Handle("GET /api/v1/d.diff", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(tc.diff)) })
			got, err := tool.ReadDiffWindow(context.Background(), f.Client(), "/d.diff", tc.offset, "get_x")
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.Diff)
			assert.Equal(t, tc.offset, got.Offset)
			assert.Equal(t, tc.wantNext, got.NextOffset)
			if tc.wantNoteIn == "" {
				assert.Empty(t, got.Note)
			} else {
				assert.Contains(t, got.Note, tc.wantNoteIn)
			}
		})
	}
}

func TestReadDiffWindowFailure(t *testing.T) {
	f := fakeforge.New(t)
	_, err := tool.ReadDiffWindow(context.Background(), f.Client(), "/missing.diff", 0, "get_x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "404")
}
