package pdfobj

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/ascii85"
	"encoding/hex"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decode runs raw through the filters and parameters of dict.
func decode(t testing.TB, raw []byte, dict Dict) ([]byte, error) {
	t.Helper()
	d := &Doc{data: raw}
	r, err := d.StreamReader(&Stream{Dict: dict, Len: int64(len(raw))})
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

func preds(p, colors, bits, columns int64) Dict {
	return Dict{"Predictor": p, "Colors": colors, "BitsPerComponent": bits, "Columns": columns}
}

// TestFiltersGhostscript: every filter and predictor decodes what
// Ghostscript's PostScript encoders wrote (testdata/make.sh): the PNG
// predictors 10-15 (one row filter each: None, Sub, Up, Average, Paeth),
// 16-bit samples, TIFF's predictor 2 over three colours, LZW with and
// without early change across table resets, run length, ASCII85, hex.
func TestFiltersGhostscript(t *testing.T) {
	short, long := readFile(t, "filter-short.txt"), readFile(t, "filter-long.txt")
	for _, tc := range []struct {
		file   string
		filter Name
		parms  Dict
		want   []byte
	}{
		{"filter.ahx", "ASCIIHexDecode", nil, short},
		{"filter.a85", "ASCII85Decode", nil, short},
		{"filter.rl", "RunLengthDecode", nil, short},
		{"filter.lzw", "LZWDecode", nil, long},
		{"filter-early0.lzw", "LZWDecode", Dict{"EarlyChange": int64(0)}, long},
		{"filter-tiff2.lzw", "LZWDecode", preds(2, 3, 8, 11), short},
		{"filter-png10.fl", "FlateDecode", preds(10, 3, 8, 11), short},
		{"filter-png11.fl", "FlateDecode", preds(11, 3, 8, 11), short},
		{"filter-png12.fl", "FlateDecode", preds(12, 3, 8, 11), short},
		{"filter-png13.fl", "FlateDecode", preds(13, 3, 8, 11), short},
		{"filter-png14.fl", "FlateDecode", preds(14, 3, 8, 11), short},
		{"filter-png15.fl", "FlateDecode", preds(15, 3, 8, 11), short},
		{"filter-png12-16bit.fl", "FlateDecode", preds(12, 1, 16, 5), short},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dict := Dict{"Filter": tc.filter}
			if tc.parms != nil {
				dict["DecodeParms"] = tc.parms
			}
			got, err := decode(t, readFile(t, tc.file), dict)
			require.NoError(t, err)
			assert.Equal(t, string(tc.want), string(got))
		})
	}
}

// TestFilterChains: filters apply in order, each with its own
// parameters; the abbreviations of inline images work in streams too.
func TestFilterChains(t *testing.T) {
	short := readFile(t, "filter-short.txt")
	png := readFile(t, "filter-png14.fl")
	hexed := []byte(hex.EncodeToString(png) + ">")
	got, err := decode(t, hexed, Dict{"Filter": Array{Name("AHx"), Name("Fl")}, "DecodeParms": Array{nil, preds(14, 3, 8, 11)}})
	require.NoError(t, err)
	assert.Equal(t, string(short), string(got))

	var a85 bytes.Buffer
	w := ascii85.NewEncoder(&a85)
	_, _ = w.Write(readFile(t, "filter.lzw"))
	_ = w.Close()
	a85.WriteString("~>")
	got, err = decode(t, a85.Bytes(), Dict{"Filter": Array{Name("A85"), Name("LZW")}})
	require.NoError(t, err)
	assert.Equal(t, string(readFile(t, "filter-long.txt")), string(got))
}

func zlibOf(b []byte) []byte {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, _ = w.Write(b)
	_ = w.Close()
	return z.Bytes()
}

// TestFilterEdges: what real writers get wrong decodes as other readers
// decode it; what nothing decodes is an error that says so.
func TestFilterEdges(t *testing.T) {
	text := bytes.Repeat([]byte("flate data "), 100)
	var raw bytes.Buffer
	fw, _ := flate.NewWriter(&raw, flate.DefaultCompression)
	_, _ = fw.Write(text)
	_ = fw.Close()
	badSum := zlibOf(text)
	badSum[len(badSum)-1] ^= 0xff
	for _, tc := range []struct {
		name   string
		raw    []byte
		filter Object
		want   string
	}{
		// PDF 32000-2 §7.4.4.2's example of LZW with early change.
		{"LZW, the spec's example", []byte{0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01}, Name("LZWDecode"), "-----A---B"},
		{"flate without a zlib header", raw.Bytes(), Name("FlateDecode"), string(text)},
		{"flate with a wrong checksum", badSum, Name("FlateDecode"), string(text)},
		{"flate cut short: what decoded", zlibOf(text)[:40], Name("FlateDecode"), ""},
		{"hex: white space, an odd digit, no end", []byte("4 1\n4"), Name("ASCIIHexDecode"), "A@"},
		{"hex: data after the end is not read", []byte("41>42"), Name("ASCIIHexDecode"), "A"},
		{"ASCII85: z, white space, the end", []byte("z 87cU\nRD]~>garbage"), Name("ASCII85Decode"), "\x00\x00\x00\x00Hello"},
		{"run length: a run, literals, the end", []byte{0xFD, 'x', 1, 'a', 'b', 128, 'z'}, Name("RunLengthDecode"), "xxxxab"},
		{"run length cut short", []byte{5, 'a', 'b'}, Name("RunLengthDecode"), "ab"},
		{"no filter", []byte("as is"), nil, "as is"},
		{"the identity crypt filter", []byte("as is"), Name("Crypt"), "as is"},
		{"a null in the list", []byte("as is"), Array{nil}, "as is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decode(t, tc.raw, Dict{"Filter": tc.filter})
			require.NoError(t, err)
			if tc.name == "flate cut short: what decoded" {
				assert.True(t, bytes.HasPrefix(text, got), "a prefix of the text, %d bytes", len(got))
				return
			}
			assert.Equal(t, tc.want, string(got))
		})
	}
	for _, tc := range []struct {
		name   string
		dict   Dict
		want   error
		substr string
	}{
		{"an image filter", Dict{"Filter": Name("DCTDecode")}, ErrImage, "DCTDecode"},
		{"JBIG2 in a chain", Dict{"Filter": Array{Name("FlateDecode"), Name("JBIG2Decode")}}, ErrImage, "JBIG2Decode"},
		{"an unknown filter", Dict{"Filter": Name("Rot13Decode")}, ErrMalformed, `unknown filter "Rot13Decode"`},
		{"absurd predictor columns", Dict{"Filter": Name("FlateDecode"), "DecodeParms": preds(12, 1, 8, 1<<30)}, ErrLimit, "predictor rows of 1073741824 bytes"},
		{"absurd predictor colours", Dict{"Filter": Name("FlateDecode"), "DecodeParms": preds(12, 99, 8, 4)}, ErrMalformed, "predictor parameters"},
		{"predictor components of 3 bits", Dict{"Filter": Name("FlateDecode"), "DecodeParms": preds(12, 1, 3, 4)}, ErrMalformed, "predictor parameters"},
		// Issue 26: what PDF 32000-2 allows is a 64 MiB row, allocated
		// twice before a byte was read.
		{"predictor rows of 64 MiB", Dict{"Filter": Name("FlateDecode"), "DecodeParms": preds(12, 32, 16, 1<<20)}, ErrLimit,
			"predictor rows of 67108864 bytes (32 colours of 16 bits, 1048576 columns), over the 65536 bytes this reader decodes"},
		{"five filters", Dict{"Filter": Array{Name("AHx"), Name("AHx"), Name("AHx"), Name("AHx"), Name("AHx")}}, ErrLimit,
			"a stream through 5 filters, over the 4 this reader decodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decode(t, zlibOf([]byte("x")), tc.dict)
			require.ErrorIs(t, err, tc.want)
			assert.Contains(t, err.Error(), tc.substr)
		})
	}
	t.Run("rows of 64 KiB: decoded", func(t *testing.T) {
		got, err := decode(t, zlibOf(append([]byte{2}, "row"...)), Dict{"Filter": Name("FlateDecode"), "DecodeParms": preds(12, 1, 8, 64<<10)})
		require.NoError(t, err)
		assert.Equal(t, "row", string(got))
	})
	t.Run("four filters: decoded", func(t *testing.T) {
		data := []byte("deep")
		for range 4 {
			data = []byte(hex.EncodeToString(data))
		}
		got, err := decode(t, data,
			Dict{"Filter": Array{Name("AHx"), Name("AHx"), Name("AHx"), Name("AHx")}})
		require.NoError(t, err)
		assert.Equal(t, "deep", string(got))
	})
	t.Run("TIFF predictor on 16-bit samples: left as is", func(t *testing.T) {
		got, err := decode(t, zlibOf([]byte("abcd")), Dict{"Filter": Name("FlateDecode"), "DecodeParms": preds(2, 1, 16, 2)})
		require.NoError(t, err)
		assert.Equal(t, "abcd", string(got))
	})
}

// TestStreamBytesLimit: a stream that decodes past the limit is an
// ErrLimit, not a truncated value.
func TestStreamBytesLimit(t *testing.T) {
	raw := zlibOf(bytes.Repeat([]byte("x"), 10_000))
	d := &Doc{data: raw}
	s := &Stream{Dict: Dict{"Filter": Name("FlateDecode")}, Len: int64(len(raw))}
	_, err := d.StreamBytes(s, 9_999)
	require.ErrorIs(t, err, ErrLimit)
	got, err := d.StreamBytes(s, 10_000)
	require.NoError(t, err)
	assert.Len(t, got, 10_000)
	_, err = d.StreamReader(nil)
	require.ErrorIs(t, err, ErrMalformed)
}

// TestInflaterReuse: a released reader's Flate decoder serves the next
// stream, zlib or raw deflate alike, nested or not, and decodes it whole.
func TestInflaterReuse(t *testing.T) {
	texts := []string{"first stream", "second, raw deflate", "third"}
	var raw bytes.Buffer
	fw, _ := flate.NewWriter(&raw, flate.BestSpeed)
	_, _ = fw.Write([]byte(texts[1]))
	_ = fw.Close()
	encoded := [][]byte{zlibOf([]byte(texts[0])), raw.Bytes(), zlibOf([]byte(texts[2]))}
	d := &Doc{}
	open := func(i int) io.Reader {
		d.data = encoded[i]
		r, err := d.StreamReader(&Stream{Dict: Dict{"Filter": Name("FlateDecode")}, Len: int64(len(encoded[i]))})
		require.NoError(t, err)
		return r
	}
	for round := range 3 {
		for i, want := range texts {
			r := open(i)
			got, err := io.ReadAll(r)
			require.NoError(t, err)
			assert.Equal(t, want, string(got), "round %d", round)
			d.Release(r)
			assert.Len(t, d.idle, 1, "one decoder, kept")
		}
	}
	// Two open at once (a form inside a page): two decoders, both kept.
	outer := open(0)
	inner := open(2)
	assert.Empty(t, d.idle)
	got, _ := io.ReadAll(inner)
	assert.Equal(t, texts[2], string(got))
	d.Release(inner)
	got, _ = io.ReadAll(outer)
	assert.Equal(t, texts[0], string(got))
	d.Release(outer)
	assert.Len(t, d.idle, 2)
	got, _ = io.ReadAll(outer)
	assert.Empty(t, got, "a released reader reads nothing")
}
