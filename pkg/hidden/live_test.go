package hidden_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/rendered"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/hidden"
)

// render has the live forge render md as it renders a comment.
func render(t *testing.T, f *testforge.Forge, md string) rendered.Text {
	t.Helper()
	var out []byte
	status := f.Do(t, "POST", "/markdown", map[string]any{"Text": md, "Mode": "comment"}, &out)
	require.Equal(t, 200, status, "POST /markdown: %s", out)
	txt, err := rendered.Read(string(out))
	require.NoError(t, err)
	return txt
}

// state is where a text ends up: shown, collapsed, or not on the page.
type state string

const (
	shown     state = "shown"
	collapsed state = "collapsed"
	invisible state = "invisible"
)

// pageState is where the forge put word w.
func pageState(txt rendered.Text, w string) state {
	has := func(s string) bool { return strings.Contains(s, w) }
	switch {
	case has(txt.Visible):
		return shown
	case has(txt.Collapsed):
		return collapsed
	}
	return invisible
}

// markStates returns, for every occurrence of w in the marked text, the
// state its marks give it: inside a hidden mark invisible, inside a
// collapsed one collapsed, else shown.
func markStates(marked, w string) []state {
	var out []state
	var stack []state
	for i := 0; i < len(marked); {
		switch {
		case strings.HasPrefix(marked[i:], hidden.Open+hidden.Open), strings.HasPrefix(marked[i:], hidden.Open+hidden.Close):
			i += 2 * len(hidden.Open)
		case strings.HasPrefix(marked[i:], hidden.HiddenMark):
			stack = append(stack, invisible)
			i += len(hidden.HiddenMark)
		case strings.HasPrefix(marked[i:], hidden.CollapsedMark):
			stack = append(stack, collapsed)
			i += len(hidden.CollapsedMark)
		case strings.HasPrefix(marked[i:], hidden.Close):
			stack = stack[:len(stack)-1]
			i += len(hidden.Close)
		case strings.HasPrefix(marked[i:], w):
			st := shown
			for _, s := range stack {
				if s == invisible || st == shown {
					st = s
				}
			}
			out = append(out, st)
			i += len(w)
		default:
			i++
		}
	}
	return out
}

// canaries fills each {} of tpl with a new word, each {N} (one digit)
// with the same word for the same N.
func canaries(tpl string, next *int) (string, []string) {
	var words []string
	named := map[byte]string{}
	var b strings.Builder
	word := func() string {
		*next++
		w := fmt.Sprintf("cnry%05dq", *next)
		words = append(words, w)
		return w
	}
	for i := 0; i < len(tpl); i++ {
		switch {
		case strings.HasPrefix(tpl[i:], "{}"):
			b.WriteString(word())
			i++
		case i+2 < len(tpl) && tpl[i] == '{' && tpl[i+1] >= '0' && tpl[i+1] <= '9' && tpl[i+2] == '}':
			w, ok := named[tpl[i+1]]
			if !ok {
				w = word()
				named[tpl[i+1]] = w
			}
			b.WriteString(w)
			i += 2
		default:
			b.WriteByte(tpl[i])
		}
	}
	return b.String(), words
}

// agree compares where the forge put each canary with where the marks
// put it; a canary seen several times is shown if any occurrence is.
func agree(t *testing.T, f *testforge.Forge, md string, words []string) []string {
	t.Helper()
	txt := render(t, f, md)
	marked := hidden.Mark(md)
	require.Equal(t, md, hidden.Unmark(marked), "the source comes back from the marks")
	var bad []string
	for _, w := range words {
		page := pageState(txt, w)
		ours := invisible
		for _, s := range markStates(marked, w) {
			if s == shown || s == collapsed && ours == invisible {
				ours = s
			}
		}
		if page != ours {
			bad = append(bad, fmt.Sprintf("%s: the page has it %s, the marks %s\n  source: %q\n  marked: %q\n  page:   %q | collapsed %q",
				w, page, ours, md, marked, strings.Join(strings.Fields(txt.Visible), " "), strings.Join(strings.Fields(txt.Collapsed), " ")))
		}
	}
	return bad
}

// TestLiveMarksAgreeWithTheRenderer renders documents with a marker word
// in every place text can hide, through the live forge's own markdown
// renderer (POST /markdown, as a comment), and checks every word: what the
// page shows is never marked, what it hides is marked hidden, what it
// collapses is marked collapsed.
func TestLiveMarksAgreeWithTheRenderer(t *testing.T) {
	f := testforge.Get(t)
	n := 0
	var bad []string
	for _, tpl := range agreementCases {
		md, words := canaries(tpl, &n)
		bad = append(bad, agree(t, f, md, words)...)
	}
	require.Empty(t, bad, "%d of %d marker words disagree:\n%s", len(bad), n, strings.Join(bad, "\n"))
	t.Logf("%d documents, %d marker words: marks and page agree on all", len(agreementCases), n)
}
