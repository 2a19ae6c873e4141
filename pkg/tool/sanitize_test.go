package tool_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"

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
	{"unassigned code points of the tag block", "a\U000E0080b\U000E01F0c\U000E0FFF", `a\udb40\udc80b\udb40\uddf0c\udb43\udfff`},
	{"reserved default-ignorables in the BMP", "a\u2065b\ufff0c", `a\u2065b\ufff0c`},
	{"Khmer inherent vowels and Mongolian variation selectors", "a\u17b4\u17b5\u180b\u180f", `a\u17b4\u17b5\u180b\u180f`},
	{"shorthand and musical format controls", "a\U0001BCA0\U0001D173", `a\ud82f\udca0\ud834\udd73`},
	{"variation selectors other than the presentation ones", "\u2229\ufe00 x\ufe0d", "\u2229" + `\ufe00 x\ufe0d`},
	{"one presentation selector after a visible character is kept", "\u2764\ufe0f \u263a\ufe0e", "\u2764\ufe0f \u263a\ufe0e"},
	{"a run of presentation selectors carries bits: all but the first escaped", "\u2764\ufe0f\ufe0e\ufe0f", "\u2764\ufe0f" + `\ufe0e\ufe0f`},
	{"a presentation selector with nothing before it is escaped", "\ufe0fa \ufe0e\n\ufe0f", `\ufe0fa \ufe0e` + "\n" + `\ufe0f`},
	{"a presentation selector after an escaped rune is escaped", "a\u200b\ufe0f", `a\u200b\ufe0f`},
	// Issue 18, item 13: code points with no agreed glyph, which a font may
	// draw as anything or nothing, and the braille blank, which looks like
	// a space but is not white space.
	{"private use in the BMP", "a\ue000b\uf8ffc", `a\ue000b\uf8ffc`},
	{"private use planes 15 and 16", "a\U000F0000b\U0010FFFDc", `a\udb80\udc00b\udbff\udffdc`},
	{"braille pattern blank", "ignore\u2800previous", `ignore\u2800previous`},
	{"noncharacters", "a\ufdd0b\ufffec\U0001FFFF", `a\ufdd0b\ufffec\ud83f\udfff`},
	{"braille with dots stays", "\u2801\u28ff", "\u2801\u28ff"},
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

// defaultIgnorableRanges is Default_Ignorable_Code_Point as published in
// Unicode 15's DerivedCoreProperties.txt, copied by hand range by range:
// the check on IsDefaultIgnorable's derivation from Go's tables.
var defaultIgnorableRanges = [][2]rune{
	{0x00AD, 0x00AD}, {0x034F, 0x034F}, {0x061C, 0x061C}, {0x115F, 0x1160},
	{0x17B4, 0x17B5}, {0x180B, 0x180F}, {0x200B, 0x200F}, {0x202A, 0x202E},
	{0x2060, 0x206F}, {0x3164, 0x3164}, {0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF},
	{0xFFA0, 0xFFA0}, {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
	{0xE0000, 0xE0FFF},
}

func inRanges(r rune, ranges [][2]rune) bool {
	for _, rg := range ranges {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// TestDefaultIgnorableDerivation compares IsDefaultIgnorable with the
// published ranges on every code point, and spells out the exclusions.
func TestDefaultIgnorableDerivation(t *testing.T) {
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := inRanges(r, defaultIgnorableRanges)
		if tool.IsDefaultIgnorable(r) != want {
			t.Errorf("IsDefaultIgnorable(%U) = %v, want %v", r, !want, want)
		}
		if want {
			n++
		}
	}
	assert.Equal(t, 4174, n, "the property's size in Unicode 15")
	for _, r := range []rune{
		' ', 0x00A0, 0x3000, // white space
		0xFFF9, 0xFFFA, 0xFFFB, // interlinear annotations
		0x13430, 0x1343F, // Egyptian hieroglyph format controls
		0x0600, 0x0605, 0x06DD, 0x070F, 0x08E2, 0x110BD, 0x110CD, // prepended concatenation marks
		0xFFFD, 'a', 0x1F600, 0xE1000,
	} {
		assert.False(t, tool.IsDefaultIgnorable(r), "%U", r)
	}
}

// TestIsInvisibleCoversDefaultIgnorable: every default-ignorable code
// point, every Cf and the whole tag block U+E0000–U+E0FFF is escaped, but
// for the two presentation selectors that EscapeInvisible judges in
// context; so is every private-use code point (U+E000–U+F8FF, planes 15
// and 16, 137,468 of them), every noncharacter (66) and U+2800, written
// out here by their published ranges.
func TestIsInvisibleCoversDefaultIgnorable(t *testing.T) {
	private := [][2]rune{{0xE000, 0xF8FF}, {0xF0000, 0xFFFFD}, {0x100000, 0x10FFFD}}
	noncharacters := [][2]rune{{0xFDD0, 0xFDEF}}
	for plane := rune(0); plane <= 0x10; plane++ {
		noncharacters = append(noncharacters, [2]rune{plane<<16 | 0xFFFE, plane<<16 | 0xFFFF})
	}
	for r := rune(0xA0); r <= unicode.MaxRune; r++ {
		want := (inRanges(r, defaultIgnorableRanges) || unicode.Is(unicode.Cf, r)) && r != 0xFE0E && r != 0xFE0F ||
			inPairs(r, private) || inPairs(r, noncharacters) || r == 0x2800
		if tool.IsInvisible(r) != want {
			t.Errorf("IsInvisible(%U) = %v, want %v", r, !want, want)
		}
	}
}

func inPairs(r rune, ranges [][2]rune) bool {
	for _, p := range ranges {
		if r >= p[0] && r <= p[1] {
			return true
		}
	}
	return false
}
