package pdfobj

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
)

// TestLZWOfPdfgen: what pdfgen.LZW writes (the hostile lzw-table shape's
// stream, and fuzz seeds) is LZW this reader decodes: table resets and
// code width changes included.
func TestLZWOfPdfgen(t *testing.T) {
	for _, in := range []string{"", "a", "-----A---B", strings.Repeat("a", 20<<10), strings.Repeat("the quick brown fox ", 5000)} {
		got, err := decode(t, pdfgen.LZW([]byte(in)), Dict{"Filter": Name("LZWDecode")})
		require.NoError(t, err)
		require.Equal(t, len(in), len(got))
		require.Equal(t, in, string(got))
	}
}
