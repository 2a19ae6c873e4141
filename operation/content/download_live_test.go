package content_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/content"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestLiveDownloadRepoFile pushes objects to the forge's LFS store (the
// batch API, no git-lfs) and commits their pointers: download_repo_file
// returns the objects' exact bytes (sha256 of what the forge stores), a
// plain file's through /raw, and for an object over the inline cap its
// size and how to narrow, without the bytes; a missing file is a 404.
func TestLiveDownloadRepoFile(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	rng := rand.New(rand.NewPCG(7, 8))
	bin := make([]byte, 200<<10)
	for i := range bin {
		bin[i] = byte(rng.UintN(256))
	}
	big := bytes.Repeat([]byte{0, 1, 2, 3}, tool.MaxInlineBytes/4+1)
	f.PushLFS(t, owner, name, "assets/model.bin", bin)
	f.PushLFS(t, owner, name, "assets/big.bin", big)
	call := func(args map[string]any) downloaded {
		t.Helper()
		args["owner"], args["repo"] = owner, name
		res := f.Call(t, content.Tools(), "download_repo_file", args)
		require.False(t, res.IsError, fakeforge.Text(t, res))
		return decodeDownload(t, res)
	}

	out := call(map[string]any{"path": "assets/model.bin", "ref": "main"})
	require.Equal(t, bin, out.Blob, "the object's bytes, not its pointer")
	assert.True(t, out.LFS)
	assert.Equal(t, sha(bin), out.SHA256)
	assert.Equal(t, int64(len(bin)), out.Size)
	assert.Equal(t, "blob", out.Content)

	out = call(map[string]any{"path": "assets/big.bin"})
	assert.True(t, out.LFS)
	assert.False(t, out.Inline)
	assert.Nil(t, out.Blob)
	assert.Equal(t, int64(len(big)), out.Size)
	assert.Contains(t, out.Note, fmt.Sprintf("%d bytes is over the 1 MiB one result carries inline", len(big)))

	// A file outside LFS: its bytes as committed (the README auto_init wrote).
	out = call(map[string]any{"path": "README.md"})
	assert.False(t, out.LFS)
	assert.Equal(t, "text", out.Content)
	assert.Equal(t, sha([]byte(out.Text)), out.SHA256)
	assert.Contains(t, out.Text, name)

	res := f.Call(t, content.Tools(), "download_repo_file", map[string]any{"owner": owner, "repo": name, "path": "no/such.bin"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "no/such.bin in "+owner+"/"+name)
	assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
}
