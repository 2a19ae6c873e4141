package pdfobj

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
)

// What testdata/make.sh's source PDF holds, whatever qpdf made of it.
const (
	pageOne = `BT /F1 12 Tf 72 720 Td (Page one: plain text \(with parentheses\)) Tj ET`
	pageTwo = "BT /F1 12 Tf 72 720 Td (Page two,) Tj\n( in two streams) Tj ET"
	title   = "Secret title"
)

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

func open(t testing.TB, data []byte) *Doc {
	t.Helper()
	d, err := Open(data, Options{})
	require.NoError(t, err)
	return d
}

// contents is each page's decoded content, its streams joined by a line
// feed.
func contents(t testing.TB, d *Doc) []string {
	t.Helper()
	pages, more, err := d.Pages(0)
	require.NoError(t, err)
	assert.False(t, more)
	var out []string
	for _, p := range pages {
		var streams []*Stream
		switch c := d.Get(p.Dict, "Contents").(type) {
		case *Stream:
			streams = append(streams, c)
		case Array:
			for _, o := range c {
				s, ok := d.Resolve(o).(*Stream)
				require.True(t, ok, "a content stream")
				streams = append(streams, s)
			}
		}
		var parts []string
		for _, s := range streams {
			b, err := d.StreamBytes(s, 1<<20)
			require.NoError(t, err)
			parts = append(parts, strings.TrimSpace(string(b)))
		}
		out = append(out, strings.Join(parts, "\n"))
	}
	return out
}

// infoTitle is the document's /Title: a string every security handler
// encrypts.
func infoTitle(d *Doc) String {
	t, _ := d.Get(d.Dict(d.Trailer["Info"]), "Title").(String)
	return t
}

// TestOpenQpdf reads every variant qpdf made of one source (testdata/
// make.sh): a classic table, object and cross-reference streams (Flate
// with the PNG Up predictor), linearized (two sections), and the standard
// security handler's revisions with the empty user password. Each must
// give back the source's pages and its encrypted title.
func TestOpenQpdf(t *testing.T) {
	for _, tc := range []struct {
		file      string
		sections  int
		encrypted bool
		inObjStm  bool // some objects live in object streams
	}{
		{"table.pdf", 1, false, false},
		{"objstm.pdf", 1, false, true},
		{"linearized.pdf", 2, false, false},
		{"r2-rc4-40.pdf", 1, true, false},
		{"r3-rc4-128.pdf", 1, true, false},
		{"r4-rc4-128.pdf", 1, true, false},
		{"r4-aes-128.pdf", 1, true, false},
		{"r5-aes-256.pdf", 1, true, false},
		{"r6-aes-256.pdf", 1, true, false},
		{"r6-aes-256-objstm.pdf", 1, true, true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d := open(t, readFile(t, tc.file))
			assert.Equal(t, []string{pageOne, pageTwo}, contents(t, d))
			assert.Equal(t, String(title), infoTitle(d))
			n, loop := d.Sections()
			assert.Equal(t, tc.sections, n)
			assert.False(t, loop)
			assert.Equal(t, tc.encrypted, d.crypt != nil)
			assert.False(t, d.rebuilt)
			compressed := 0
			for _, e := range d.xref {
				if e.kind == 2 {
					compressed++
				}
			}
			assert.Equal(t, tc.inObjStm, compressed > 0, "%d objects in object streams", compressed)
			// Every page inherits the font from the page tree.
			pages, _, err := d.Pages(0)
			require.NoError(t, err)
			for _, p := range pages {
				assert.NotNil(t, d.GetDict(d.GetDict(p.Resources, "Font"), "F1"))
			}
		})
	}
}

func TestPagesWant(t *testing.T) {
	d := open(t, readFile(t, "table.pdf"))
	pages, more, err := d.Pages(1)
	require.NoError(t, err)
	assert.Len(t, pages, 1)
	assert.True(t, more)
}

// TestStreamLength: a stream's data ends at /Length when "endstream"
// follows it there; otherwise (a wrong, missing or self-referring length)
// at the "endstream" found.
func TestStreamLength(t *testing.T) {
	for _, tc := range []struct{ name, obj, extra string }{
		{"a direct length", "<< /Length 5 >>\nstream\nHELLO\nendstream", ""},
		{"a length by reference", "<< /Length 5 0 R >>\nstream\nHELLO\nendstream", "5"},
		{"a length too long", "<< /Length 999 >>\nstream\nHELLO\nendstream", ""},
		{"a length too short", "<< /Length 2 >>\nstream\nHELLO\nendstream", ""},
		{"no length", "<< >>\nstream\nHELLO\r\nendstream", ""},
		{"a length that is its own stream", "<< /Length 4 0 R >>\nstream\nHELLO\nendstream", ""},
		{"CR LF after the keyword", "<< /Length 5 >>\nstream\r\nHELLO\r\nendstream", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
				"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", tc.obj}
			if tc.extra != "" {
				objs = append(objs, tc.extra)
			}
			assert.Equal(t, []string{"HELLO"}, contents(t, open(t, pdfgen.Raw(objs...))))
		})
	}
	t.Run("no endstream: the data runs to the end", func(t *testing.T) {
		data := pdfgen.Raw("<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", "<< /Length 99 >>\nstream\nHELLO")
		got := contents(t, open(t, data))
		require.Len(t, got, 1)
		assert.True(t, strings.HasPrefix(got[0], "HELLO\nendobj"), got[0])
	})
}
