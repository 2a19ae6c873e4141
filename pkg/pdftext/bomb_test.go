package pdftext_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// TestBombs reproduces security issue 18 item 2: content streams under the
// decode budget that cost a naive interpreter gigabytes (1.52 GB for the
// operand flood before this package bounded its operands) and a second of
// CPU each once bounded, and a /Prev loop that spent the whole deadline.
// What is asserted is the shape of the work, not its time: each content
// bomb is stopped as hostile after a few thousand tokens (of the 16 M it
// holds), with a note and the text before it; the loop ends after reading
// its two sections once. The heap the runtime holds grows by well under
// the 64 MB peak RSS target (internal/memcheck measures the real process).
func TestBombs(t *testing.T) {
	for _, tc := range []struct {
		bomb    pdfgen.Bomb
		text    string
		note    string // in the page's note
		tokens  int64  // lexed at most
		dropped int64  // operands dropped at least
	}{
		{pdfgen.Operands, "before the bomb", "over 4096 operands with no operator", 4200, 4000},
		{pdfgen.Names, "before the bomb", "over 4096 operands with no operator", 4200, 4000},
		{pdfgen.Dicts, "before the bomb", "over 4096 operands with no operator", 8300, 4000},
		{pdfgen.Array, "before the bomb", "over 65536 values in one operator's operands", 65700, 0},
		{pdfgen.PrevLoop, "a loop of cross-reference tables", "", 100, 0},
	} {
		t.Run(string(tc.bomb), func(t *testing.T) {
			doc := tc.bomb.PDF()
			assert.Less(t, len(doc), 100<<10, "the bomb is a small file")
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			res, err := pdftext.Extract(context.Background(), doc, pdftext.Options{})
			runtime.ReadMemStats(&after)
			require.NoError(t, err)
			require.Len(t, res.Pages, 1)
			p := res.Pages[0]
			assert.Equal(t, tc.text, p.Text)
			w := pdftext.WorkOf(res)
			t.Logf("%s: %+v, heap grew by %.1f MB, %.1f MB allocated", tc.bomb, w,
				float64(int64(after.HeapSys)-int64(before.HeapSys))/1e6, float64(after.TotalAlloc-before.TotalAlloc)/1e6)
			assert.LessOrEqual(t, w.Tokens, tc.tokens, "content tokens lexed")
			assert.GreaterOrEqual(t, w.Dropped, tc.dropped, "operands dropped")
			if tc.note != "" {
				assert.Contains(t, p.Note, "its content stops early: "+tc.note)
				assert.Contains(t, p.Note, "the text before it is kept")
				assert.Equal(t, 1, w.Stopped, "content streams stopped")
				assert.Contains(t, pdftext.Format(res), "--- page 1 of 1 (its content stops early: ", "an agent sees the note")
			} else {
				assert.Empty(t, p.Note)
				assert.Equal(t, 0, w.Stopped)
			}
			if tc.bomb == pdfgen.PrevLoop {
				assert.Equal(t, 2, w.Sections, "each section read once")
				assert.True(t, w.XrefLoop, "the loop is seen")
			}
			assert.Less(t, int64(after.HeapSys)-int64(before.HeapSys), int64(32<<20))
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "allocated in all")
		})
	}
}
