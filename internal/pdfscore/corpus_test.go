package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// TestCorpus holds pkg/pdftext to the issue 28 targets on the part of the
// corpus the repository carries (testdata/corpus: PDFs made by
// scripts/pdf-corpus from the project's own sources with LuaTeX, XeTeX,
// groff, enscript and Ghostscript, LibreOffice, Chromium, cairo, ReportLab
// and qpdf's variants, RC4-40 to AES-256 included; each .txt is
// pdftotext's text of its PDF): micro recall and precision at least 0.99,
// no file below 0.95, no error, no ligature character left.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/corpus/*.pdf")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 15)
	var total score
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			ref, err := os.ReadFile(strings.TrimSuffix(f, ".pdf") + ".txt")
			require.NoError(t, err)
			res, err := pdftext.Extract(context.Background(), data, pdftext.Options{})
			require.NoError(t, err, "a file that opens with the empty password reads without error")
			pages := strings.Split(string(ref), "\f")
			var s score
			for _, p := range res.Pages {
				require.Less(t, p.Number-1, len(pages))
				s.add(compare(pages[p.Number-1], unmark(p.Text)))
			}
			t.Logf("recall %.3f precision %.3f glued %d split %d", s.recall(), s.precision(), s.glued, s.split)
			assert.GreaterOrEqual(t, s.recall(), 0.95)
			assert.GreaterOrEqual(t, s.precision(), 0.95)
			assert.Zero(t, s.ligatures)
			total.merge(s)
		})
	}
	t.Logf("micro recall %.4f precision %.4f", total.recall(), total.precision())
	assert.GreaterOrEqual(t, total.recall(), 0.99)
	assert.GreaterOrEqual(t, total.precision(), 0.99)
}
