package tool_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// invisibleCorpus is text an attacker can put in an issue, a comment or a
// file to make an agent read something a human reviewer does not see.
var invisibleCorpus = []struct {
	name, in, want string
}{
	{"plain text is untouched", "Fix the bug in main.go\n\tthanks", "Fix the bug in main.go\n\tthanks"},
	{"emoji and accents are untouched", "café ❤️ 👍🏽 日本", "café ❤️ 👍🏽 日本"},
	{"right-to-left override (Trojan Source)", "access\u202e // admin", `access\u202e // admin`},
	{"bidi embeddings and isolates", "\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069", `\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069`},
	{"left-to-right and right-to-left marks, Arabic letter mark", "a\u200eb\u200fc\u061cd", `a\u200eb\u200fc\u061cd`},
	{"zero-width space, joiners, word joiner", "ig\u200bnore\u200c\u200d\u2060", `ig\u200bnore\u200c\u200d\u2060`},
	{"byte order mark inside text", "x\ufeffy", `x\ufeffy`},
	{"soft hyphen", "pass\u00adword", `pass\u00adword`},
	{"invisible math operators", "a\u2061\u2062\u2063\u2064b", `a\u2061\u2062\u2063\u2064b`},
	{"tag characters smuggling ASCII", "hi\U000E0041\U000E0042\U000E007F", `hi\udb40\udc41\udb40\udc42\udb40\udc7f`},
	{"variation selectors supplement", "x\U000E0100", `x\udb40\udd00`},
	{"Hangul fillers and grapheme joiner", "\u115f\u1160\u3164\uffa0\u034f", `\u115f\u1160\u3164\uffa0\u034f`},
	{"C0 controls, ANSI escape, DEL", "a\x00b\x1b[31mred\x7f", `a\u0000b\u001b[31mred\u007f`},
	{"C1 controls", "a\u0085b\u009bc", `a\u0085b\u009bc`},
	{"interlinear annotations", "\ufff9x\ufffay\ufffb", `\ufff9x\ufffay\ufffb`},
}

func TestEscapeInvisible(t *testing.T) {
	for _, tt := range invisibleCorpus {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tool.EscapeInvisible(tt.in))
		})
	}
}

// TestEscapeInvisibleIsLosslessInJSON: in a tool's JSON result, the
// escaped text still decodes to exactly the original string.
func TestEscapeInvisibleIsLosslessInJSON(t *testing.T) {
	for _, tt := range invisibleCorpus {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(map[string]string{"body": tt.in, "title": `a\` + tt.in})
			require.NoError(t, err)
			escaped := tool.EscapeInvisible(string(b))
			for _, r := range escaped {
				assert.False(t, tool.IsInvisible(r), "no invisible rune left: %U", r)
			}
			var back map[string]string
			require.NoError(t, json.Unmarshal([]byte(escaped), &back), "still valid JSON: %s", escaped)
			assert.Equal(t, tt.in, back["body"])
			assert.Equal(t, `a\`+tt.in, back["title"])
		})
	}
}

func TestEscapeInvisibleKeepsLargeTextCheap(t *testing.T) {
	s := strings.Repeat("plain ascii text ", 1<<16)
	assert.Equal(t, s, tool.EscapeInvisible(s))
	allocs := testing.AllocsPerRun(10, func() { _ = tool.EscapeInvisible(s) })
	assert.Zero(t, allocs, "clean text is returned as is")
}
