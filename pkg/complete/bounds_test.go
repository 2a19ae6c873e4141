package complete

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

func refsForge(t *testing.T, n int) *fakeforge.Server {
	f := fakeforge.New(t)
	answer := fakeforge.ManyRefs(n)
	f.Handle("GET /api/v1/repos/o/r/git/refs", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	})
	return f
}

func completeRef(t *testing.T, c *Completer, prefix string) *mcp.Completion {
	t.Helper()
	got, err := c.CompleteResourceArgument(context.Background(), "forgejo://{owner}/{repo}/files/{+path}{?ref}",
		mcp.CompleteArgument{Name: "ref", Value: prefix}, mcp.CompleteContext{Arguments: map[string]string{"owner": "o", "repo": "r"}})
	require.NoError(t, err)
	return got
}

// TestLookupIsBounded is issue 18's item 4: a forge answering git/refs
// with 240,000 refs (31.4 MiB) cost 122 MB for one completion, the whole
// list decoded and cached. The answer is read as it arrives, through a
// cap, keeping the values that can be returned.
func TestLookupIsBounded(t *testing.T) {
	f := refsForge(t, 240_000)
	c := completer(f.Client())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := completeRef(t, c, "branch-001")
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("one completion over 240,000 refs allocated %.1f MB", float64(allocated)/1e6)
	assert.Less(t, allocated, uint64(16<<20), "a bounded read, not the whole list")
	assert.Len(t, got.Values, MaxValues)
	assert.Equal(t, "branch-001000", got.Values[0])
	assert.True(t, got.HasMore)
	c.cache.mu.Lock()
	assert.Less(t, c.cache.bytes, int64(64<<10), "the cache keeps what it can return")
	c.cache.mu.Unlock()

	// A prefix past what the cap lets the lookup read gives no values, and
	// says there may be more.
	got = completeRef(t, c, "branch-2")
	assert.Empty(t, got.Values)
	assert.True(t, got.HasMore)
}

// TestShortListsAnswerEveryPrefix: a list of at most MaxKept values is
// kept whole, so later prefixes cost no forge call; a longer one is kept
// per prefix.
func TestShortListsAnswerEveryPrefix(t *testing.T) {
	short := refsForge(t, MaxKept)
	c := completer(short.Client())
	assert.Len(t, completeRef(t, c, "branch-00000").Values, 10)
	got := completeRef(t, c, "branch-00040")
	assert.Len(t, got.Values, 10)
	assert.False(t, got.HasMore)
	assert.Len(t, short.Requests(), 1, "the second prefix came from the whole list")

	long := refsForge(t, MaxKept+1)
	c = completer(long.Client())
	completeRef(t, c, "branch-0000")
	completeRef(t, c, "branch-0000")
	assert.Len(t, long.Requests(), 1, "the same prefix is cached")
	got = completeRef(t, c, "branch-0005")
	assert.Equal(t, []string{"branch-000500"}, got.Values, "the value past MaxKept is found for its prefix")
	assert.Equal(t, 1, got.Total)
	assert.False(t, got.HasMore)
	assert.Len(t, long.Requests(), 2, "another prefix asks again")
}

// TestLookupsAreAdmitted: a lookup that reaches the forge takes a slot of
// the concurrency limits; refused, the completion is an error naming why,
// and the forge is not asked.
func TestLookupsAreAdmitted(t *testing.T) {
	f := refsForge(t, 10)
	var names []string
	c := New(Options{
		Client: func(context.Context) (*forgejo.Client, error) { return f.Client(), nil },
		Admit: func(_ context.Context, name string) (func(), string) {
			names = append(names, name)
			return nil, "busy: you already have 4 tool calls running, the limit per user"
		},
	})
	_, err := c.CompleteResourceArgument(context.Background(), "forgejo://{owner}/{repo}/files/{+path}{?ref}",
		mcp.CompleteArgument{Name: "ref"}, mcp.CompleteContext{Arguments: map[string]string{"owner": "o", "repo": "r"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the limit per user")
	assert.Equal(t, []string{"completion/complete"}, names)
	assert.Empty(t, f.Requests())
}

// FuzzDecodeList: any answer, read through the cap, either is a list
// whose elements are handed over one by one (as many as it has, when it
// ends within the cap) or is refused; nothing panics.
func FuzzDecodeList(f *testing.F) {
	for _, s := range []string{`[{"name":"main"},{"name":"dev","owner":{"login":"o"}}]`, `[]`, `{"name":"x"}`, `[{"name":1}]`,
		`[{"ref":"refs/heads/main","object":{"sha":"abc"}}`, `[` + strings.Repeat(`{"name":"b"},`, 40), `[[[[`} {
		f.Add([]byte(s), uint16(64))
	}
	f.Fuzz(func(t *testing.T, data []byte, max uint16) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			n := 0
			whole, err := decodeList(bytes.NewReader(data), int64(max), func(named) { n++ })
			if err != nil {
				require.False(t, whole)
				return
			}
			if !whole {
				require.Greater(t, len(data), int(max), "cut only at the cap")
				return
			}
			var all []json.RawMessage
			require.NoError(t, json.NewDecoder(bytes.NewReader(data)).Decode(&all), "a whole list is a list")
			require.Len(t, all, n)
		})
	})
}
