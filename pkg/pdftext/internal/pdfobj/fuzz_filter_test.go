package pdfobj

import (
	"bytes"
	"encoding/ascii85"
	"encoding/hex"
	"io"
	"testing"
	"testing/iotest"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/pdfgen"
)

// The decoders of stream data, and decryption: whatever the bytes, each
// decodes within the budget and the ceiling of one input, and what an
// encoder wrote decodes back to what it was given.

// decodeAll runs raw through the filters and parameters of dict, reading
// at most 4 MiB of output through small reads, within a budget.
func decodeAll(t *testing.T, raw []byte, dict Dict) (out []byte, err error) {
	d := &Doc{data: raw, mem: NewBudget(budget), opt: Options{Check: func() {}}}
	r, err := d.StreamReader(&Stream{Dict: dict, Len: int64(len(raw))})
	if err != nil {
		return nil, err
	}
	defer d.Release(r)
	out, err = io.ReadAll(io.LimitReader(iotest.HalfReader(r), 4<<20))
	if d.mem.Peak() > budget {
		t.Fatalf("held %d bytes, over the budget", d.mem.Peak())
	}
	return out, err
}

// filterSeeds adds Ghostscript's encodings of the testdata and the real
// PDFs' streams in filter name.
func filterSeeds(f *testing.F, name Name, files ...string) {
	for _, file := range files {
		f.Add(readFile(f, file))
	}
	for _, s := range rawStreams(f, name, 8) {
		f.Add(s.data)
	}
}

// FuzzFlate: any bytes inflate (zlib, or raw deflate) within bounds; what
// zlib wrote inflates back.
func FuzzFlate(f *testing.F) {
	filterSeeds(f, "FlateDecode", "filter-png10.fl", "filter-png12-16bit.fl")
	f.Add(zlibOf([]byte("BT /F1 12 Tf (Hello) Tj ET")))
	f.Fuzz(func(t *testing.T, data []byte) {
		within(t, func() {
			_, _ = decodeAll(t, data, Dict{"Filter": Name("FlateDecode")})
			if got, err := decodeAll(t, zlibOf(data), Dict{"Filter": Name("FlateDecode")}); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("zlib's output of %d bytes decodes to %d bytes (%v)", len(data), len(got), err)
			}
		})
	})
}

// FuzzLZW: any bytes decode as LZW (with and without early change); what
// pdfgen.LZW wrote decodes back.
func FuzzLZW(f *testing.F) {
	filterSeeds(f, "LZWDecode", "filter.lzw", "filter-early0.lzw", "filter-tiff2.lzw")
	f.Add([]byte{0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		within(t, func() {
			_, _ = decodeAll(t, data, Dict{"Filter": Name("LZWDecode")})
			_, _ = decodeAll(t, data, Dict{"Filter": Name("LZWDecode"), "DecodeParms": Dict{"EarlyChange": int64(0)}})
			if len(data) > 16<<10 {
				return // enough for table resets; more is slow under the fuzzer's instrumentation
			}
			if got, err := decodeAll(t, pdfgen.LZW(data), Dict{"Filter": Name("LZWDecode")}); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("LZW of %d bytes decodes to %d bytes (%v)", len(data), len(got), err)
			}
		})
	})
}

// FuzzASCII85: any bytes decode as ASCII85; what encoding/ascii85 wrote
// (with its end marker) decodes back.
func FuzzASCII85(f *testing.F) {
	filterSeeds(f, "ASCII85Decode", "filter.a85")
	f.Add([]byte("z 87cU\nRD]~>garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		within(t, func() {
			_, _ = decodeAll(t, data, Dict{"Filter": Name("ASCII85Decode")})
			enc := make([]byte, ascii85.MaxEncodedLen(len(data)))
			enc = append(enc[:ascii85.Encode(enc, data)], "~>"...)
			if got, err := decodeAll(t, enc, Dict{"Filter": Name("A85")}); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("ASCII85 of %d bytes decodes to %d bytes (%v)", len(data), len(got), err)
			}
		})
	})
}

// FuzzASCIIHex: any bytes decode as hex; hex of any bytes decodes back.
func FuzzASCIIHex(f *testing.F) {
	filterSeeds(f, "ASCIIHexDecode", "filter.ahx")
	f.Add([]byte("4 1\n4"))
	f.Fuzz(func(t *testing.T, data []byte) {
		within(t, func() {
			_, _ = decodeAll(t, data, Dict{"Filter": Name("ASCIIHexDecode")})
			if got, err := decodeAll(t, []byte(hex.EncodeToString(data)+">"), Dict{"Filter": Name("AHx")}); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("hex of %d bytes decodes to %d bytes (%v)", len(data), len(got), err)
			}
		})
	})
}

// FuzzRunLength: any bytes decode as run-length data; literal runs of any
// bytes decode back.
func FuzzRunLength(f *testing.F) {
	filterSeeds(f, "RunLengthDecode", "filter.rl")
	f.Add([]byte{0xFD, 'x', 1, 'a', 'b', 128, 'z'})
	f.Fuzz(func(t *testing.T, data []byte) {
		within(t, func() {
			_, _ = decodeAll(t, data, Dict{"Filter": Name("RunLengthDecode")})
			var enc []byte
			for rest := data; len(rest) > 0; {
				n := min(len(rest), 128)
				enc = append(append(enc, byte(n-1)), rest[:n]...)
				rest = rest[n:]
			}
			if got, err := decodeAll(t, append(enc, 128), Dict{"Filter": Name("RL")}); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("runs of %d bytes decode to %d bytes (%v)", len(data), len(got), err)
			}
		})
	})
}

// FuzzPredictor: whatever a predictor's parameters (PNG 10-15, TIFF 2,
// colours, bits, columns) and rows, they decode within bounds: rows over
// 64 KiB are refused before anything is allocated.
func FuzzPredictor(f *testing.F) {
	for _, s := range rawStreams(f, "FlateDecode", 40) {
		if p, _ := s.parms["Predictor"].(int64); p > 1 {
			c, _ := s.parms["Columns"].(int64)
			f.Add(p, int64(1), int64(8), c, s.data)
		}
	}
	for _, file := range []string{"filter-png11.fl", "filter-png14.fl", "filter-png15.fl"} {
		f.Add(int64(11), int64(3), int64(8), int64(11), readFile(f, file))
	}
	f.Add(int64(12), int64(32), int64(16), int64(1<<20), zlibOf([]byte{0, 1, 2}))
	f.Add(int64(2), int64(3), int64(8), int64(11), zlibOf([]byte("abcdefghijk")))
	f.Fuzz(func(t *testing.T, pred, colors, bits, columns int64, data []byte) {
		within(t, func() {
			parms := Dict{"Predictor": pred, "Colors": colors, "BitsPerComponent": bits, "Columns": columns}
			_, _ = decodeAll(t, data, Dict{"Filter": Name("FlateDecode"), "DecodeParms": parms})
			// The predictor alone, over the raw bytes.
			d := &Doc{mem: NewBudget(budget)}
			dec := &decoded{}
			if r, err := d.predictor(bytes.NewReader(data), parms, dec); err == nil {
				_, _ = io.Copy(io.Discard, io.LimitReader(r, 4<<20))
			}
			d.Release(dec)
		})
	})
}

// FuzzDecrypt: whatever an encryption dictionary says (revisions 2 to 6,
// /O, /U, /OE, /UE, /Perms of any length, key lengths, crypt filters),
// the key is worked out or refused, and a string and a stream decrypt
// within bounds; a stream decrypted as it is read is what decrypting it
// whole gives.
func FuzzDecrypt(f *testing.F) {
	for _, file := range []string{"r2-rc4-40.pdf", "r3-rc4-128.pdf", "r4-rc4-128.pdf", "r4-aes-128.pdf", "r5-aes-256.pdf", "r6-aes-256.pdf", "r6-aes-256-objstm.pdf"} {
		d := open(f, readFile(f, file))
		enc, _ := d.Resolve(d.Trailer["Encrypt"]).(Dict)
		str := func(k Name) []byte { s, _ := d.Resolve(enc[k]).(String); return []byte(s) }
		num := func(k Name) int64 { n, _ := d.Resolve(enc[k]).(int64); return n }
		ids, _ := d.Resolve(d.Trailer["ID"]).(Array)
		id, _ := d.Resolve(ids.At(0)).(String)
		cfm := "V2"
		if cf, ok := d.Resolve(enc["CF"]).(Dict); ok {
			if std, ok := d.Resolve(cf["StdCF"]).(Dict); ok {
				n, _ := std["CFM"].(Name)
				cfm = string(n)
			}
		}
		f.Add(num("V"), num("R"), num("Length"), num("P"), str("O"), str("U"), str("OE"), str("UE"), str("Perms"), []byte(id), cfm, bytes.Repeat([]byte("secret data "), 10))
	}
	f.Add(int64(5), int64(6), int64(256), int64(-4), []byte{}, make([]byte, 47), []byte{}, make([]byte, 31), []byte{1}, []byte{}, "AESV3", []byte("x"))
	f.Fuzz(func(t *testing.T, v, r, length, p int64, o, u, oe, ue, perms, id []byte, cfm string, data []byte) {
		within(t, func() {
			d := &Doc{Trailer: Dict{"ID": Array{String(id)}}, cache: map[int]Object{}, busy: map[int]bool{}, mem: NewBudget(budget)}
			enc := Dict{"Filter": Name("Standard"), "V": v, "R": r, "Length": length, "P": p, "O": String(o), "U": String(u),
				"OE": String(oe), "UE": String(ue), "Perms": String(perms),
				"CF": Dict{"StdCF": Dict{"CFM": Name(cfm)}}, "StmF": Name("StdCF"), "StrF": Name("StdCF")}
			c, err := d.newCrypt(enc)
			if err != nil {
				return
			}
			ref := Ref{Num: 4}
			_ = c.decryptString(ref, append([]byte(nil), data...))
			whole := c.decrypt(ref, c.stm, append([]byte(nil), data...))
			s := &Stream{Dict: Dict{}, Ref: ref}
			got, err := io.ReadAll(c.streamReader(s, iotest.HalfReader(bytes.NewReader(data)), d.mem, &decoded{}))
			if err != nil || !bytes.Equal(got, whole) {
				t.Fatalf("decrypted as read: %d bytes (%v), at once: %d bytes", len(got), err, len(whole))
			}
		})
	})
}
