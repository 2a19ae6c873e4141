package pdftext

import (
	"math/rand/v2"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/require"
)

// TestUTF16Text: CMap destinations decode as utf16.Decode decodes them
// (pairs, lone surrogates as U+FFFD, odd lengths as single bytes).
func TestUTF16Text(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 26))
	for range 20000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
			if r.IntN(3) == 0 {
				b[i] = 0xD8 + byte(r.IntN(8)) // surrogates, often
			}
		}
		var want string
		if len(b)%2 == 1 {
			rs := make([]rune, len(b))
			for i, c := range b {
				rs[i] = rune(c)
			}
			want = string(rs)
		} else {
			u := make([]uint16, len(b)/2)
			for i := range u {
				u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
			}
			want = string(utf16.Decode(u))
		}
		require.Equal(t, want, utf16Text(b), "% x", b)
	}
}
