package pdfgen

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHostileShapes builds every shape, checks it is a small file and,
// with PDFGEN_OUT=DIR, writes each to DIR/SHAPE.pdf (to try them on other
// readers, or on an older build: internal/memcheck/pdfload).
func TestHostileShapes(t *testing.T) {
	out := os.Getenv("PDFGEN_OUT")
	for _, h := range HostileShapes() {
		doc := h.PDF()
		t.Logf("%s: %d bytes", h, len(doc))
		if len(doc) > 4<<20 {
			t.Errorf("%s is %d bytes: a hostile shape is a small file", h, len(doc))
		}
		if out != "" {
			if err := os.WriteFile(filepath.Join(out, string(h)+".pdf"), doc, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
