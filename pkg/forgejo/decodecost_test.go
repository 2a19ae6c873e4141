package forgejo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
)

func TestDecodeCostCounts(t *testing.T) {
	for _, tc := range []struct {
		in                 string
		values, containers int64
		deep               bool
	}{
		{`{}`, 1, 1, false},
		{`[1,2,3]`, 3, 1, false},
		{`{"a":[{},{}],"b":"x"}`, 6, 4, false},
		{`"a,b,[{}]"`, 0, 0, false},           // inside a string: text
		{`["a\",[{",1]`, 2, 1, false},         // an escaped quote does not end it
		{`["a\\",[1]]`, 3, 2, false},          // an escaped backslash does not escape the quote
		{`<html>a, b, c</html>`, 0, 0, false}, // not JSON: its bytes
		{"a,b,c\n1,2,3\n", 0, 0, false},       // CSV through the api command: its bytes
		{strings.Repeat("[", 64) + strings.Repeat("]", 64), 64, 64, false},
		{strings.Repeat("[", 65), 65, 65, true},
		{strings.Repeat("[]", 100), 100, 100, false}, // depth is nesting, not count
	} {
		d := newDecodeCost(1 << 30)
		err := d.feed([]byte(tc.in))
		var ce *DecodeCostError
		if tc.deep {
			require.ErrorAs(t, err, &ce, tc.in)
			assert.True(t, ce.TooDeep)
		} else {
			require.NoError(t, err, tc.in)
		}
		assert.Equal(t, tc.values, d.values, "values of %s", tc.in)
		assert.Equal(t, tc.containers, d.containers, "containers of %s", tc.in)
	}
}

func TestDecodeCostBudget(t *testing.T) {
	// An item of a list, `{},`: 3 bytes, itemCost and an elementCost.
	// The budget of 32 MiB ends after about 30,700 of them, 90 KiB of
	// the answer.
	d := newDecodeCost(DefaultMaxResponseBytes)
	require.NoError(t, d.feed([]byte("[")))
	item := []byte("{},")
	var err error
	var n int
	for ; err == nil; n++ {
		err = d.feed(item)
	}
	var ce *DecodeCostError
	require.ErrorAs(t, err, &ce)
	assert.ErrorIs(t, err, ErrResponseTooLarge)
	assert.InDelta(t, DefaultMaxResponseBytes/(3+itemCost+elementCost), n, 2)
	assert.Equal(t, "the forge's reply is larger than the response limit; narrow the request (page, limit, path): "+
		"its first 90.1 KiB hold 61513 JSON values, 30757 of them objects or arrays, which decoded would cost more than 32 MiB", err.Error())
	assert.Error(t, d.feed([]byte(" ")), "once over, always over")

	for in, want := range map[string]int64{
		`{"a":0,"b":0}`:  13 + containerCost + memberCost,
		`[0,0]`:          5 + containerCost + elementCost,
		`[{},{}]`:        7 + containerCost + 2*itemCost + elementCost,
		`{"a":{"b":[]}}`: 14 + 3*containerCost,
		"a,b,c\n1,2,3":   11,                  // commas outside JSON values: bytes
		`[1],[2]`:        7 + 2*containerCost, // the comma between values: nothing
	} {
		assert.Equal(t, want, DecodeCost([]byte(in)), in)
	}
}

// hostileForge answers every request with status and body: open, then
// item repeated, then close, size bytes in all, written as it is read; it
// counts what it managed to write.
func hostileForge(t testing.TB, status int, open, item, close string, size int) (*Client, *atomic.Int64) {
	var written atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		chunk := []byte(strings.Repeat(item, max(1, (32<<10)/len(item))))
		n, err := w.Write([]byte(open))
		written.Add(int64(n))
		for sent := n; err == nil && sent+len(chunk)+len(close) < size; sent += len(chunk) {
			n, err = w.Write(chunk)
			written.Add(int64(n))
		}
		if err == nil {
			n, _ = w.Write([]byte(close))
			written.Add(int64(n))
		}
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return NewClient(NewHTTPClient(HTTPOptions{BaseURL: u}), u, "tok-123456", "t"), &written
}

// allocated is what f allocated, in bytes.
func allocated(f func()) uint64 { return uint64(costcheck.Measure(f).Alloc) }

// TestHostileAnswersCostTheirBudget: a forge answering 500 MB, or just
// under the 32 MiB byte cap, in the shapes that cost most decoded, costs
// an SDK call and a DoJSON call a few MB and a clear error; before, 31
// MiB of `{},` decoded into []*Repository allocated 4.9 GB.
func TestHostileAnswersCostTheirBudget(t *testing.T) {
	for _, tc := range []struct {
		name                string
		status              int
		open, item, close   string
		size                int
		want                string
		maxAlloc, maxReadKB int64
	}{
		{"500 MB of {}", 200, "[", "{},", "{}]", 500 << 20, "larger than the response limit; narrow the request", 4 << 20, 1 << 10},
		{"31 MiB of {}", 200, "[", "{},", "{}]", 31 << 20, "larger than the response limit; narrow the request", 4 << 20, 1 << 10},
		// A number costs 66: 1 MiB is read before the refusal, copied
		// as io.ReadAll grows its buffer: 2.3 MB allocated, 4.5 MB under
		// -race.
		{"31 MiB of 1", 200, "[", "1,", "1]", 31 << 20, "larger than the response limit; narrow the request", 8 << 20, 1 << 10},
		{"500 MB deep", 200, "", "[", "", 500 << 20, "nests JSON deeper than 64 levels", 4 << 20, 1 << 10},
		{"31 MiB error body", 500, `{"message":"x","junk":[`, "{},", "{}]}", 31 << 20, "the forge failed (500", 4 << 20, 1 << 10},
		// Bytes that decode to about their size: the byte cap, here
		// 4 MiB (a client's MaxResponseBytes): 32 MiB under -race on a
		// busy machine took longer than the request timeout to read.
		{"500 MB of long strings", 200, "[", `"` + strings.Repeat("s", 1000) + `",`, `""]`, 500 << 20,
			"larger than the response limit; narrow the request", 32 << 20, 5 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, written := hostileForge(t, tc.status, tc.open, tc.item, tc.close, tc.size)
			if strings.HasSuffix(tc.name, "long strings") {
				c = NewClient(NewHTTPClient(HTTPOptions{BaseURL: c.BaseURL(), MaxResponseBytes: 4 << 20}), c.BaseURL(), "tok-123456", "t")
			}
			var sdkErr, rawErr error
			sdkAlloc := allocated(func() {
				_, resp, err := c.SDK(context.Background()).ListMyRepos(sdk.ListReposOptions{})
				sdkErr = c.Explain(Fail(resp, err, "list", "my repositories"))
			})
			assert.Less(t, sdkAlloc, uint64(tc.maxAlloc), "the SDK call allocated %d bytes", sdkAlloc)
			require.Error(t, sdkErr)
			assert.Contains(t, sdkErr.Error(), tc.want)
			var repos []*sdk.Repository
			rawAlloc := allocated(func() { rawErr = c.DoJSON(context.Background(), http.MethodGet, "/user/repos", nil, nil, &repos) })
			assert.Less(t, rawAlloc, uint64(tc.maxAlloc), "DoJSON allocated %d bytes", rawAlloc)
			require.Error(t, rawErr)
			assert.Contains(t, rawErr.Error(), tc.want)
			// Besides what each call read, the loopback's socket buffers
			// hold several MB a connection (6 MB for both calls here).
			assert.Less(t, written.Load(), 2*tc.maxReadKB<<10+24<<20, "the forge wrote %d bytes before the client stopped reading", written.Load())
			t.Logf("%s; %d bytes written by the forge for both calls; allocated %d (SDK), %d (DoJSON)", sdkErr, written.Load(), sdkAlloc, rawAlloc)
		})
	}
}

// TestStreamedAnswersAreBoundByBytes: a download is not JSON to decode,
// whatever its bytes: a 1 MiB file of `{},` comes back whole.
func TestStreamedAnswersAreBoundByBytes(t *testing.T) {
	c, _ := hostileForge(t, 200, "[", "{},", "{}]", 1<<20)
	raw, err := c.DoRaw(context.Background(), "attachments/x", RawOptions{MaxBytes: 2 << 20})
	require.NoError(t, err)
	assert.Greater(t, len(raw.Body), 1<<20-(32<<10))
	assert.True(t, json.Valid(raw.Body))
	var n int
	require.NoError(t, c.DoStream(context.Background(), "/user/repos", nil, func(body io.Reader) error {
		dec := json.NewDecoder(body)
		if _, err := dec.Token(); err != nil {
			return err
		}
		for dec.More() {
			var v struct{}
			if err := dec.Decode(&v); err != nil {
				return err
			}
			n++
		}
		return nil
	}))
	assert.Greater(t, n, 300_000, "a streamed list is read to its end")
}

// TestRealAnswersFitTheBudget: every answer the recorded real forges gave
// costs less than a tenth of the budget, and a list of 1,000 real
// repositories (3.6 MB) decodes.
func TestRealAnswersFitTheBudget(t *testing.T) {
	var worst int64
	var repo json.RawMessage
	for _, body := range recordedBodies(t) {
		d := newDecodeCost(DefaultMaxResponseBytes)
		require.NoError(t, d.feed(body))
		worst = max(worst, d.limit-d.left)
		if len(body) > len(repo) && bytes.HasPrefix(body, []byte(`{"id":`)) && bytes.Contains(body, []byte(`"full_name"`)) {
			repo = body
		}
	}
	assert.Less(t, worst, int64(DefaultMaxResponseBytes/10), "the costliest recorded answer")
	t.Logf("costliest recorded answer: %d bytes of budget", worst)
	list := "[" + strings.TrimSuffix(strings.Repeat(string(repo)+",", 1000), ",") + "]"
	c, _ := hostileForge(t, 200, list, " ", "", len(list)+1)
	var repos []*sdk.Repository
	require.NoError(t, c.DoJSON(context.Background(), http.MethodGet, "/user/repos", nil, nil, &repos))
	assert.Len(t, repos, 1000)
}

// recordedBodies are the JSON answers of the real forges recorded in
// internal/fakeforge/recorded.
func recordedBodies(t testing.TB) [][]byte {
	files, err := filepath.Glob("../../internal/fakeforge/recorded/*.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, line := range bytes.Split(b, []byte("\n")) {
			var e struct {
				Response *struct {
					JSON json.RawMessage `json:"json"`
				} `json:"response_body"`
			}
			if json.Unmarshal(line, &e) == nil && e.Response != nil && len(e.Response.JSON) > 0 {
				var c bytes.Buffer
				if json.Compact(&c, e.Response.JSON) == nil {
					out = append(out, c.Bytes())
				}
			}
		}
	}
	return out
}

func TestDecodeJSON(t *testing.T) {
	var v []string
	require.NoError(t, DecodeJSON([]byte(`["a","b"]`), &v, 1<<10))
	assert.Equal(t, []string{"a", "b"}, v)
	err := DecodeJSON([]byte("["+strings.Repeat(`"",`, 1000)+`""]`), &v, 1<<10)
	assert.True(t, errors.Is(err, ErrResponseTooLarge), "%v", err)
}

// FuzzDecodeCost: the meter counts the same however the answer is cut
// into reads, counts exactly the containers and separators of valid JSON
// (nothing inside strings), and refuses no valid JSON within the depth
// and budget that json.Unmarshal takes; it never panics on any bytes.
func FuzzDecodeCost(f *testing.F) {
	for _, s := range []string{`{}`, `[1,2,3]`, `{"a":[{},{}],"b":"x\",[{"}`, `["a\\",[1]]`, "<html>a, b</html>", `"\u005c"`,
		strings.Repeat("[", 70), `{"a":"\\\""}`} {
		f.Add([]byte(s), uint16(1))
	}
	for i, b := range recordedBodies(f) {
		if i%64 == 0 { // a sample of the real answers
			f.Add(b, uint16(i))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			whole := newDecodeCost(1 << 40)
			werr := whole.feed(data)
			parts := newDecodeCost(1 << 40)
			k := int(cut) % (len(data) + 1)
			perr := parts.feed(data[:k])
			if perr == nil {
				perr = parts.feed(data[k:])
			}
			require.Equal(t, werr != nil, perr != nil, "cut at %d", k)
			require.Equal(t, whole.values, parts.values)
			require.Equal(t, whole.containers, parts.containers)
			if !json.Valid(data) {
				return
			}
			containers, commas, depth := shapeOf(t, data)
			if depth > maxJSONDepth {
				require.Error(t, werr)
				return
			}
			require.NoError(t, werr)
			require.Equal(t, containers, whole.containers)
			require.Equal(t, containers+commas, whole.values)
			var v any
			require.NoError(t, DecodeJSON(data, &v, 1<<40))
		})
	})
}

// shapeOf counts the objects and arrays of valid JSON, the separators
// between their elements and members, and its depth, from json.Decoder's
// tokens.
func shapeOf(t *testing.T, data []byte) (containers, commas int64, depth int) {
	type frame struct {
		object, wantKey bool
		n               int64
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var open []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return containers, commas, depth
		}
		require.NoError(t, err)
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			open = open[:len(open)-1]
			continue
		}
		if len(open) > 0 {
			top := open[len(open)-1]
			if _, isName := tok.(string); isName && top.object && top.wantKey {
				top.wantKey = false
				continue
			}
			if top.n > 0 {
				commas++
			}
			top.n++
			top.wantKey = top.object
		}
		if d, ok := tok.(json.Delim); ok {
			containers++
			open = append(open, &frame{object: d == '{', wantKey: d == '{'})
			depth = max(depth, len(open))
		}
	}
}

// FuzzCountList: counting a streamed list (what marking notifications
// read answers) takes any bytes without a panic, and on a JSON list
// counts exactly its elements, keeping none of them.
func FuzzCountList(f *testing.F) {
	for _, s := range []string{``, `[]`, `[{"id":1},{"id":2}]`, `[1,"a",[],{}]`, `{"a":1}`, `[1,`, ` [ 1 ] trailing`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		costcheck.Within(t, costcheck.Default(), func() { // each input within issue 26's ceiling
			n, err := CountList(bytes.NewReader(data))
			require.GreaterOrEqual(t, n, 0)
			var list []json.RawMessage
			if json.Unmarshal(data, &list) == nil && bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("[")) {
				require.NoError(t, err)
				require.Equal(t, len(list), n)
			}
		})
	})
}

// BenchmarkCostliestAnswer: the answers that cost most within the
// response limit, decoded whole (the SDK's structs, or any value for the
// api command's --jq): what one call can cost after its answer is read,
// the one step that does not look at the call's context.
func BenchmarkCostliestAnswer(b *testing.B) {
	for _, bc := range []struct {
		name, item string
		into       func() any
	}{
		{"objects-into-repos", "{}", func() any { return new([]*sdk.Repository) }},
		{"objects-into-any", "{}", func() any { return new(any) }},
		{"numbers-into-any", "1", func() any { return new(any) }},
		{"strings-into-any", `"` + strings.Repeat("s", 1000) + `"`, func() any { return new(any) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			per := DecodeCost([]byte("["+bc.item+","+bc.item+"]")) - DecodeCost([]byte("["+bc.item+"]"))
			n := int((DefaultMaxResponseBytes - 1024) / per)
			size := 1 + n*(len(bc.item)+1)
			c, _ := hostileForge(b, 200, "[", bc.item+",", bc.item+"]", size)
			b.ReportMetric(float64(n), "items")
			for b.Loop() {
				require.NoError(b, c.DoJSON(context.Background(), http.MethodGet, "/user/repos", nil, nil, bc.into()))
			}
		})
	}
}
