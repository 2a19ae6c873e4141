package hidden_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/rendered"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/hidden"
)

type body struct {
	URL  string `json:"url"`
	Part string `json:"part"`
	Body string `json:"body"`
}

// corpus loads the real issue bodies of testdata (see its README).
func corpus(t *testing.T) []body {
	files, err := filepath.Glob("testdata/issue-bodies-*.json")
	require.NoError(t, err)
	var all []body
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var part []body
		require.NoError(t, json.Unmarshal(b, &part), f)
		all = append(all, part...)
	}
	require.GreaterOrEqual(t, len(all), 50, "the corpus holds 50 bodies or more")
	return all
}

func statsTable(st hidden.Stats) string {
	var b strings.Builder
	for _, k := range hidden.Kinds() {
		if st.Spans[k] > 0 {
			fmt.Fprintf(&b, "\n  %-13s %4d marks %7d bytes", k, st.Spans[k], st.Bytes[k])
		}
	}
	return b.String()
}

// TestCorpusRoundTrip marks every real body: each comes back byte for
// byte from its marks, and one without marks and brackets is unchanged.
func TestCorpusRoundTrip(t *testing.T) {
	var total hidden.Stats
	marked, bytes := 0, 0
	for _, c := range corpus(t) {
		m, st := hidden.MarkStats(c.Body)
		require.Equal(t, c.Body, hidden.Unmark(m), "%s (%s)", c.URL, c.Part)
		if st.Total() == 0 {
			require.Equal(t, c.Body, m, "%s (%s): nothing marked, yet changed", c.URL, c.Part)
		} else {
			marked++
		}
		total.Add(st)
		bytes += len(c.Body)
	}
	t.Logf("%d bytes of real bodies, %d of them with marks:%s", bytes, marked, statsTable(total))
}

// wordCounts counts the words of text.
func wordCounts(text string) map[string]int {
	n := map[string]int{}
	for _, w := range rendered.Words(text) {
		n[w]++
	}
	return n
}

// split parts marked text by what its marks say of each byte: shown,
// collapsed, hidden.
func split(m string) (shown, collapsed, hid string) {
	var b [3]strings.Builder
	var stack []int
	for len(m) > 0 {
		cur := 0
		for _, k := range stack {
			cur = max(cur, k)
		}
		switch {
		case strings.HasPrefix(m, hidden.Open+hidden.Open), strings.HasPrefix(m, hidden.Open+hidden.Close):
			b[cur].WriteString(m[len(hidden.Open) : 2*len(hidden.Open)])
			m = m[2*len(hidden.Open):]
		case strings.HasPrefix(m, hidden.HiddenMark):
			stack = append(stack, 2)
			m = m[len(hidden.HiddenMark):]
		case strings.HasPrefix(m, hidden.CollapsedMark):
			stack = append(stack, 1)
			m = m[len(hidden.CollapsedMark):]
		case strings.HasPrefix(m, hidden.Close):
			stack = stack[:len(stack)-1]
			m = m[len(hidden.Close):]
		default:
			b[cur].WriteByte(m[0])
			m = m[1:]
		}
	}
	return b[0].String(), b[1].String(), b[2].String()
}

// TestLiveCorpusLosesNoVisibleText renders every real body through the
// live forge and checks the marks against the page, word by word: no word
// the page shows may be one the marks hide or collapse (counted as
// characters: 0 lost), a word only inside hidden marks is not on the page,
// and one only inside collapsed marks is not shown at once.
func TestLiveCorpusLosesNoVisibleText(t *testing.T) {
	f := testforge.Get(t)
	var total hidden.Stats
	lost, shownChars, hiddenOnly, collapsedOnly := 0, 0, 0, 0
	var bad []string
	for _, c := range corpus(t) {
		m, st := hidden.MarkStats(c.Body)
		total.Add(st)
		page := render(t, f, c.Body)
		sh, co, hi := split(m)
		shown, coll, hid := wordCounts(sh), wordCounts(co), wordCounts(hi)
		visible, folded := wordCounts(page.Visible), wordCounts(page.Collapsed)
		source := wordCounts(c.Body)
		for w, n := range visible {
			shownChars += n * len(w)
			// A word the page shows more often than the marks leave it
			// shown, though the source has it: the marks hid some.
			if source[w] > 0 && n > shown[w] {
				lost += (n - shown[w]) * len(w)
				bad = append(bad, fmt.Sprintf("%s (%s): %q shown %d times on the page, %d outside marks\nmarked: %q", c.URL, c.Part, w, n, shown[w], m))
			}
		}
		for w := range hid {
			if shown[w] == 0 && coll[w] == 0 {
				hiddenOnly++
				if visible[w]+folded[w] > 0 {
					bad = append(bad, fmt.Sprintf("%s (%s): %q only inside hidden marks, yet on the page\nmarked: %q", c.URL, c.Part, w, m))
				}
			}
		}
		for w := range coll {
			if shown[w] == 0 && hid[w] == 0 {
				collapsedOnly++
				if visible[w] > 0 {
					bad = append(bad, fmt.Sprintf("%s (%s): %q only inside collapsed marks, yet shown\nmarked: %q", c.URL, c.Part, w, m))
				}
			}
		}
	}
	require.Empty(t, bad, "marks that disagree with the page")
	t.Logf("%d characters of words shown on the pages, %d of them marked (lost); %d words only inside hidden marks and %d only inside collapsed ones, none shown:%s",
		shownChars, lost, hiddenOnly, collapsedOnly, statsTable(total))
}
