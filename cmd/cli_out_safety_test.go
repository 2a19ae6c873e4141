//go:build unix

package cmd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The safety of the file --out writes (issue 18, item 6). Not parallel:
// the umask is the process's.

var outArgs = []string{"--cli", "download_issue_attachment", "--owner", "o", "--repo", "r", "--index", "3", "--attachment-id", "7"}

// withUmask runs f with the process's umask set to m.
func withUmask(t *testing.T, m int, f func()) {
	t.Helper()
	old := syscall.Umask(m)
	defer syscall.Umask(old)
	f()
}

// TestCLIOutMode: a new file gets 0666 less the umask, as a shell
// redirection would; an existing file keeps its mode, never loosened.
// Before, every file was chmodded 0644 whatever the umask, and an existing
// 0600 file became readable by everyone.
func TestCLIOutMode(t *testing.T) {
	data := noise(2_000_000) // paged through windows
	small := noise(1000)     // written whole
	for _, tc := range []struct {
		name     string
		umask    int
		existing os.FileMode // 0: no file there yet
		want     os.FileMode
	}{
		{"new file, umask 022", 0o022, 0, 0o644},
		{"new file, umask 077", 0o077, 0, 0o600},
		{"new file, umask 027", 0o027, 0, 0o640},
		{"existing 0600, umask 022", 0o022, 0o600, 0o600},
		{"existing 0640, umask 077", 0o077, 0o640, 0o640},
		{"existing 0755, umask 022", 0o022, 0o755, 0o755},
	} {
		for name, content := range map[string][]byte{"paged": data, "whole": small} {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				f := bigFile(t, content, nil, nil)
				file := filepath.Join(t.TempDir(), "out.bin")
				if tc.existing != 0 {
					require.NoError(t, os.WriteFile(file, []byte("old"), tc.existing))
					require.NoError(t, os.Chmod(file, tc.existing))
				}
				var r run
				withUmask(t, tc.umask, func() { r = runMain(t, fakeEnv(f), "", append(outArgs, "--out", file)...) })
				require.Equal(t, 0, r.code, r.err)
				st, err := os.Stat(file)
				require.NoError(t, err)
				assert.Equal(t, tc.want, st.Mode().Perm())
				got, _ := os.ReadFile(file)
				assert.True(t, bytes.Equal(content, got))
			})
		}
	}
}

// TestCLIOutSizeCap: a forge claiming a file over --max-out-bytes (1 GiB
// by default) is refused before anything is written; so is one whose bytes
// run past the cap. Before, a forge claiming 1 TiB was paged through until
// the disk was full.
func TestCLIOutSizeCap(t *testing.T) {
	data := noise(3_000_000)
	for _, tc := range []struct {
		name  string
		meta  map[string]any
		flags []string
		err   string
	}{
		{"a forge claiming 1 TiB", map[string]any{"size": int64(1) << 40}, nil,
			"the file is 1099511627776 bytes, over the --max-out-bytes limit of 1073741824; raise the limit to save it"},
		{"a file over a lowered cap", nil, []string{"--max-out-bytes", "2000000"},
			"the file is 3000000 bytes, over the --max-out-bytes limit of 2000000"},
		{"a small file over a lowered cap", map[string]any{"size": 3_000_000}, []string{"--max-out-bytes", "100"},
			"over the --max-out-bytes limit of 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := bigFile(t, data, tc.meta, nil)
			dir := t.TempDir()
			file := filepath.Join(dir, "big.bin")
			r := runMain(t, fakeEnv(f), "", append(append(outArgs, "--out", file), tc.flags...)...)
			assert.Equal(t, ExitToolError, r.code)
			assert.Contains(t, r.err, tc.err)
			entries, _ := os.ReadDir(dir)
			assert.Empty(t, entries, "nothing was written")
			for _, req := range f.Requests() {
				assert.NotContains(t, req.Path, "/attachments/", "no byte was downloaded")
			}
		})
	}
	// Standard output is held to the cap too.
	f := bigFile(t, data, nil, nil)
	r := runMain(t, fakeEnv(f), "", append(outArgs, "--out", "-", "--max-out-bytes", "1000")...)
	assert.Equal(t, ExitToolError, r.code)
	assert.Contains(t, r.err, "over the --max-out-bytes limit of 1000")
	assert.Empty(t, r.out)
}

// TestCLIOutFreeSpace: a file larger than the free space of its folder is
// refused before anything is written, naming both figures.
func TestCLIOutFreeSpace(t *testing.T) {
	dir := t.TempDir()
	free, ok := freeBytes(dir)
	require.True(t, ok, "the free space of %s can be told", dir)
	require.Positive(t, free)
	claim := free + 1<<30
	f := bigFile(t, noise(3_000_000), map[string]any{"size": claim}, nil)
	file := filepath.Join(dir, "big.bin")
	r := runMain(t, fakeEnv(f), "", append(outArgs, "--out", file, "--max-out-bytes", fmt.Sprint(int64(1)<<62))...)
	assert.Equal(t, ExitToolError, r.code)
	assert.Contains(t, r.err, fmt.Sprintf("the file is %d bytes but only ", claim))
	assert.Contains(t, r.err, "bytes are free in "+dir+"; free some space or choose another folder")
	entries, _ := os.ReadDir(dir)
	assert.Empty(t, entries, "nothing was written")
}
