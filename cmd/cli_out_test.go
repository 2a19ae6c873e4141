package cmd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// bigFile serves an attachment of data (with Range support) as issue 3's
// attachment 7; corrupt, when set, changes the bytes served after the
// metadata was read.
func bigFile(t *testing.T, data []byte, meta map[string]any, corrupt func([]byte) []byte) *fakeforge.Server {
	f := fakeforge.New(t)
	uuid := "0a1b2c3d-0000-4000-8000-0000000000aa"
	m := map[string]any{"id": 7, "name": "big.bin", "size": len(data), "uuid": uuid, "browser_download_url": "/attachments/" + uuid}
	for k, v := range meta {
		m[k] = v
	}
	f.JSON("GET /api/v1/repos/o/r/issues/3/assets/7", 200, m)
	served := data
	if corrupt != nil {
		served = corrupt(bytes.Clone(data))
	}
	f.Handle("GET /attachments/"+uuid, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		http.ServeContent(w, r, "big.bin", time.Time{}, bytes.NewReader(served))
	})
	return f
}

func noise(n int) []byte {
	r := rand.New(rand.NewPCG(7, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func hexSum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

func TestCLIOutPagesThroughWindows(t *testing.T) {
	data := noise(3_000_000)
	args := []string{"--cli", "download_issue_attachment", "--owner", "o", "--repo", "r", "--index", "3", "--attachment-id", "7"}
	t.Run("file", func(t *testing.T) {
		f := bigFile(t, data, nil, nil)
		dir := t.TempDir()
		file := filepath.Join(dir, "big.bin")
		r := runMain(t, fakeEnv(f), "", append(args, "--out", file)...)
		require.Equal(t, 0, r.code, r.err)
		got, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(data, got), "byte-identical")
		assert.Equal(t, "wrote 3000000 bytes (sha256 "+hexSum(data)+") to "+file+" in 3 windows\n", r.err)
		assert.Empty(t, r.out)
		entries, _ := os.ReadDir(dir)
		assert.Len(t, entries, 1, "no temporary file is left")
	})
	t.Run("stdout", func(t *testing.T) {
		f := bigFile(t, data, nil, nil)
		r := runMain(t, fakeEnv(f), "", append(args, "--out", "-")...)
		require.Equal(t, 0, r.code, r.err)
		assert.True(t, r.out == string(data), "the file on standard output")
	})
	for _, tc := range []struct {
		name    string
		meta    map[string]any
		corrupt func([]byte) []byte
		err     string
	}{
		{"a shorter file than the metadata says", nil, func(b []byte) []byte { return b[:2_500_000] }, "read 2500000 bytes but the forge says the file has 3000000"},
		{"a longer file than the metadata says", nil, func(b []byte) []byte { return append(b, 1, 2, 3) }, "window at offset 3000000 failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := bigFile(t, data, tc.meta, tc.corrupt)
			dir := t.TempDir()
			file := filepath.Join(dir, "big.bin")
			r := runMain(t, fakeEnv(f), "", append(args, "--out", file)...)
			assert.Equal(t, ExitToolError, r.code)
			assert.Contains(t, r.err, tc.err)
			assert.Contains(t, r.err, "nothing was written to "+file)
			entries, _ := os.ReadDir(dir)
			assert.Empty(t, entries, "no partial file, no temporary file")
		})
	}
}

// window answers like a windowed download tool from data.
func window(data []byte, lie func(m map[string]any)) func(map[string]any) *mcp.CallToolResult {
	return func(a map[string]any) *mcp.CallToolResult {
		off, n := a["offset"].(int64), a["max_bytes"].(int64)
		end := min(off+n, int64(len(data)))
		b := data[off:end]
		m := map[string]any{"offset": off, "total": len(data), "sha256": hexSum(b)}
		if end < int64(len(data)) {
			m["next_offset"] = end
		}
		if lie != nil {
			lie(m)
		}
		res, _ := tool.JSON(m)
		res.Content = append(res.Content, tool.Blob("forgejo://x", "application/octet-stream", b))
		return res
	}
}

func TestPageOutChecks(t *testing.T) {
	data := noise(10_000)
	first := func(sum string) *mcp.CallToolResult {
		res, _ := tool.JSON(map[string]any{"artifact": map[string]any{"size": len(data), "digest": "sha256:" + sum}})
		return res
	}
	for _, tc := range []struct {
		name string
		sum  string
		lie  func(map[string]any)
		err  string
	}{
		{"good", hexSum(data), nil, ""},
		{"the forge's sha256 differs", strings.Repeat("0", 64), nil, "the forge says " + strings.Repeat("0", 64)},
		{"a window's sha256 differs", hexSum(data), func(m map[string]any) { m["sha256"] = "x" }, "does not match its sha256"},
		{"a window from elsewhere", hexSum(data), func(m map[string]any) { m["offset"] = int64(5) }, "asked for offset 0, got 5"},
		{"next_offset skips", hexSum(data), func(m map[string]any) {
			if m["next_offset"] != nil {
				m["next_offset"] = m["next_offset"].(int64) + 1
			}
		}, "does not follow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "a.zip")
			var errb bytes.Buffer
			err := pageOut(context.Background(), IO{Out: &bytes.Buffer{}, Err: &errb}, window(data, tc.lie), map[string]any{}, 4096, first(tc.sum), file, 0)
			entries, _ := os.ReadDir(dir)
			if tc.err == "" {
				require.NoError(t, err)
				got, _ := os.ReadFile(file)
				assert.Equal(t, data, got)
				assert.Contains(t, errb.String(), "in 3 windows")
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			assert.Empty(t, entries, "nothing left behind")
		})
	}
}

func TestFileSHA256(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	assert.Equal(t, sum, fileSHA256(map[string]any{"attachment": map[string]any{"sha256": sum}, "sha256": "window"}))
	assert.Equal(t, sum, fileSHA256(map[string]any{"artifact": map[string]any{"digest": "sha256:" + sum}}))
	assert.Empty(t, fileSHA256(map[string]any{"sha256": sum}), "a window's own sum is not the file's")
}

func TestWindowMax(t *testing.T) {
	d, ok := tool.Find(operation.All(), "download_issue_attachment")
	require.True(t, ok)
	assert.Equal(t, int64(1<<20), windowMax(d))
	d, ok = tool.Find(operation.All(), "get_issue_by_index")
	require.True(t, ok)
	assert.Zero(t, windowMax(d))
}
