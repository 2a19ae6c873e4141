package content_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/content"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func pointerOf(data []byte) []byte {
	return fmt.Appendf(nil, "version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n", sha(data), len(data))
}

// repoFiles is a fake repository: /raw serves the blobs as committed
// (ranges honoured unless noRange), /media an LFS object in place of its
// pointer when it has it.
type repoFiles struct {
	raw, media map[string][]byte
	noRange    bool
	asked      []string
}

func (r *repoFiles) serve(f *fakeforge.Server) {
	for _, kind := range []string{"raw", "media"} {
		f.Handle("GET /api/v1/repos/o/r/"+kind+"/", func(w http.ResponseWriter, req *http.Request) {
			name := strings.TrimPrefix(req.URL.Path, "/api/v1/repos/o/r/"+kind+"/")
			r.asked = append(r.asked, kind+" "+name+" "+req.URL.RawQuery)
			data, ok := r.raw[name]
			if obj, lfs := r.media[name]; lfs && kind == "media" {
				data, ok = obj, true
			}
			if !ok {
				fakeforge.WriteJSON(w, 404, map[string]any{"message": "object does not exist [id: , rel_path: " + name + "]"})
				return
			}
			if r.noRange {
				w.Header().Set("Content-Length", fmt.Sprint(len(data)))
				_, _ = w.Write(data)
				return
			}
			http.ServeContent(w, req, name, time.Time{}, bytes.NewReader(data))
		})
	}
}

type downloaded struct {
	content.RepoFile
	Blob  []byte
	Text  string
	Image string
}

func download(t *testing.T, f *fakeforge.Server, args map[string]any) (downloaded, *mcp.CallToolResult) {
	t.Helper()
	args["owner"], args["repo"] = "o", "r"
	res := f.Call(t, content.Tools(), "download_repo_file", args)
	return decodeDownload(t, res), res
}

// decodeDownload reads a download_repo_file result: its JSON and the
// bytes that follow, checked against the JSON.
func decodeDownload(t *testing.T, res *mcp.CallToolResult) downloaded {
	t.Helper()
	var out downloaded
	if res.IsError {
		return out
	}
	require.NoError(t, json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &out.RepoFile))
	if len(res.Content) > 1 {
		switch c := res.Content[1].(type) {
		case mcp.EmbeddedResource:
			blob := c.Resource.(mcp.BlobResourceContents)
			data, err := base64.StdEncoding.DecodeString(blob.Blob)
			require.NoError(t, err)
			out.Blob = data
			assert.Equal(t, out.MIMEType, blob.MIMEType)
			assert.True(t, strings.HasPrefix(blob.URI, "forgejo://") && strings.Contains(blob.URI, "/media/"), blob.URI)
		case mcp.TextContent:
			out.Text = c.Text
		case mcp.ImageContent:
			out.Image = c.MIMEType
		}
	}
	return out
}

func TestDownloadRepoFile(t *testing.T) {
	bin := make([]byte, 300<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range bin {
		bin[i] = byte(rng.UintN(256))
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), (tool.MaxInlineBytes/16)+1)
	obj := append([]byte("\x00LFS"), bin[:4096]...)
	bigObj := append([]byte("\x00"), big...)
	files := &repoFiles{
		raw: map[string][]byte{
			"README.md": []byte("# Hello\n"), "data/blob.bin": bin, "logo.png": []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
			"big.txt": big, "assets/model.bin": pointerOf(obj), "assets/huge.bin": pointerOf(bigObj),
			"assets/lost.bin": pointerOf([]byte("never pushed")),
		},
		media: map[string][]byte{"assets/model.bin": obj},
	}
	f := fakeforge.New(t)
	files.serve(f)

	t.Run("text", func(t *testing.T) {
		out, _ := download(t, f, map[string]any{"path": "README.md", "ref": "main"})
		assert.Equal(t, "# Hello\n", out.Text)
		assert.Equal(t, content.RepoFile{Path: "README.md", Ref: "main", Size: 8, Inline: true, Content: "text",
			MIMEType: "text/markdown", SHA256: sha([]byte("# Hello\n"))}, out.RepoFile)
		assert.Equal(t, "raw README.md ref=main", files.asked[len(files.asked)-1])
	})
	t.Run("binary blob: sha256 of the bytes", func(t *testing.T) {
		out, _ := download(t, f, map[string]any{"path": "data/blob.bin"})
		require.Equal(t, bin, out.Blob)
		assert.Equal(t, sha(bin), out.SHA256)
		assert.Equal(t, int64(len(bin)), out.Size)
		assert.Equal(t, "blob", out.Content)
		assert.False(t, out.LFS)
	})
	t.Run("image", func(t *testing.T) {
		out, _ := download(t, f, map[string]any{"path": "logo.png"})
		assert.Equal(t, "image/png", out.Image)
		assert.Equal(t, "image", out.Content)
	})
	t.Run("LFS object through /media", func(t *testing.T) {
		files.asked = nil
		out, _ := download(t, f, map[string]any{"path": "assets/model.bin", "ref": "v1"})
		require.Equal(t, obj, out.Blob)
		assert.True(t, out.LFS)
		assert.Equal(t, sha(obj), out.SHA256)
		assert.Equal(t, int64(len(obj)), out.Size)
		assert.Equal(t, []string{"raw assets/model.bin ref=v1", "media assets/model.bin ref=v1"}, files.asked)
	})
	t.Run("LFS object over the cap: not fetched", func(t *testing.T) {
		files.asked = nil
		out, res := download(t, f, map[string]any{"path": "assets/huge.bin"})
		assert.Len(t, res.Content, 1)
		assert.True(t, out.LFS)
		assert.False(t, out.Inline)
		assert.Equal(t, int64(len(bigObj)), out.Size)
		assert.Contains(t, out.Note, fmt.Sprintf("%d bytes is over the 1 MiB one result carries inline", len(bigObj)))
		assert.Contains(t, out.Note, "get_file_content (from_line, to_line)")
		assert.Equal(t, []string{"raw assets/huge.bin "}, files.asked)
	})
	t.Run("LFS object the forge lacks: the pointer", func(t *testing.T) {
		out, _ := download(t, f, map[string]any{"path": "assets/lost.bin"})
		assert.True(t, out.LFS)
		assert.Contains(t, out.Note, "the forge does not serve")
		assert.Equal(t, string(pointerOf([]byte("never pushed"))), out.Text)
	})
	for _, noRange := range []bool{false, true} {
		t.Run(fmt.Sprintf("over the cap, ranges ignored %v", noRange), func(t *testing.T) {
			files.noRange = noRange
			defer func() { files.noRange = false }()
			out, res := download(t, f, map[string]any{"path": "big.txt"})
			assert.Len(t, res.Content, 1)
			assert.False(t, out.Inline)
			assert.Equal(t, int64(len(big)), out.Size)
			assert.Contains(t, out.Note, fmt.Sprintf("%d bytes is over the 1 MiB", len(big)))
		})
	}
	t.Run("missing", func(t *testing.T) {
		f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"name": "r", "full_name": "o/r"})
		f.JSON("GET /api/v1/repos/o/r/branches/main", 200, map[string]any{"name": "main"})
		_, res := download(t, f, map[string]any{"path": "nope.txt"})
		require.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), "nope.txt in o/r")
		assert.Contains(t, fakeforge.Text(t, res), "404")
	})
	t.Run("refused before sending", func(t *testing.T) {
		n := len(f.Requests())
		for _, p := range []string{"../secret", "a/../../b", "docs/", ".", "a//b"} {
			_, res := download(t, f, map[string]any{"path": p})
			require.True(t, res.IsError, p)
		}
		assert.Len(t, f.Requests(), n)
	})
}
