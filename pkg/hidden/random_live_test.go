package hidden_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// inlinePieces and blockPieces are the fragments random documents are
// made of; {} is a marker word.
var inlinePieces = []string{
	"word {}", "`code {}`", "``a ` {} b``", "<!-- {} -->", "<!-- {}", "-->", "[link {}](http://x.example \"{}\")",
	"![alt {}](http://x.example/i.png)", "[ref {}][r]", "[r]", "<http://x.example/{}>", "<b>{}</b>", "<i title=\"{}\">{}</i>",
	"<span style=\"color:rgba(0,0,0,0)\">{}</span>", "<span>", "</span>", "Promise<{}>", "<T>", "\\<!-- {} -->",
	"&lt;!-- {} --&gt;", "a < b {}", "<details>", "</details>", "<summary>{}</summary>", "<div hidden>{}</div>",
	"<img alt=\"{}\" src=\"http://x.example/i.png\">", "*em {}*", "**{}**", "[", "]", "(", ")", "`", "<", ">", "\"{}\"",
	"<!---->", "<?x {} ?>", "<![CDATA[ {} ]]>", "<abbr title=\"{}\">{}</abbr>", "{}_{}", "[^1]",
}

var blockPieces = []string{
	"```\n<!-- {} -->\n```", "~~~~\n{}\n~~~~", "    indented {}", "<div>\n{}\n</div>", "<div>", "</div>",
	"<!--\n{}\n-->", "<!-- {}", "-->", "<details>\n<summary>{}</summary>", "</details>", "<details>", "<details open>",
	"# heading {}", "## {} {#x}", "[r]: http://x.example \"{}\"", "[{}]: http://x.example", "---", "***",
	"| a {} | b |\n|---|---|\n| {} | <!-- {} --> |", "<span title=\"{}\">", "</span>", "<p>\n{}", "</p>",
	"<img alt=\"{}\"\nsrc=\"http://x.example/i.png\">", "setext {}\n---", "[^1]: {}",
}

// randomDoc builds a document of random blocks: paragraphs of random
// inline pieces, block pieces, inside list items and block quotes, with
// blank lines or not between them.
//
// A document has either <details> or comments left open, not both: a
// comment left open swallows the tags of the containers after it, and how
// the HTML parser then nests a <details> and its <summary> in the
// containers it meets later is approximated, not followed (see
// docs/hardening.md).
func randomDoc(r *rand.Rand) string {
	avoid := []string{"<!-- {}", "-->"}
	if r.IntN(2) == 0 {
		avoid = []string{"details", "summary"}
	}
	pick := func(list []string) string {
		for {
			p := list[r.IntN(len(list))]
			if !strings.Contains(p, avoid[0]) && !(p == avoid[1] || avoid[1] == "summary" && strings.Contains(p, avoid[1])) {
				return p
			}
		}
	}
	var b strings.Builder
	for n := 2 + r.IntN(6); n > 0; n-- {
		var blk string
		if r.IntN(2) == 0 {
			var p []string
			for m := 1 + r.IntN(6); m > 0; m-- {
				p = append(p, pick(inlinePieces))
			}
			blk = strings.Join(p, []string{" ", "", "\n"}[r.IntN(3)])
		} else {
			blk = pick(blockPieces)
		}
		prefix := []string{"", "", "", "- ", "> ", "1. ", "  ", "    ", "> - "}[r.IntN(9)]
		lines := strings.Split(blk, "\n")
		for i, l := range lines {
			switch {
			case i == 0:
				lines[i] = prefix + l
			case strings.HasPrefix(prefix, ">"):
				lines[i] = prefix[:2] + l
			case prefix != "" && r.IntN(3) > 0:
				lines[i] = strings.Repeat(" ", len(prefix)) + l
			}
		}
		b.WriteString(strings.Join(lines, "\n"))
		b.WriteString([]string{"\n\n", "\n", "\n\n\n"}[r.IntN(3)])
	}
	return b.String()
}

// TestLiveRandomDocumentsAgree renders random documents with marker words
// through the live forge and checks marks and page agree on every word:
// the structures the hand-written cases do not think of.
func TestLiveRandomDocumentsAgree(t *testing.T) {
	f := testforge.Get(t)
	r := rand.New(rand.NewPCG(27, seed()))
	docs := 300
	if d := os.Getenv("HIDDEN_DOCS"); d != "" {
		fmt.Sscan(d, &docs)
	}
	if testing.Short() {
		docs = 50
	}
	n := 0
	var bad []string
	for range docs {
		md, words := canaries(randomDoc(r), &n)
		bad = append(bad, agree(t, f, md, words)...)
	}
	if len(bad) > 20 {
		bad = bad[:20]
	}
	require.Empty(t, bad, "marker words disagree (first 20 of %d words):\n%s", n, strings.Join(bad, "\n"))
	t.Logf("%d random documents, %d marker words: marks and page agree on all", docs, n)
}

func seed() uint64 {
	var s uint64 = 3
	fmt.Sscan(os.Getenv("HIDDEN_SEED"), &s)
	return s
}
