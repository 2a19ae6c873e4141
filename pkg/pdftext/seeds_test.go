package pdftext

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/costcheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// Seeds for the fuzz targets: the real-world PDFs the repository carries
// (the corpus internal/pdfscore scores on, qpdf's variants, Chromium's
// right-to-left page), what their pages hold (content streams, ToUnicode
// CMaps, strings shown), and the hostile shapes of issues 18 and 26.

// SeedPDFs are the real-world PDFs, smallest first.
func SeedPDFs(tb testing.TB) [][]byte {
	tb.Helper()
	if !costcheck.Seeding() {
		return nil
	}
	var out [][]byte
	for _, pattern := range []string{"../../internal/pdfscore/testdata/corpus/*.pdf", "testdata/*.pdf", "internal/pdfobj/testdata/*.pdf"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, data)
		}
	}
	if len(out) < 20 {
		tb.Fatalf("%d real PDFs: the seed corpus is missing", len(out))
	}
	slices.SortStableFunc(out, func(a, b []byte) int { return len(a) - len(b) })
	return out
}

// Parts is what the real PDFs' first pages hold: their content streams
// and their fonts' ToUnicode CMaps (decoded, each at most 64 KiB).
type Parts struct {
	Contents, CMaps [][]byte
}

// SeedParts returns the parts of the real PDFs.
func SeedParts(tb testing.TB) Parts {
	tb.Helper()
	var p Parts
	if !costcheck.Seeding() {
		return p
	}
	for _, data := range SeedPDFs(tb) {
		d, err := pdfobj.Open(data, pdfobj.Options{})
		if err != nil {
			continue
		}
		pages, _, err := d.Pages(2)
		if err != nil {
			continue
		}
		for _, pg := range pages {
			if s := d.GetStream(pg.Dict, "Contents"); s != nil {
				if b, err := d.StreamBytes(s, 64<<10); err == nil {
					p.Contents = append(p.Contents, b)
				}
			}
			fonts := d.GetDict(pg.Resources, "Font")
			for k := range fonts {
				if s := d.GetStream(d.GetDict(fonts, k), "ToUnicode"); s != nil && len(p.CMaps) < 24 {
					if b, err := d.StreamBytes(s, 64<<10); err == nil {
						p.CMaps = append(p.CMaps, b)
					}
				}
			}
		}
	}
	return p
}
