package pdftext_test

import (
	"context"
	"testing"
	"time"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext"
)

// FuzzExtract: whatever the bytes and page range, Extract returns a
// result or an error, without panicking. (It returns by its deadline by
// construction: the caller waits on the deadline, not on the work.)
func FuzzExtract(f *testing.F) {
	f.Add(threePages(false), "")
	f.Add(threePages(true), "2-3")
	f.Add(pdfgen.Doc(pdfgen.Options{}, pdfgen.Page{Image: true}), "1")
	f.Add(hostile("<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [2 0 R] /Count 1 >>"), "")
	f.Add([]byte("%PDF-1.4\n1 0 obj\n<< [[[[ >>\nendobj\n"), "1-")
	f.Add(type0(cmapHead+"1 beginbfrange <0010> <0012> <03B1> endbfrange\n"+cmapTail, "BT /F1 12 Tf <0010> Tj ET"), "1")
	f.Fuzz(func(t *testing.T, data []byte, pages string) {
		res, err := pdftext.Extract(context.Background(), data, pdftext.Options{Pages: pages, Timeout: time.Second})
		if err == nil && res == nil {
			t.Fatal("no result and no error")
		}
	})
}
