package forgejo_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// logFile is lines "line 0".."line n-1", each ending in \n.
func logFile(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.Bytes()
}

// serveFile serves data at /log: with Range support (http.ServeContent, as
// the forge serves a job's log) or without (the whole file, always).
// The Range header of the last request is in *rng.
func serveFile(t *testing.T, data []byte, ranges bool) (*fakeforge.Server, *string) {
	f := fakeforge.New(t)
	rng := new(string)
	f.Handle("GET /log", func(w http.ResponseWriter, r *http.Request) {
		*rng = r.Header.Get("Range")
		if ranges {
			http.ServeContent(w, r, "log", time.Time{}, bytes.NewReader(data))
			return
		}
		_, _ = w.Write(data)
	})
	return f, rng
}

func TestDoTail(t *testing.T) {
	data := logFile(10000) // 78,890 bytes
	for _, ranges := range []bool{true, false} {
		t.Run(fmt.Sprintf("ranges=%v", ranges), func(t *testing.T) {
			f, rng := serveFile(t, data, ranges)
			got, err := f.Client().DoTail(context.Background(), "log", 100, 1<<20)
			require.NoError(t, err)
			assert.Equal(t, data[len(data)-100:], got.Body)
			assert.EqualValues(t, len(data)-100, got.Offset)
			assert.EqualValues(t, len(data), got.Total)
			assert.Equal(t, ranges, got.Ranged)
			assert.Equal(t, "bytes=-100", *rng)

			// More than the file: all of it.
			got, err = f.Client().DoTail(context.Background(), "log", 1<<20, 1<<20)
			require.NoError(t, err)
			assert.Equal(t, data, got.Body)
			assert.Zero(t, got.Offset)

			if !ranges {
				_, err = f.Client().DoTail(context.Background(), "log", 100, 1000)
				require.Error(t, err, "a file past maxRead is refused, not read on")
				assert.Contains(t, err.Error(), "does not support byte ranges")
			}
		})
	}
	t.Run("empty file", func(t *testing.T) {
		f, _ := serveFile(t, nil, true)
		got, err := f.Client().DoTail(context.Background(), "log", 100, 1<<20)
		require.NoError(t, err)
		assert.Empty(t, got.Body)
	})
}

func TestDoLines(t *testing.T) {
	long := strings.Repeat("x", forgejo.MaxLineBytes+10)
	data := []byte("one\r\ntwo\n" + long + "\nlast without end")
	f, _ := serveFile(t, data, false)
	type line struct {
		text   string
		offset int64
	}
	var got []line
	require.NoError(t, f.Client().DoLines(context.Background(), "log", 1<<20, func(s []byte, off int64) bool {
		got = append(got, line{string(s), off})
		return true
	}))
	require.Len(t, got, 4)
	assert.Equal(t, line{"one", 0}, got[0])
	assert.Equal(t, line{"two", 5}, got[1])
	assert.Len(t, got[2].text, forgejo.MaxLineBytes, "a long line is cut")
	assert.EqualValues(t, 9, got[2].offset)
	assert.Equal(t, line{"last without end", int64(9 + len(long) + 1)}, got[3])

	n := 0
	require.NoError(t, f.Client().DoLines(context.Background(), "log", 1<<20, func([]byte, int64) bool { n++; return n < 2 }))
	assert.Equal(t, 2, n, "false stops the read")

	err := f.Client().DoLines(context.Background(), "log", 100, func([]byte, int64) bool { return true })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "longer than the 100 bytes")
}

// TestDoLinesStopsWithItsContext: once the call's context ends no further
// line is handed over, though the rest of the file is already buffered.
func TestDoLinesStopsWithItsContext(t *testing.T) {
	f, _ := serveFile(t, logFile(1000), false)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := f.Client().DoLines(ctx, "log", 1<<20, func([]byte, int64) bool {
		n++
		if n == 3 {
			cancel()
		}
		return true
	})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 3, n)
}
