package pdftext

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// TestCollectionsDrift checks collections/ against what
// internal/gencollections records and produces: each embedded CMap
// decompresses to the size and SHA-256 SOURCES records for Adobe's
// original, within maxCollectionBytes, and every collection collectionOf
// names is there. Where poppler-data is installed, the command is run
// again and must write the same files byte for byte (a newer poppler-data:
// run `go generate -run gencollections ./pkg/pdftext/`).
func TestCollectionsDrift(t *testing.T) {
	sources, err := os.ReadFile("collections/SOURCES")
	require.NoError(t, err)
	recorded := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(sources))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		require.Len(t, f, 3, "SOURCES line %q", line)
		size, err := strconv.Atoi(f[1])
		require.NoError(t, err)
		data := embeddedCollection(t, f[0])
		assert.Len(t, data, size, f[0])
		assert.Equal(t, f[2], fmt.Sprintf("%x", sha256.Sum256(data)), f[0])
		assert.Less(t, size, maxCollectionBytes, f[0])
		recorded[f[0]] = true
	}
	for _, o := range []string{"Japan1", "GB1", "CNS1", "Korea1"} {
		assert.True(t, recorded[collectionOf("Adobe", o)], o)
	}
	embedded, err := collectionFiles.ReadDir("collections")
	require.NoError(t, err)
	assert.Len(t, embedded, len(recorded), "embedded files that SOURCES does not record")
	lic, err := os.ReadFile("collections/LICENSE")
	require.NoError(t, err)
	assert.Contains(t, string(lic), "Adobe")

	if _, err := os.Stat("/usr/share/poppler/cMap/Adobe-Japan1/Adobe-Japan1-UCS2"); err != nil {
		t.Log("poppler-data is not installed: the files were checked against SOURCES, not regenerated")
		return
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "run", "./internal/gencollections", "-o", dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	names, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, n := range names {
		want, err := os.ReadFile(filepath.Join(dir, n.Name()))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join("collections", n.Name()))
		require.NoError(t, err, "run go generate -run gencollections ./pkg/pdftext/")
		assert.True(t, bytes.Equal(want, got), "collections/%s differs from what gencollections writes: run go generate -run gencollections ./pkg/pdftext/", n.Name())
	}
}

func embeddedCollection(t *testing.T, name string) []byte {
	f, err := collectionFiles.Open("collections/" + name + ".gz")
	require.NoError(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	require.NoError(t, err)
	data, err := io.ReadAll(z)
	require.NoError(t, err)
	return data
}

// BenchmarkCollection is what a font of Adobe-Japan1 (the largest
// collection) without ToUnicode adds to its extraction: its CMap read,
// decompressed and parsed.
func BenchmarkCollection(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		x := &extractor{ctx: context.Background(), stopped: new(atomic.Bool), mem: pdfobj.NewBudget(16 << 20), collections: map[string]*cmap{}}
		if x.collection("Adobe-Japan1-UCS2") == nil {
			b.Fatal("no collection")
		}
	}
}
