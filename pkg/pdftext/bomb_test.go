package pdftext_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// TestBombs reproduces security issue 18 item 2: content streams under the
// decode budget that cost a naive interpreter gigabytes (1.52 GB for the
// operand flood before this package bounded its operands), and a /Prev
// loop that spent the whole deadline. Each extraction must end promptly,
// keep the text before the bomb, and grow the heap the Go runtime holds by
// well under the 64 MB peak RSS target (internal/memcheck measures the
// real process).
func TestBombs(t *testing.T) {
	for _, b := range pdfgen.Bombs() {
		t.Run(string(b), func(t *testing.T) {
			doc := b.PDF()
			assert.Less(t, len(doc), 100<<10, "the bomb is a small file")
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			opt := pdftext.Options{}
			if raceEnabled {
				opt.Timeout = 2 * time.Minute // the deadline is not what is tested
			}
			res, err := pdftext.Extract(context.Background(), doc, opt)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			require.NoError(t, err)
			require.Len(t, res.Pages, 1)
			if b == pdfgen.PrevLoop {
				assert.Equal(t, "a loop of cross-reference tables", res.Pages[0].Text)
				assert.Less(t, elapsed, 2*time.Second, "a loop is detected, not timed out")
			} else {
				assert.Equal(t, "before the bomb", res.Pages[0].Text)
			}
			grew := int64(after.HeapSys) - int64(before.HeapSys)
			t.Logf("%s: %s, heap grew by %.1f MB, %.1f MB allocated", b, elapsed.Round(time.Millisecond),
				float64(grew)/1e6, float64(after.TotalAlloc-before.TotalAlloc)/1e6)
			assert.Less(t, grew, int64(32<<20))
		})
	}
}
