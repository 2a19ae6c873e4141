package hidden_test

import (
	"strings"
	"testing"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/hidden"
)

// FuzzMark checks, on any input, that marking never panics, that the
// source comes back from the marks byte for byte, that the marks are well
// formed (each opened is closed, none closed that was not opened), and that
// a text with nothing hidden and no bracket to escape is left as it is.
func FuzzMark(f *testing.F) {
	for _, c := range agreementCases {
		f.Add(c)
	}
	for _, c := range []string{"⟦hidden: x⟧", "⟦⟧⟦⟦", "<details>\n\n<!-- a", "[^a]: b\n\n[^a]", "| a |\n|---|\n| b | c |",
		"---\nk: v\n---\n", "> - <div>\n<!--", "<span style=\"color:#0000\">x</span>", "[a]: <b> 'c'\n[d][a]"} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, src string) {
		marked, st := hidden.MarkStats(src)
		if got := hidden.Unmark(marked); got != src {
			t.Fatalf("the source does not come back:\nsource %q\nmarked %q\nback   %q", src, marked, got)
		}
		if st.Total() == 0 && !strings.ContainsAny(src, hidden.Open+hidden.Close) && marked != src {
			t.Fatalf("nothing marked, yet the text changed: %q → %q", src, marked)
		}
		depth, opens := 0, 0
		for s := marked; s != ""; {
			i := strings.IndexAny(s, hidden.Open+hidden.Close)
			if i < 0 {
				break
			}
			s = s[i:]
			switch {
			case strings.HasPrefix(s, hidden.Open+hidden.Open), strings.HasPrefix(s, hidden.Open+hidden.Close):
				s = s[2*len(hidden.Open):]
			case strings.HasPrefix(s, hidden.HiddenMark), strings.HasPrefix(s, hidden.CollapsedMark):
				depth++
				opens++
				s = s[len(hidden.Open):]
			case strings.HasPrefix(s, hidden.Close):
				if depth--; depth < 0 {
					t.Fatalf("a mark closed that was not opened: %q", marked)
				}
				s = s[len(hidden.Close):]
			default:
				t.Fatalf("a bracket neither escaped nor a mark: %q", marked)
			}
		}
		if depth != 0 || opens != st.Total() {
			t.Fatalf("%d marks left open, %d opened, %d counted: %q", depth, opens, st.Total(), marked)
		}
	})
}
