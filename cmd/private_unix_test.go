//go:build unix

package cmd

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProfilesRefuseOthersFiles: config.json says which command gives the
// token, so a file another user could have planted or could change is
// refused before it is read: a symbolic link, another user's file, one
// others may write, one in a folder others may write (without the sticky
// bit), a token file others may read, and a FIFO (which would block).
func TestProfilesRefuseOthersFiles(t *testing.T) {
	good := `{"default":"w","profiles":{"w":{"url":"https://forge.example","token_command":"echo t"}}}`
	setup := func(t *testing.T) (home, dir string) {
		home = t.TempDir()
		dir = filepath.Join(home, ".config", "forgejo-mcp")
		require.NoError(t, os.MkdirAll(dir, 0o700))
		require.NoError(t, os.Chmod(filepath.Join(home, ".config"), 0o755))
		return home, dir
	}
	load := func(home string) error {
		_, err := loadProfiles(filepath.Join(home, ".config", "forgejo-mcp"))
		return err
	}
	t.Run("a private file is read", func(t *testing.T) {
		home, dir := setup(t)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "config.json"), []byte(good), 0o600))
		assert.NoError(t, load(home))
	})
	t.Run("a symbolic link", func(t *testing.T) {
		home, dir := setup(t)
		elsewhere := filepath.Join(t.TempDir(), "planted.json")
		require.NoError(t, os.WriteFile(elsewhere, []byte(good), 0o600))
		require.NoError(t, os.Symlink(elsewhere, filepath.Join(dir, "config.json")))
		assert.ErrorContains(t, load(home), "config.json is a symbolic link")
	})
	t.Run("writable by others", func(t *testing.T) {
		home, dir := setup(t)
		p := filepath.Join(dir, "config.json")
		require.NoError(t, os.WriteFile(p, []byte(good), 0o600))
		require.NoError(t, os.Chmod(p, 0o620))
		assert.ErrorContains(t, load(home), "has mode 0620: others can change it")
	})
	t.Run("a folder others can write", func(t *testing.T) {
		home, dir := setup(t)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "config.json"), []byte(good), 0o600))
		require.NoError(t, os.Chmod(dir, 0o777))
		assert.ErrorContains(t, load(home), "has mode 0777: others can write to it")
		require.NoError(t, os.Chmod(dir, 0o700))
		require.NoError(t, os.Chmod(filepath.Join(home, ".config"), 0o775))
		assert.ErrorContains(t, load(home), ".config has mode 0775", "a folder above counts too")
	})
	t.Run("a sticky folder others can write", func(t *testing.T) {
		home, dir := setup(t)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "config.json"), []byte(good), 0o600))
		require.NoError(t, os.Chmod(filepath.Join(home, ".config"), 0o777|os.ModeSticky))
		assert.NoError(t, load(home), "as /tmp: others cannot replace what is not theirs")
	})
	t.Run("another user's file", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("giving a file to another user needs root (CI runs as root)")
		}
		home, dir := setup(t)
		p := filepath.Join(dir, "config.json")
		require.NoError(t, os.WriteFile(p, []byte(good), 0o600))
		require.NoError(t, os.Chown(p, 4242, 4242))
		assert.ErrorContains(t, load(home), "belongs to user 4242, not to you")
		require.NoError(t, os.Chown(p, 0, 0))
		require.NoError(t, os.Chown(dir, 4242, 4242))
		assert.ErrorContains(t, load(home), "the folder "+dir+" belongs to user 4242")
	})
	t.Run("a token others can read, a token linked, a token FIFO", func(t *testing.T) {
		_, dir := setup(t)
		tokens := filepath.Join(dir, "tokens")
		require.NoError(t, os.MkdirAll(tokens, 0o700))
		p := Profile{URL: "https://forge.example"}
		require.NoError(t, os.WriteFile(filepath.Join(tokens, "a"), []byte("t\n"), 0o640))
		_, err := p.token(t.Context(), dir, "a")
		assert.ErrorContains(t, err, "has mode 0640: others can read the token; run chmod 600")
		require.NoError(t, os.Symlink(filepath.Join(tokens, "a"), filepath.Join(tokens, "b")))
		_, err = p.token(t.Context(), dir, "b")
		assert.ErrorContains(t, err, "is a symbolic link")
		require.NoError(t, syscall.Mkfifo(filepath.Join(tokens, "c"), 0o600))
		start := time.Now()
		_, err = p.token(t.Context(), dir, "c")
		assert.ErrorContains(t, err, "is not a regular file")
		assert.Less(t, time.Since(start), 5*time.Second, "a FIFO does not block")
	})
}
