package pdftext_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// type0 is a one-page PDF whose font is a Type 0 (CID) font with the given
// ToUnicode CMap, showing content.
func type0(cmap, content string) []byte {
	return fontPage(content, "<< /Type /Font /Subtype /Type0 /BaseFont /Noto /Encoding /Identity-H /ToUnicode 6 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(cmap), cmap))
}

// fontPage is a one-page PDF showing content with font /F1, object 5;
// more objects follow from 6.
func fontPage(content, font string, more ...string) []byte {
	return hostile(append([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		font,
	}, more...)...)
}

const cmapHead = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
const cmapTail = "endcmap CMapName currentdict /CMap defineresource pop end end\n"

func TestExtractType0ToUnicode(t *testing.T) {
	cmap := cmapHead + "3 beginbfchar <0001> <004B> <0002> <00F6> <0003> <006C> endbfchar\n" +
		"1 beginbfrange <0010> <0012> <03B1> endbfrange\n" + cmapTail
	res, err := pdftext.Extract(context.Background(), type0(cmap, "BT /F1 12 Tf <000100020003006E> Tj 0 -14 Td <001000110012> Tj ET"), pdftext.Options{})
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	assert.Equal(t, "Köl\nαβγ", res.Pages[0].Text)
}

func TestExtractHostileNumbers(t *testing.T) {
	bigCMap := cmapHead + "2000000000 beginbfchar <0001> <004B> endbfchar\n" + cmapTail
	bomb := "BT /F1 12 Tf " + strings.Repeat("(x) Tj ", 20) + " ET"
	for _, tc := range []struct {
		name string
		data []byte
		want error
		text string // the first page's text; "-": any
	}{
		{"CMap block count: the count is ignored, the entries read", type0(bigCMap, "BT /F1 12 Tf <00010041> Tj ET"), nil, "K"},
		{"xref stream widths", hostile("<< /Type /XRef /Size 3 /W [1 2000000000 1] /Length 0 >>\nstream\n\nendstream"), pdftext.ErrMalformed, ""},
		{"predictor columns", hostile("<< /Length 0 /DecodeParms << /Predictor 12 /Columns 4000000000 >> >>\nstream\n\nendstream"), pdftext.ErrMalformed, ""},
		{"a long string through a CMap", type0(cmapHead+"1 beginbfchar <0001> <004B> endbfchar\n"+cmapTail,
			"BT /F1 12 Tf <"+strings.Repeat("0001", 200_000)+"> Tj ET"), nil, strings.Repeat("K", 1000)},
		{"a content stream over the budget: the text before it", hostile(
			"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", flate(bomb+strings.Repeat(" ", 2<<20))), nil, strings.Repeat("x", 20)},
		{"a content stream over the budget before any text", hostile(
			"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", flate(strings.Repeat(" ", 2<<20)+bomb)), pdftext.ErrTooMuchWork, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := pdftext.Extract(context.Background(), tc.data, pdftext.Options{MaxTextBytes: 1000, MaxContentBytes: 1 << 20})
			if tc.want != nil {
				require.ErrorIs(t, err, tc.want)
				return
			}
			require.NoError(t, err)
			require.NotEmpty(t, res.Pages)
			assert.Equal(t, tc.text, res.Pages[0].Text)
		})
	}
}

// TestPredefinedUnicodeCMapWidths: a CID font with a predefined Unicode
// CMap (ReportLab's UnicodeCIDFont writes /UniJIS-UCS2-H and a /W of the
// Latin glyphs' CIDs) spaces Latin text by those widths: "il" and "lic"
// placed end to end are one word, a space's gap later another.
func TestPredefinedUnicodeCMapWidths(t *testing.T) {
	font := "<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /UniJIS-UCS2-H /DescendantFonts [6 0 R] >>"
	cid := "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >>" +
		" /DW 1000 /W [1 [250] 68 [440] 74 [230] 77 [230]] >>"
	// Widths at size 10: space 2.5, c 4.4, i and l 2.3, 日 10.
	content := "BT /F1 10 Tf 1 0 0 1 72 720 Tm <0069006C> Tj 1 0 0 1 76.6 720 Tm <006C00690063> Tj " +
		"1 0 0 1 88.1 720 Tm <0069006C> Tj 1 0 0 1 95.2 720 Tm <65E5> Tj ET"
	doc := hostile(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		font, cid,
	)
	res, err := pdftext.Extract(context.Background(), doc, pdftext.Options{})
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	assert.Equal(t, "illic il 日", res.Pages[0].Text)
}
