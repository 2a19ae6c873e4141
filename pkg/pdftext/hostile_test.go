package pdftext_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// TestHostileShapes reproduces security issue 26 with each hostile shape
// of internal/pdfgen: decoder buffers sized by the file (a predictor row
// of 64 MiB, 100,000 filters), lookups that scan (131,072 CMap ranges,
// 340,000 width ranges, 65,536 code space ranges, a stream end searched
// for again and again), values counted where their bytes matter (4 M
// empty dictionaries, 1 MiB names, a million widths) and work a file can
// repeat without end (a form drawn a million times, 10,000 fonts over one
// Differences, 60,000 fonts). Each extraction must answer what it can
// (the text before the shape, a note saying why it stopped) within the
// ceiling of one input (64 MB allocated, 2 s of CPU: costcheck), hold at
// most its memory budget, and leave no work running when it returns.
// Before the fixes, 13 of the 20 ran into the 10 s deadline (and went on
// after it), and they allocated up to 576 MB.
func TestHostileShapes(t *testing.T) {
	for _, tc := range []struct {
		shape pdfgen.Hostile
		text  string // the first page's text starts so; "-" no result
		note  string // in the first page's note, the result's note, or the error
	}{
		{pdfgen.PredictorChain, "", "its content cannot be read: a stream through 8 filters, over the 4 this reader decodes"},
		{pdfgen.NestedPredictors, "", "a form in it cannot be read: predictor rows of 67108864 bytes"},
		{pdfgen.FilterChain, "", "its content cannot be read: a stream through 100000 filters"},
		{pdfgen.LZWTable, "", "no extractable text"},
		{pdfgen.FormRepeat, "form repeat", "one call interprets at most 32 MiB of page content"},
		{pdfgen.EncryptedForm, "encrypted form", "one call interprets at most 32 MiB of page content"},
		{pdfgen.CMapRanges, "before the glyphs", ""},
		{pdfgen.CIDWidthRanges, "before the glyphs", "of memory"},
		{pdfgen.EncodingCMap, "before the glyphs", ""},
		{pdfgen.EndstreamScan, "-", "of memory"},
		{pdfgen.HyphenJoins, "ababab", "is cut"},
		{pdfgen.AnnotForms, "notes", "one call interprets at most 32 MiB of page content"},
		{pdfgen.Differences, "-", "of memory"},
		{pdfgen.SharedToUnicode, "ABCDEABCDE", ""},
		{pdfgen.ToUnicodeLists, "A", ""},
		{pdfgen.ValueCount, "before the arrays", "of memory"},
		{pdfgen.ValueDicts, "before the arrays", "of memory"},
		{pdfgen.LongNames, "before the arrays", "of memory"},
		{pdfgen.WidthList, "before the glyphs", "of memory"},
		{pdfgen.ManyFonts, "aaaaaaaa", "of memory"},
	} {
		t.Run(string(tc.shape), func(t *testing.T) {
			doc := hostileShapes()[tc.shape]
			runtime.GC()
			goroutines := runtime.NumGoroutine()
			var res *pdftext.Result
			var err error
			// The deadline is the CPU ceiling's business here: a busy
			// machine (or the race detector) stretches the wall time.
			cost := costcheck.Within(t, costcheck.Default(), func() {
				res, err = pdftext.Extract(context.Background(), doc, pdftext.Options{Timeout: time.Hour})
			})
			t.Logf("%s (%d bytes): %s", tc.shape, len(doc), cost)
			assert.True(t, settles(goroutines), "no work goes on after Extract returns")
			if tc.text == "-" {
				require.ErrorIs(t, err, pdftext.ErrTooMuchWork)
				assert.Contains(t, err.Error(), tc.note)
				return
			}
			require.NoError(t, err)
			require.NotEmpty(t, res.Pages)
			p := res.Pages[0]
			assert.Regexp(t, "^"+tc.text, p.Text)
			assert.Contains(t, p.Note+" "+res.Note, tc.note)
			w := pdftext.WorkOf(res)
			t.Logf("memory held at most: %.1f MB", float64(w.Peak)/1e6)
			assert.LessOrEqual(t, w.Peak, int64(pdftext.DefaultMaxMemory), "the budget holds")
		})
	}
}

// TestWorkStopsAtTheDeadline: when an extraction's deadline passes or its
// caller cancels it, Extract returns once its work has stopped, and that
// is soon: on every shape, with a deadline of 1 or 30 ms (or a
// cancellation after 1 ms), the thread spends at most 100 ms of CPU after
// it (CPU accounting, not a timed test: the machine may be busy, but the
// thread's CPU time is its own). Before, Extract returned at the deadline
// while its goroutine burned on: cmap-ranges spent 9 s more per Tj.
func TestWorkStopsAtTheDeadline(t *testing.T) {
	for _, shape := range pdfgen.HostileShapes() {
		doc := hostileShapes()[shape]
		for _, tc := range []struct {
			name           string
			timeout, after time.Duration // the deadline; a cancellation
		}{
			{"deadline 1ms", time.Millisecond, 0},
			{"deadline 30ms", 30 * time.Millisecond, 0},
			{"cancelled at 1ms", time.Minute, time.Millisecond},
		} {
			t.Run(string(shape)+"/"+tc.name, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tc.after > 0 {
					defer time.AfterFunc(tc.after, cancel).Stop()
				}
				runtime.GC()
				goroutines := runtime.NumGoroutine()
				var err error
				cost := costcheck.Measure(func() { _, err = pdftext.Extract(ctx, doc, pdftext.Options{Timeout: tc.timeout}) })
				assert.True(t, settles(goroutines), "no work goes on after Extract returns")
				end := tc.timeout // when the work was told to stop
				if tc.after > 0 {
					end = tc.after
				}
				limit := end + 100*time.Millisecond*costcheck.RaceFactor
				assert.LessOrEqual(t, cost.CPU, limit, "CPU time until Extract returned (%v)", err)
				if err != nil {
					assert.ErrorIs(t, err, pdftext.ErrTooMuchWork)
					if tc.after > 0 {
						assert.Contains(t, err.Error(), "cancelled")
					} else {
						assert.Contains(t, err.Error(), "no answer within "+tc.timeout.String())
					}
				}
			})
		}
	}
}

// settles reports whether the goroutines running are back to n within a
// second: those that run a context's AfterFunc may take a moment to end;
// work left running would not.
func settles(n int) bool {
	for range 1000 {
		if runtime.NumGoroutine() <= n {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return false
}

// hostileShapes builds every shape once for the package's tests (some
// take a second to build).
var hostileShapes = sync.OnceValue(func() map[pdfgen.Hostile][]byte {
	m := map[pdfgen.Hostile][]byte{}
	for _, h := range pdfgen.HostileShapes() {
		m[h] = h.PDF()
	}
	return m
})

// TestMemoryPool: an extraction that draws on a pool others hold most of
// stops when the pool has no more, with the text so far and a note to
// read on in a moment; once the others are done it reads as far as its
// own budget lets it; what each drew is given back when it returns.
func TestMemoryPool(t *testing.T) {
	pool := pdftext.NewMemoryPool(24 << 20)
	ctx := pdftext.WithMemoryPool(context.Background(), pool)
	doc := hostileShapes()[pdfgen.ValueCount] // needs more than its whole budget

	others := pdftext.Occupy(pool, 16<<20) // other calls reading PDFs
	res, err := pdftext.Extract(ctx, doc, pdftext.Options{Timeout: time.Hour})
	require.NoError(t, err)
	assert.Equal(t, "before the arrays", res.Pages[0].Text)
	assert.Equal(t, `stopped in page 1: the memory this server holds for reading PDFs is in use by other calls; read on in a moment with pages="1-"`, res.Note)
	assert.Equal(t, int64(16<<20), pool.Held(), "it gave back what it drew")

	others()
	res, err = pdftext.Extract(ctx, doc, pdftext.Options{Timeout: time.Hour})
	require.NoError(t, err)
	assert.Contains(t, res.Note, "stopped in page 1: reading it needs over 16 MiB of memory, more than one call holds")
	assert.Zero(t, pool.Held())

	res, err = pdftext.Extract(ctx, threePages(true), pdftext.Options{})
	require.NoError(t, err)
	assert.Len(t, res.Pages, 3)
	assert.Zero(t, pool.Held())
}
