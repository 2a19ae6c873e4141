package pdfobj

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
)

// FuzzLexer: whatever the bytes, the lexer ends, and a stream read one
// byte at a time lexes exactly as the whole slice does (so a content
// stream's tokens do not depend on where its decoder's reads end).
func FuzzLexer(f *testing.F) {
	for _, tc := range lexCases {
		f.Add([]byte(tc.in))
	}
	f.Add(readFile(f, "table.pdf"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		want, wantOff := lexAll(NewLexer(data, 0))
		got, gotOff := lexAll(NewStreamLexer(iotest.OneByteReader(strings.NewReader(string(data)))))
		if !slices.Equal(want, got) || !slices.Equal(wantOff, gotOff) {
			t.Fatalf("slice: %q at %v\nstream: %q at %v", want, wantOff, got, gotOff)
		}
	})
}

// FuzzOpen: whatever the bytes, Open returns a document or an error, and
// every object, page and stream of a document it opens can be read, all
// within the bounds (a spent budget is a Stop, the way the object API
// reports it), without any other panic.
func FuzzOpen(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.pdf"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(pdfgen.PrevLoop.PDF())
	f.Add(pdfgen.Doc(pdfgen.Options{Compress: true}, pdfgen.Page{Lines: []string{"fuzz"}}, pdfgen.Page{Image: true}))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func() {
			if r := recover(); r != nil {
				if s, ok := r.(Stop); !ok || !errors.Is(s, ErrLimit) {
					panic(r)
				}
			}
		}()
		d, err := Open(data, Options{Memory: NewBudget(4 << 20), MaxDecoded: 1 << 20})
		if err != nil {
			if d != nil {
				t.Fatal("a document and an error")
			}
			return
		}
		for num := range min(len(d.xref), 1<<12) {
			if s, ok := d.Resolve(Ref{Num: num}).(*Stream); ok {
				_, _ = d.StreamBytes(s, 1<<16)
			}
		}
		pages, _, err := d.Pages(64)
		if err != nil {
			return
		}
		for _, p := range pages {
			if s := d.GetStream(p.Dict, "Contents"); s != nil {
				_, _ = d.StreamBytes(s, 1<<16)
			}
		}
	})
}
