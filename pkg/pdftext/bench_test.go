package pdftext_test

import (
	"context"
	"testing"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// BenchmarkExtract10MiB measures one extraction of every page of a 10 MiB
// PDF (the text budget stops it early, as in a tool call) and of all of it
// with an unlimited budget. Peak RSS: run the test binary under
// /usr/bin/time -v (docs in the report).
func BenchmarkExtract10MiB(b *testing.B) {
	doc := pdfgen.TenMiB()
	for _, tc := range []struct {
		name string
		opt  pdftext.Options
	}{
		{"default budget", pdftext.Options{}},
		{"all pages", pdftext.Options{MaxTextBytes: 1 << 30}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				res, err := pdftext.Extract(context.Background(), doc, tc.opt)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(res.Pages)), "pages")
			}
		})
	}
}

func TestTenMiB(t *testing.T) {
	doc := pdfgen.TenMiB()
	if len(doc) < 10<<20 {
		t.Fatalf("%d bytes", len(doc))
	}
	res, err := pdftext.Extract(context.Background(), doc, pdftext.Options{Pages: "499-500"})
	if err != nil {
		t.Fatal(err)
	}
	if res.PageCount != 500 || len(res.Pages) != 2 || res.Pages[1].Note == "" || res.Pages[0].Text == "" {
		t.Fatalf("%+v", res)
	}
}

// BenchmarkBombs measures one extraction of each PDF bomb of security
// issue 18 (TestBombs asserts the work it takes; this says what it costs).
func BenchmarkBombs(b *testing.B) {
	for _, bomb := range pdfgen.Bombs() {
		doc := bomb.PDF()
		b.Run(string(bomb), func(b *testing.B) {
			for b.Loop() {
				if _, err := pdftext.Extract(context.Background(), doc, pdftext.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
