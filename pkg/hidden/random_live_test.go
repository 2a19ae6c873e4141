package hidden_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// inlinePieces and blockPieces are the fragments random documents are
// made of; {} is a marker word.
var inlinePieces = []string{
	"word {}", "`code {}`", "``a ` {} b``", "<!-- {} -->", "<!-- {}", "-->", "[link {}](http://x.example \"{}\")",
	"![alt {}](http://x.example/i.png)", "[ref {}][r]", "[r]", "<http://x.example/{}>", "<b>{}</b>", "<i title=\"{}\">",
	"</i>", "<span style=\"color:rgba(0,0,0,0)\">{}</span>", "<span>", "</span>", "Promise<{}>", "<T>", "\\<!-- {} -->",
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
func randomDoc(r *rand.Rand) string {
	var b strings.Builder
	for n := 2 + r.IntN(6); n > 0; n-- {
		var blk string
		if r.IntN(2) == 0 {
			var p []string
			for m := 1 + r.IntN(6); m > 0; m-- {
				p = append(p, inlinePieces[r.IntN(len(inlinePieces))])
			}
			blk = strings.Join(p, []string{" ", "", "\n"}[r.IntN(3)])
		} else {
			blk = blockPieces[r.IntN(len(blockPieces))]
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
	r := rand.New(rand.NewPCG(27, 3))
	docs := 300
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
