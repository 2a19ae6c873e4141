package operation_test

import (
	"context"
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

// resultBytes is what a result costs a client's context: every text, every
// embedded resource's text or base64 blob. Images are left out: clients
// pass them to the model as images, priced by their pixels.
func resultBytes(res *mcp.CallToolResult) int {
	n := 0
	for _, c := range res.Content {
		switch x := c.(type) {
		case mcp.TextContent:
			n += len(x.Text)
		case mcp.EmbeddedResource:
			switch r := x.Resource.(type) {
			case mcp.TextResourceContents:
				n += len(r.Text)
			case mcp.BlobResourceContents:
				n += len(r.Blob)
			}
		}
	}
	return n
}

// TestEveryResultFitsTheClient drives every tool at its defaults against
// forges whose answers are as large as real ones get (1,000-item lists,
// 16 KiB bodies, a 2 MB diff, a 5 MB log, a 2 MB file) in both flavours'
// shapes: no result may carry more than tool.MaxResultBytes of text.
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
				assert.LessOrEqual(t, n, tool.MaxResultBytes, "%s returns %d bytes at its defaults", d.Name, n)
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
