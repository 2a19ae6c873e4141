package pdftext_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

func threePages(compress bool) []byte {
	return pdfgen.Doc(pdfgen.Options{Compress: compress},
		pdfgen.Page{Font: "Helvetica", Lines: []string{"Quarterly report", "Revenue rose (a lot)."}},
		pdfgen.Page{Font: "Times-Roman", Lines: []string{"Second page in Times"}},
		pdfgen.Page{Font: "Courier", Lines: []string{"Third page: fixed width", "caf\xe9 na\xefve"}},
	)
}

func texts(r *pdftext.Result) []string {
	var out []string
	for _, p := range r.Pages {
		out = append(out, fmt.Sprintf("%d:%s", p.Number, p.Text))
	}
	return out
}

func TestExtractPages(t *testing.T) {
	all := []string{
		"1:Quarterly report\nRevenue rose (a lot).",
		"2:Second page in Times",
		"3:Third page: fixed width\ncafé naïve",
	}
	for _, compress := range []bool{false, true} {
		for _, tc := range []struct {
			pages string
			want  []string
		}{
			{"", all},
			{"2", all[1:2]},
			{"1-2", all[:2]},
			{"2-", all[1:]},
			{"2-9", all[1:]},
			{" 3 ", all[2:]},
		} {
			t.Run(fmt.Sprintf("compress=%v/pages=%q", compress, tc.pages), func(t *testing.T) {
				res, err := pdftext.Extract(context.Background(), threePages(compress), pdftext.Options{Pages: tc.pages})
				require.NoError(t, err)
				assert.Equal(t, 3, res.PageCount)
				assert.Equal(t, tc.want, texts(res))
				assert.False(t, res.Truncated)
			})
		}
	}
}

func TestExtractBadPages(t *testing.T) {
	for _, spec := range []string{"0", "a", "3-1", "-2", "1-x", "1--2"} {
		t.Run(spec, func(t *testing.T) {
			_, err := pdftext.Extract(context.Background(), threePages(false), pdftext.Options{Pages: spec})
			require.ErrorIs(t, err, pdftext.ErrPages)
		})
	}
	_, err := pdftext.Extract(context.Background(), threePages(false), pdftext.Options{Pages: "4"})
	require.ErrorIs(t, err, pdftext.ErrPages)
	assert.Contains(t, err.Error(), "page 4 is past the end (3 pages)")
}

func TestExtractMaxPages(t *testing.T) {
	res, err := pdftext.Extract(context.Background(), threePages(false), pdftext.Options{MaxPages: 2})
	require.NoError(t, err)
	assert.Len(t, res.Pages, 2)
	assert.True(t, res.Truncated)
	assert.Equal(t, `one call reads at most 2 pages; read on with pages="3-"`, res.Note)
}

func TestExtractImagePage(t *testing.T) {
	doc := pdfgen.Doc(pdfgen.Options{}, pdfgen.Page{Lines: []string{"cover"}}, pdfgen.Page{Image: true})
	res, err := pdftext.Extract(context.Background(), doc, pdftext.Options{})
	require.NoError(t, err)
	require.Len(t, res.Pages, 2)
	assert.Equal(t, "cover", res.Pages[0].Text)
	assert.Empty(t, res.Pages[1].Text)
	assert.Contains(t, res.Pages[1].Note, "the page is an image")
}

func TestExtractTextBudget(t *testing.T) {
	var pages []pdfgen.Page
	for i := 1; i <= 5; i++ {
		pages = append(pages, pdfgen.Page{Lines: []string{strings.Repeat(fmt.Sprint(i), 40)}})
	}
	res, err := pdftext.Extract(context.Background(), pdfgen.Doc(pdfgen.Options{}, pages...), pdftext.Options{MaxTextBytes: 100})
	require.NoError(t, err)
	assert.True(t, res.Truncated)
	assert.Len(t, res.Pages, 3)
	assert.Len(t, res.Pages[2].Text, 20)
	assert.Contains(t, res.Note, `stopped in page 3: one call returns at most 100 bytes of text; read on with pages="3-"`)

	res, err = pdftext.Extract(context.Background(), pdfgen.Doc(pdfgen.Options{}, pages...), pdftext.Options{Pages: "2-", MaxTextBytes: 10})
	require.NoError(t, err)
	assert.Equal(t, []string{"2:2222222222"}, texts(res))
	assert.Equal(t, "page 2 is longer than the 10 bytes of text one call returns and is cut", res.Note)
}

// hostile builds a PDF of the given object bodies with a correct xref.
func hostile(objs ...string) []byte { return pdfgen.Raw(objs...) }

func flate(s string) string {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, _ = w.Write([]byte(s))
	_ = w.Close()
	return fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes())
}

func TestExtractHostile(t *testing.T) {
	catalog := "<< /Type /Catalog /Pages 2 0 R >>"
	page := func(contents string) []string {
		return []string{catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", contents}
	}
	deep := strings.Repeat("[", 300_000)
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"not a PDF", []byte("hello"), pdftext.ErrNotPDF},
		{"empty", nil, pdftext.ErrNotPDF},
		{"header only", []byte("%PDF-1.4\n"), pdftext.ErrMalformed},
		{"truncated", threePages(true)[:400], nil},
		{"deep nesting in the file", hostile(catalog, "<< /Kids "+deep+" >>"), pdftext.ErrMalformed},
		{"deep nesting in a compressed page", hostile(page(flate("BT " + deep + " ET"))...), nil},
		{"huge object count", hostile(catalog, "<< /Size 999999999999 >>"), pdftext.ErrMalformed},
		{"page tree cycle", hostile(catalog, "<< /Type /Pages /Kids [2 0 R 2 0 R] /Count 2 >>"), pdftext.ErrMalformed},
		{"parent cycle", hostile(catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 4 0 R /Contents 5 0 R >>", "<< /Parent 3 0 R >>", "<< /Length 14 >>\nstream\nBT /F1 1 Tf ET\nendstream"), nil},
		{"self reference", hostile("1 0 R"), pdftext.ErrMalformed},
		{"unknown filter", hostile(page("<< /Length 3 /Filter /JBIG2Decode >>\nstream\nabc\nendstream")...), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := pdftext.Extract(context.Background(), tc.data, pdftext.Options{})
			if tc.want != nil {
				require.ErrorIs(t, err, tc.want)
				assert.Nil(t, res)
				return
			}
			// The file opens but a page cannot be read: a result whose
			// page says so, never a crash.
			if err != nil {
				assert.ErrorIs(t, err, pdftext.ErrMalformed)
				return
			}
			for _, p := range res.Pages {
				assert.Empty(t, p.Text)
				assert.NotEmpty(t, p.Note)
			}
		})
	}
}

// TestExtractRebuildsXref: a file whose cross-reference table is damaged
// is read by rebuilding the table from the objects, as viewers do.
func TestExtractRebuildsXref(t *testing.T) {
	for name, doc := range map[string][]byte{
		"bad xref offset":     bytes.Replace(threePages(false), []byte("startxref\n"), []byte("startxref\n9"), 1),
		"far xref subsection": bytes.Replace(threePages(false), []byte("xref\n0 "), []byte("xref\n900000000 "), 1),
		"no xref at all":      threePages(true)[:bytes.LastIndex(threePages(true), []byte("xref"))],
	} {
		t.Run(name, func(t *testing.T) {
			res, err := pdftext.Extract(context.Background(), doc, pdftext.Options{})
			require.NoError(t, err)
			assert.Equal(t, "2:Second page in Times", texts(res)[1])
		})
	}
}

func TestExtractDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := pdftext.Extract(ctx, threePages(true), pdftext.Options{})
	require.ErrorIs(t, err, pdftext.ErrTooMuchWork)
}

func TestExtractPDF2Header(t *testing.T) {
	doc := bytes.Replace(pdfgen.Text("version two"), []byte("%PDF-1.7"), []byte("%PDF-2.0"), 1)
	res, err := pdftext.Extract(context.Background(), doc, pdftext.Options{})
	require.NoError(t, err)
	assert.Equal(t, []string{"1:version two"}, texts(res))
}
