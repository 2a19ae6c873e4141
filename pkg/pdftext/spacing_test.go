package pdftext_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// timesPage is a one-page PDF whose font /F1 is Times-Roman (standard-14
// metrics, WinAnsi) showing content.
func timesPage(content string) []byte {
	return fontPage(content, "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>")
}

// TestExtractSpacing: where words are spaced by character and word
// spacing rather than by a space glyph or a TJ gap, as justified groff
// man pages through ps2pdf are (the streams are cut from find(1) made by
// groff 1.22 and Ghostscript 10: a 0.1 scale, then 10, under Tf 10), the
// spacing after a glyph is a gap, not part of the glyph. A glyph of
// another size or baseline starts a word at a smaller gap, and a line of
// one-glyph words evenly spaced is letter-spaced, as poppler takes them.
func TestExtractSpacing(t *testing.T) {
	const groff = "q 0.1 0 0 0.1 0 0 cm q 10 0 0 10 0 0 cm BT /F1 10 Tf 1 0 0 1 72 700 Tm "
	for _, tc := range []struct {
		name, content, want string
	}{
		{"Tc spaces two glyphs of one string", groff +
			"(gi)Tj -0.15 Tc 7.53008 0 Td (ve)Tj 3.396 Tc 9.28984 0 Td (ns)Tj 0 Tc 12.2859 0 Td (tarting-point by e)Tj ET Q Q",
			"given starting-point by e"},
		{"Tc in a TJ whose adjustments take it back", groff +
			"(mo)Tj -0.15 Tc 12.6301 0 Td (ve)Tj 2.611 Tc 9.28984 0 Td [(so)261.084(nt)261.099(ot)]TJ 0 Tc 32.2832 0 Td (he ne)Tj ET Q Q",
			"moves on to the ne"},
		{"negative Tc kerns within a word", groff + "-0.25 Tc (eva)Tj 0 Tc 13 0 Td (luating)Tj ET Q Q", "evaluating"},
		{"Tw widens a space glyph, one space still", groff + "1.38 Tw (If you are using)Tj ET Q Q", "If you are using"},
		{"Tw with Tc: words by the space, not by Tc", groff + "0.3 Tc 2 Tw (two words)Tj ET Q Q", "two words"},
		{"Tc letter-spacing a word evenly", "BT /F1 10 Tf 1 0 0 1 72 700 Tm 2.5 Tc (wide)Tj ET", "wide"},
		{"Tc of half an em between every glyph", "BT /F1 10 Tf 1 0 0 1 72 700 Tm 5 Tc (wide)Tj ET", "w i d e"},
		{"TJ adjustment as wide as a space", "BT /F1 10 Tf 1 0 0 1 72 700 Tm [(one)-250(two)]TJ ET", "one two"},
		{"TJ kerning within a word", "BT /F1 10 Tf 1 0 0 1 72 700 Tm [(deb)20.0073(ugopts)]TJ ET", "debugopts"},
		// A footnote mark, smaller and raised, half a point before its
		// text (LaTeX's footnotes): a word of its own, as for poppler.
		{"a footnote mark close to its text", "BT /F1 6 Tf 1 0 0 1 72 703 Tm (7)Tj /F1 10 Tf 1 0 0 1 75.5 700 Tm (Punct)Tj ET", "7 Punct"},
		{"a superscript touching its base", "BT /F1 10 Tf 1 0 0 1 72 700 Tm (mc)Tj /F1 6 Tf 1 0 0 1 84.22 704 Tm (2)Tj ET", "mc2"},
		{"a size change within a word", "BT /F1 10 Tf 1 0 0 1 72 700 Tm (T)Tj /F1 8 Tf (EX)Tj ET", "TEX"},
		// Letter-spaced lines: all words one glyph, even gaps.
		{"a letter-spaced heading", "BT /F1 10 Tf 1 0 0 1 72 700 Tm [(C)-300(O)-300(N)-320(T)]TJ ET", "CONT"},
		{"letter-spaced, then a line of words", "BT /F1 10 Tf 1 0 0 1 72 700 Tm [(A)-300(B)]TJ 0 -12 Td [(a)-300(b)-300(cd)]TJ ET", "AB\na b cd"},
		{"one-glyph words, a wide gap among narrow", "BT /F1 10 Tf 1 0 0 1 72 700 Tm [(a)-300(b)-700(c)]TJ ET", "ab c"},
		{"one-glyph words an em apart", "BT /F1 10 Tf 1 0 0 1 72 700 Tm [(x)-1000(y)-1000(z)]TJ ET", "x y z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := pdftext.Extract(context.Background(), timesPage(tc.content), pdftext.Options{})
			require.NoError(t, err)
			require.Len(t, res.Pages, 1)
			assert.Equal(t, tc.want, res.Pages[0].Text)
		})
	}
}
