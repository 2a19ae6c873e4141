package operation_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// resultBytes is what a result's text costs a client's context: every
// text, every embedded resource's text. Bytes are left out: blobs, which
// clients keep as files or links rather than tokens, follow the inline cap
// (blobBytes), and images reach the model as images, priced by their
// pixels (docs/attachments.md).
func resultBytes(res *mcp.CallToolResult) int {
	n := 0
	for _, c := range res.Content {
		switch x := c.(type) {
		case mcp.TextContent:
			n += len(x.Text)
		case mcp.EmbeddedResource:
			if r, ok := x.Resource.(mcp.TextResourceContents); ok {
				n += len(r.Text)
			}
		}
	}
	return n
}

// blobBytes is the largest file a result carries as bytes (a blob or an
// image), decoded: what the inline cap bounds.
func blobBytes(res *mcp.CallToolResult) int {
	n := 0
	for _, c := range res.Content {
		b64 := ""
		switch x := c.(type) {
		case mcp.ImageContent:
			b64 = x.Data
		case mcp.EmbeddedResource:
			if r, ok := x.Resource.(mcp.BlobResourceContents); ok {
				b64 = r.Blob
			}
		}
		b, _ := base64.StdEncoding.DecodeString(b64)
		n = max(n, len(b))
	}
	return n
}

// TestEveryResultFitsTheClient drives every tool at its defaults against
// forges whose answers are as large as real ones get (1,000-item lists,
// 16 KiB bodies, a 2 MB diff, a 5 MB log, a 2 MB file) in both flavours'
// shapes: no result may carry more than tool.MaxResultBytes of text, nor a
// file of more than the inline cap (tool.MaxInlineBytes) as bytes.
func TestEveryResultFitsTheClient(t *testing.T) {
	sp := loadSpecs(t)
	large := fakeforge.LargeDefaults()
	for _, spec := range []*fakeforge.Spec{sp.forgejo, sp.gitea} {
		t.Run(spec.Flavour, func(t *testing.T) {
			t.Parallel()
			// One fake forge per flavour: its answers are built once and
			// served to every tool.
			f := fakeforge.New(t)
			f.MimicLarge(spec, large)
			c := f.Client()
			r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 30 * time.Second}
			type row struct {
				tool    string
				bytes   int
				isError bool
				text    string
			}
			var rows []row
			for _, d := range operation.All() {
				if d.Offline {
					continue
				}
				res := r.Call(context.Background(), d, sampleArgs(d))
				n := resultBytes(res)
				text := ""
				if res.IsError && len(res.Content) > 0 {
					text = res.Content[0].(mcp.TextContent).Text
				}
				rows = append(rows, row{d.Name, n, res.IsError, text})
				assert.LessOrEqual(t, n, tool.MaxResultBytes, "%s returns %d bytes of text at its defaults", d.Name, n)
				assert.LessOrEqual(t, blobBytes(res), tool.MaxInlineBytes, "%s returns a file of %d bytes at its defaults", d.Name, blobBytes(res))
			}
			sort.Slice(rows, func(i, j int) bool { return rows[i].bytes > rows[j].bytes })
			var b strings.Builder
			for _, r := range rows[:8] {
				fmt.Fprintf(&b, "\n%8d %s", r.bytes, r.tool)
			}
			t.Logf("largest results at the defaults:%s", b.String())
			b.Reset()
			for _, r := range rows {
				if r.isError {
					fmt.Fprintf(&b, "\n%s: %.160s", r.tool, r.text)
				}
			}
			t.Logf("tools that failed against the large forge:%s", b.String())
		})
	}
}

// TestDownloadsAtTheInlineCap: a file of exactly the inline cap (1 MiB, a
// text file too long to come as text) comes whole from every download
// tool, as its bytes, while the text around it stays within the bound.
func TestDownloadsAtTheInlineCap(t *testing.T) {
	sp := loadSpecs(t)
	raw := fakeforge.BigText(tool.MaxInlineBytes)[:tool.MaxInlineBytes]
	large := fakeforge.LargeDefaults().WithRaw(raw)
	for _, spec := range []*fakeforge.Spec{sp.forgejo, sp.gitea} {
		t.Run(spec.Flavour, func(t *testing.T) {
			f := fakeforge.New(t)
			f.MimicLarge(spec, large)
			c := f.Client()
			r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 30 * time.Second}
			n := 0
			for _, d := range operation.All() {
				if !strings.HasPrefix(d.Name, "download_") {
					continue
				}
				n++
				res := r.Call(context.Background(), d, sampleArgs(d))
				if !assert.False(t, res.IsError, "%s: %v", d.Name, res.Content) {
					continue
				}
				assert.LessOrEqual(t, resultBytes(res), tool.MaxResultBytes, d.Name)
				assert.Equal(t, tool.MaxInlineBytes, blobBytes(res), "%s returns the whole 1 MiB file", d.Name)
			}
			assert.Equal(t, 5, n, "the three attachment downloads, download_artifact and download_repo_file")
		})
	}
}
