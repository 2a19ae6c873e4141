package pdftext_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// cidFont is a one-page PDF showing content with a Type 0 font of the
// character collection registry-ordering, encoded by encoding (a name, or
// "7 0 R" for the CMap stream cmap), with ToUnicode toUni when it is not
// "" (object 8).
func cidFont(registry, ordering, encoding, cmap, toUni, content string) []byte {
	font := "<< /Type /Font /Subtype /Type0 /BaseFont /Min /Encoding " + encoding + " /DescendantFonts [6 0 R]"
	if toUni != "" {
		font += " /ToUnicode 8 0 R"
	}
	font += " >>"
	stream := func(s string) string { return fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(s), s) }
	return fontPage(content, font,
		fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Min /CIDSystemInfo << /Registry (%s) /Ordering (%s) /Supplement 2 >> /FontDescriptor << /Type /FontDescriptor /FontName /Min /Flags 4 >> /DW 1000 >>", registry, ordering),
		stream(cmap), stream(toUni))
}

// TestExtractCIDCollection reads CID-keyed fonts without a ToUnicode CMap
// (or with one that leaves codes out) through their character collection's
// CID to Unicode CMap, as poppler does; the expected characters are those
// of Adobe's UCS2 CMaps (Adobe-Japan1 CID 843 is あ, Adobe-Korea1 CID 1086
// is 가, CID 34 is A in each collection).
func TestExtractCIDCollection(t *testing.T) {
	encCMap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n" +
		"1 begincodespacerange <00> <FF> endcodespacerange\n" +
		"1 begincidrange <41> <43> 843 endcidrange\n" + cmapTail
	partial := cmapHead + "1 beginbfchar <0001> <004B> endbfchar\n" + cmapTail
	full := cmapHead + "1 beginbfchar <034B> <0058> endbfchar\n" + cmapTail
	for _, tc := range []struct {
		name, registry, ordering, encoding, toUni, content string
		want                                               string
	}{
		{"Japan1, Identity-H", "Adobe", "Japan1", "/Identity-H", "", "<034B0022>", "あA"},
		{"GB1", "Adobe", "GB1", "/Identity-H", "", "<11CF>", "中"},
		{"CNS1", "Adobe", "CNS1", "/Identity-H", "", "<0295>", "中"},
		{"Korea1", "Adobe", "Korea1", "/Identity-H", "", "<043E>", "가"},
		{"Korea1, Identity-V", "Adobe", "Korea1", "/Identity-V", "", "<043E>", "가"},
		{"an embedded encoding CMap: its CIDs", "Adobe", "Japan1", "7 0 R", "", "(AC)", "あい"},
		{"a code the encoding CMap does not map: no CID, no text", "Adobe", "Japan1", "7 0 R", "", "(A\x22C)", "あい"},
		{"ToUnicode first, the collection for what it leaves out", "Adobe", "Japan1", "/Identity-H", partial, "<0001034B>", "Kあ"},
		{"ToUnicode wins where both map", "Adobe", "Japan1", "/Identity-H", full, "<034B>", "X"},
		{"a collection of no registry we know", "Foundry", "Japan1", "/Identity-H", "", "<034B>", ""},
		{"Adobe-Identity: CIDs are glyph ids", "Adobe", "Identity", "/Identity-H", "", "<034B>", ""},
		{"Adobe-KR (not embedded)", "Adobe", "KR", "/Identity-H", "", "<034B>", ""},
		{"a predefined CMap of its own: codes are not CIDs", "Adobe", "Japan1", "/90ms-RKSJ-H", "", "<82A0>", ""},
		{"Identity-H: a string's odd last byte is no CID", "Adobe", "Japan1", "/Identity-H", "", "<034B22>", "あ"},
		{"a CID past the collection", "Adobe", "Korea1", "/Identity-H", "", "<FFFF>", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := cidFont(tc.registry, tc.ordering, tc.encoding, encCMap, tc.toUni, "BT /F1 12 Tf "+tc.content+" Tj ET")
			res, err := pdftext.Extract(context.Background(), doc, pdftext.Options{})
			require.NoError(t, err)
			require.Len(t, res.Pages, 1)
			assert.Equal(t, tc.want, res.Pages[0].Text)
		})
	}
}

// TestExtractCIDCollectionOnce: a collection is read when a code needs
// it, once per extraction whatever the number of fonts using it, and
// charged to the extraction's budget; a budget too small for it ends the
// call with a note, not a panic or a silent empty page.
func TestExtractCIDCollectionOnce(t *testing.T) {
	full := cmapHead + "1 beginbfchar <034B> <0058> endbfchar\n" + cmapTail
	content := "BT /F1 12 Tf <034B> Tj /F2 12 Tf <034B> Tj ET"
	two := hostile("<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 7 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type0 /BaseFont /Min /Encoding /Identity-H /DescendantFonts [6 0 R] >>",
		"<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Min /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> >>",
		"<< /Type /Font /Subtype /Type0 /BaseFont /Min /Encoding /Identity-H /DescendantFonts [6 0 R] >>")
	for _, tc := range []struct {
		name        string
		doc         []byte
		want        string
		collections int
		peak        int64 // at least
	}{
		{"two fonts, one collection read", two, "ああ", 1, 1 << 20},
		{"ToUnicode maps every code shown: none read", cidFont("Adobe", "Japan1", "/Identity-H", "", full, "BT /F1 12 Tf <034B> Tj ET"), "X", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := pdftext.Extract(context.Background(), tc.doc, pdftext.Options{})
			require.NoError(t, err)
			require.Len(t, res.Pages, 1)
			assert.Equal(t, tc.want, res.Pages[0].Text)
			w := pdftext.WorkOf(res)
			assert.Equal(t, tc.collections, w.Collections)
			assert.GreaterOrEqual(t, w.Peak, tc.peak)
		})
	}
	_, err := pdftext.Extract(context.Background(), two, pdftext.Options{MaxMemory: 1 << 20})
	require.ErrorIs(t, err, pdftext.ErrTooMuchWork)
	assert.ErrorContains(t, err, "reading it needs over 1 MiB of memory")
}

// TestExtractTUG2005Korean reads page 19 of tug2005.pdf (Jin-Hwan Cho's
// TUG 2005 slides, made by Mac OS X 10.4.2 Quartz PDFContext; Debian's
// texlive-base ships it, scripts/pdf-corpus names it quartz-tug2005.pdf),
// whose Korean and Han title is set in YoonMyungjo, CID Type 0 fonts of
// Adobe-Korea1-2 with Identity-H and no ToUnicode: what pdftotext reads
// there. The file's licence is not stated, so it is not in the repository:
// the test reads it where TeX Live's documentation or scripts/pdf-corpus
// put it ($PDF_CORPUS_DIR), and says so when it is absent.
func TestExtractTUG2005Korean(t *testing.T) {
	var data []byte
	for _, p := range []string{os.Getenv("PDF_CORPUS_DIR") + "/quartz-tug2005.pdf", "/usr/share/doc/texlive-doc/dvipdfmx/tug2005.pdf", "/tmp/pdfq/corpus/quartz-tug2005.pdf"} {
		if b, err := os.ReadFile(p); err == nil {
			data = b
			break
		}
	}
	if data == nil {
		t.Skip("tug2005.pdf is not installed (texlive-base's documentation) and PDF_CORPUS_DIR does not hold quartz-tug2005.pdf")
	}
	res, err := pdftext.Extract(context.Background(), data, pdftext.Options{Pages: "19"})
	require.NoError(t, err)
	require.Len(t, res.Pages, 1)
	text := res.Pages[0].Text
	assert.Contains(t, text, "백운화상초록불조직지심체요절(白雲和尙抄錄佛祖直指心體要節)")
	assert.Contains(t, text, "終")
	assert.Contains(t, text, "the oldest (existing) book printed using metal movable types")
}
