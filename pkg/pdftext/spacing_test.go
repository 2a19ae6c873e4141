package pdftext_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// timesPage is a one-page PDF whose font /R7 is Times-Roman (standard-14
// metrics, WinAnsi) showing content.
func timesPage(content string) []byte {
	return hostile(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /R7 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>",
	)
}

// TestExtractSpacing: where words are spaced by character and word
// spacing rather than by a space glyph or a TJ gap, as justified groff
// man pages through ps2pdf are (the streams are cut from find(1) made by
// groff 1.22 and Ghostscript 10: a 0.1 scale, then 10, under Tf 10), the
// spacing after a glyph is a gap, not part of the glyph.
func TestExtractSpacing(t *testing.T) {
	const groff = "q 0.1 0 0 0.1 0 0 cm q 10 0 0 10 0 0 cm BT /R7 10 Tf 1 0 0 1 72 700 Tm "
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
		{"Tc as wide as a space between every glyph", "BT /R7 10 Tf 1 0 0 1 72 700 Tm 2.5 Tc (wide)Tj ET", "w i d e"},
		{"TJ adjustment as wide as a space", "BT /R7 10 Tf 1 0 0 1 72 700 Tm [(one)-250(two)]TJ ET", "one two"},
		{"TJ kerning within a word", "BT /R7 10 Tf 1 0 0 1 72 700 Tm [(deb)20.0073(ugopts)]TJ ET", "debugopts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := pdftext.Extract(context.Background(), timesPage(tc.content), pdftext.Options{})
			require.NoError(t, err)
			require.Len(t, res.Pages, 1)
			assert.Equal(t, tc.want, res.Pages[0].Text)
		})
	}
}
