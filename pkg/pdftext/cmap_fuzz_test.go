package pdftext

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// FuzzCMap (security issue 26, item 4): whatever a CMap holds, it parses
// within its budget and the ceiling of one input, and every lookup through
// its index (text, CID, code length) answers what a scan of every entry,
// the last defined winning, answers.
func FuzzCMap(f *testing.F) {
	f.Add([]byte("1 begincodespacerange <0000> <FFFF> endcodespacerange 2 beginbfchar <0001> <004B> <0002> /fi endbfchar 2 beginbfrange <0010> <0012> <03B1> <0020> <0021> [<0041> <D83DDE00>] endbfrange"), []byte{0, 1, 0, 0x11, 0, 0x21, 0x20})
	f.Add([]byte("2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange 1 begincidrange <8140> <817E> 633 endcidrange 1 begincidchar <20> 1 endcidchar"), []byte{0x81, 0x41, 0x20, 0x9f, 0xfc})
	f.Add([]byte("3 beginbfrange <00> <FF> <0041> <10> <20> <0061> <15> <15> [<0031>] endbfrange"), []byte{0x10, 0x15, 0x16, 0xff})
	for _, c := range SeedParts(f).CMaps {
		f.Add(c, []byte{0, 1, 0, 3, 0, 0x20, 0x41, 0x20, 0})
	}
	f.Fuzz(func(t *testing.T, data, codes []byte) {
		costcheck.Within(t, costcheck.Default(), func() {
			mem := pdfobj.NewBudget(16 << 20)
			var m *cmap
			func() {
				defer func() {
					if r := recover(); r != nil {
						if s, ok := r.(pdfobj.Stop); !ok || !spent(s.Err) {
							panic(r)
						}
					}
				}()
				m = parseCMap(data, mem, func() {})
			}()
			if m == nil {
				if mem.Held() != 0 {
					t.Fatalf("a CMap refused by the budget still holds %d bytes", mem.Held())
				}
				return
			}
			if m.cost != mem.Held() {
				t.Fatalf("the CMap says it holds %d bytes, the budget %d", m.cost, mem.Held())
			}
			for i := range codes {
				for n := 1; n <= 4 && i+n <= len(codes); n++ {
					code := codeOf(codes[i : i+n])
					got, gotOK := m.text(n, code)
					want, wantOK := scanText(m, n, code)
					if got != want || gotOK != wantOK {
						t.Fatalf("text of %d-byte code %x: %q %v, a scan says %q %v", n, code, got, gotOK, want, wantOK)
					}
					gc, gcOK := m.cid(n, code)
					wc, wcOK := scanCID(m, n, code)
					if gc != wc || gcOK != wcOK {
						t.Fatalf("CID of %d-byte code %x: %d %v, a scan says %d %v", n, code, gc, gcOK, wc, wcOK)
					}
				}
				if got, want := m.split(codes[i:], 2), scanSplit(m, codes[i:], 2); got != want {
					t.Fatalf("split of % x: %d, a scan says %d", codes[i:], got, want)
				}
			}
		})
	})
}

// scanText, scanCID and scanSplit are the lookups as a scan of every
// entry (as they were before the index): the reference the index must
// agree with.
func scanText(m *cmap, n int, code uint32) (string, bool) {
	if s, ok := m.chars[key(n, code)]; ok {
		return s, true
	}
	for i := len(m.ranges) - 1; i >= 0; i-- {
		r := &m.ranges[i]
		if int(r.n) != n || code < r.lo || code > r.hi || r.hasCID {
			continue
		}
		return r.textAt(code)
	}
	return "", false
}

func scanCID(m *cmap, n int, code uint32) (int, bool) {
	if c, ok := m.cids[key(n, code)]; ok {
		return c, true
	}
	for i := len(m.ranges) - 1; i >= 0; i-- {
		r := &m.ranges[i]
		if r.hasCID && int(r.n) == n && code >= r.lo && code <= r.hi {
			return int(r.cid) + int(code-r.lo), true
		}
	}
	return 0, false
}

func scanSplit(m *cmap, s []byte, fallback int) int {
	for n := 1; n <= 4 && n <= len(s); n++ {
		c := codeOf(s[:n])
		for _, r := range m.space {
			if r.n == n && c >= r.lo && c <= r.hi {
				return n
			}
		}
	}
	if len(m.space) > 0 {
		short := 4
		for _, r := range m.space {
			short = min(short, r.n)
		}
		return min(short, len(s))
	}
	return min(fallback, len(s))
}

// TestCMapMixedCodeLengths: ranges of one- and two-byte codes, of text and
// of CIDs, mixed in one CMap are each found for their own codes (FuzzCMap
// found the index answering a two-byte code with the first one-byte range,
// testdata/fuzz/FuzzCMap/8df2d6552d3d1275).
func TestCMapMixedCodeLengths(t *testing.T) {
	m := parseCMap([]byte("2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange\n"+
		"2 beginbfrange <00> <7F> <0041> <8140> <8142> <3042> endbfrange\n"+
		"1 begincidrange <8140> <817E> 633 endcidrange\n1 begincidrange <20> <7E> 1 endcidrange\n"), nil, nil)
	for _, tc := range []struct {
		n       int
		code    uint32
		text    string
		cid     int
		textOK  bool
		cidOK   bool
		splitOf []byte
	}{
		{1, 0x01, "B", 0, true, false, []byte{0x01}},
		{2, 0x8141, "\u3043", 634, true, true, []byte{0x81, 0x41}},
		{1, 0x21, "b", 2, true, true, []byte{0x21}},
		{2, 0x8150, "", 649, false, true, []byte{0x81, 0x50}},
	} {
		text, ok := m.text(tc.n, tc.code)
		assert.Equal(t, tc.text, text, "%x", tc.code)
		assert.Equal(t, tc.textOK, ok, "%x", tc.code)
		cid, ok := m.cid(tc.n, tc.code)
		assert.Equal(t, tc.cid, cid, "%x", tc.code)
		assert.Equal(t, tc.cidOK, ok, "%x", tc.code)
		assert.Equal(t, tc.n, m.split(tc.splitOf, 2), "% x", tc.splitOf)
	}
}
