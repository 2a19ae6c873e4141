package attachment_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Test files are generated, never committed: a minimal valid PDF padded to
// a size, a PNG, random bytes.

// makePDF returns a valid one-page PDF of exactly size bytes (at least
// ~500): the page says text, and an unreferenced binary stream pads it.
func makePDF(t testing.TB, text string, size int) []byte {
	t.Helper()
	pad := max(0, size-600)
	for range 5 {
		b := buildPDF(text, randomBytes(int64(size), pad))
		if len(b) == size || len(b) > size && pad == 0 {
			return b
		}
		pad = max(0, pad+size-len(b))
	}
	t.Fatalf("makePDF: cannot reach %d bytes", size)
	return nil
}

func buildPDF(text string, filler []byte) []byte {
	var b bytes.Buffer
	var offsets []int
	obj := func(body string) {
		offsets = append(offsets, b.Len())
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(offsets), body)
	}
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R " +
		"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>")
	content := fmt.Sprintf("BT /F1 18 Tf 20 70 Td (%s) Tj ET", text)
	obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
	offsets = append(offsets, b.Len())
	fmt.Fprintf(&b, "%d 0 obj\n<< /Length %d >>\nstream\n", len(offsets), len(filler))
	b.Write(filler)
	b.WriteString("\nendstream\nendobj\n")
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offsets)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offsets)+1, xref)
	return b.Bytes()
}

// makePNG returns a w×h PNG with a gradient, deterministic.
func makePNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 255 / max(1, w-1)), uint8(y * 255 / max(1, h-1)), 128, 255})
		}
	}
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// randomBytes returns n pseudo-random bytes from seed: incompressible,
// reproducible.
func randomBytes(seed int64, n int) []byte {
	r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(r.Uint32())
	}
	return out
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
