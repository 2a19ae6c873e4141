package pdftext

import (
	"bytes"
	"strings"
	"unicode/utf16"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// font is what text extraction needs of a font (PDF 32000-2 §9.5–9.10):
// how to split a string into codes, each code's Unicode text and its
// advance width in text space units (1/1000 of the size, or through a
// Type 3 font's matrix).
type font struct {
	simple   bool        // one byte a code
	toUni    *cmap       // the ToUnicode CMap, first choice for text
	names    [256]string // simple fonts: each code's glyph name
	widths   [256]float64
	hasW     [256]bool
	missing  float64 // MissingWidth or DW
	enc      *cmap   // Type 0: the encoding CMap; nil is Identity
	ucs2     bool    // Type 0 with a UCS-2 or UTF-16 CMap: codes are text
	cidW     map[int]float64
	cidRange []cidWidth
	scale    float64 // glyph units to text space: 0.001, or a Type 3 matrix
	space    float64 // the width of a space, in text space units (× size)
	vertical bool
}

type cidWidth struct {
	first, last int
	w           float64
}

// glyph is one code shown.
type glyph struct {
	text  string
	w     float64 // advance in text space units for size 1
	space bool    // a single-byte code 32: word spacing applies
}

// loadFont reads font dictionary f.
func (x *extractor) loadFont(f pdfobj.Dict) *font {
	d := x.doc
	ft := &font{scale: 0.001, simple: true}
	sub := d.GetName(f, "Subtype")
	if tu := d.GetStream(f, "ToUnicode"); tu != nil {
		if data, err := d.StreamBytes(tu, 4<<20); err == nil || len(data) > 0 {
			ft.toUni = parseCMap(data)
		}
	}
	if sub == "Type0" {
		x.loadType0(ft, f)
		return ft
	}
	if sub == "Type3" {
		if m := d.GetArray(f, "FontMatrix"); len(m) >= 1 {
			if v, ok := d.Num(m[0]); ok && v != 0 {
				ft.scale = v
			}
		}
	}
	base := strings.TrimPrefix(string(d.GetName(f, "BaseFont")), "")
	std := stdFont(base)
	desc := d.GetDict(f, "FontDescriptor")
	flags, _ := d.Int(desc["Flags"])
	symbolic := flags&4 != 0 && flags&32 == 0
	// The base encoding: the font's own, else the standard one (or
	// Symbol's for the Symbol font), then /Differences over it.
	baseEnc := encStandard
	if std == indexOf("Symbol") {
		baseEnc = encSymbol
	}
	builtin := false
	var diffs pdfobj.Array
	switch e := d.Get(f, "Encoding").(type) {
	case pdfobj.Name:
		baseEnc = encodingIndex(e, baseEnc)
	case pdfobj.Dict:
		if b, ok := d.Resolve(e["BaseEncoding"]).(pdfobj.Name); ok {
			baseEnc = encodingIndex(b, baseEnc)
		} else {
			builtin = true
		}
		diffs, _ = d.Resolve(e["Differences"]).(pdfobj.Array)
	default:
		builtin = true
	}
	ft.names = stdEncodings[baseEnc]
	if builtin && sub != "Type3" {
		if own, ok := x.fontProgramEncoding(desc); ok {
			for c, n := range own {
				if n != "" {
					ft.names[c] = n
				}
			}
		} else if symbolic && std < 0 {
			ft.names = [256]string{} // codes of a symbolic font mean nothing without a map
		}
	}
	code := 0
	for _, v := range diffs {
		switch v := d.Resolve(v).(type) {
		case int64:
			code = int(v)
		case pdfobj.Name:
			if code >= 0 && code < 256 {
				ft.names[code] = string(v)
			}
			code++
		}
	}
	// Widths: /Widths from FirstChar, else the standard 14 metrics.
	ft.missing, _ = d.Num(desc["MissingWidth"])
	first, _ := d.Int(f["FirstChar"])
	for i, w := range d.GetArray(f, "Widths") {
		c := int(first) + i
		if v, ok := d.Num(w); ok && c >= 0 && c < 256 {
			ft.widths[c], ft.hasW[c] = v, true
		}
	}
	if std >= 0 {
		for c := range 256 {
			if !ft.hasW[c] && ft.names[c] != "" {
				if w := stdWidth(std, ft.names[c]); w > 0 {
					ft.widths[c], ft.hasW[c] = w, true
				}
			}
		}
	}
	ft.space = ft.spaceWidth()
	return ft
}

func encodingIndex(n pdfobj.Name, def int) int {
	switch n {
	case "WinAnsiEncoding":
		return encWinAnsi
	case "MacRomanEncoding":
		return encMacRoman
	case "StandardEncoding":
		return encStandard
	}
	return def
}

// fontProgramEncoding reads the built-in encoding of an embedded Type 1
// font program ("dup 12 /fi put" in its clear-text part), which TeX fonts
// rely on when the PDF names no encoding.
func (x *extractor) fontProgramEncoding(desc pdfobj.Dict) ([256]string, bool) {
	var enc [256]string
	s := x.doc.GetStream(desc, "FontFile")
	if s == nil {
		return enc, false
	}
	data, _ := x.doc.StreamBytes(s, 256<<10)
	if i := bytes.Index(data, []byte("eexec")); i >= 0 {
		data = data[:i]
	}
	if bytes.Contains(data, []byte("/Encoding StandardEncoding")) {
		return stdEncodings[encStandard], true
	}
	found := false
	for rest := data; ; {
		i := bytes.Index(rest, []byte("dup "))
		if i < 0 {
			break
		}
		rest = rest[i+4:]
		f := bytes.Fields(rest[:min(len(rest), 64)])
		if len(f) < 3 || string(f[2]) != "put" || !bytes.HasPrefix(f[1], []byte("/")) {
			continue
		}
		c := 0
		for _, b := range f[0] {
			if b < '0' || b > '9' {
				c = -1
				break
			}
			c = c*10 + int(b-'0')
		}
		if c >= 0 && c < 256 {
			enc[c], found = string(f[1][1:]), true
		}
	}
	return enc, found
}

func (x *extractor) loadType0(ft *font, f pdfobj.Dict) {
	d := x.doc
	ft.simple = false
	switch e := d.Get(f, "Encoding").(type) {
	case pdfobj.Name:
		name := string(e)
		ft.vertical = strings.HasSuffix(name, "-V")
		ft.ucs2 = strings.Contains(name, "UCS2") || strings.Contains(name, "UTF16")
	case *pdfobj.Stream:
		if data, err := d.StreamBytes(e, 4<<20); err == nil || len(data) > 0 {
			ft.enc = parseCMap(data)
		}
		if wm, _ := d.Int(e.Dict["WMode"]); wm == 1 {
			ft.vertical = true
		}
	}
	desc := d.Dict(d.GetArray(f, "DescendantFonts").At(0))
	ft.missing = 1000
	if v, ok := d.Num(desc["DW"]); ok {
		ft.missing = v
	}
	ft.cidW = map[int]float64{}
	w := d.GetArray(desc, "W")
	for i := 0; i < len(w) && len(ft.cidW) < 1<<16; {
		first, ok := d.Int(w[i])
		if !ok || i+1 >= len(w) {
			break
		}
		if list, ok := d.Resolve(w[i+1]).(pdfobj.Array); ok {
			for j, v := range list {
				if n, ok := d.Num(v); ok {
					ft.cidW[int(first)+j] = n
				}
			}
			i += 2
			continue
		}
		last, ok1 := d.Int(w[i+1])
		width, ok2 := 0.0, false
		if i+2 < len(w) {
			width, ok2 = d.Num(w[i+2])
		}
		if !ok1 || !ok2 {
			break
		}
		ft.cidRange = append(ft.cidRange, cidWidth{int(first), int(last), width})
		i += 3
	}
	ft.space = ft.spaceWidth()
}

// spaceWidth is the width of a space in text space units: the space
// glyph's, else a quarter em.
func (ft *font) spaceWidth() float64 {
	w := 0.0
	if ft.simple {
		if ft.hasW[32] && (ft.names[32] == "space" || ft.toUni == nil) {
			w = ft.widths[32] * ft.scale
		}
	} else if ft.ucs2 {
		w = ft.cidWidth(ucs2CID(' ')) * ft.scale
	} else if ft.enc == nil {
		w = ft.cidWidth(3) * ft.scale // CID 3: the space of most TrueType-based fonts
		if ft.toUni != nil {
			if t, ok := ft.toUni.text(2, 3); !ok || t != " " {
				w = 0
			}
		}
	}
	if w < 0.1 || w > 0.6 {
		w = 0.25
	}
	return w
}

// ucs2CID is the CID a predefined Unicode CMap (Uni…-UCS2-…,
// Uni…-UTF16-…) gives code, where knowing it needs no table: printable
// ASCII is CIDs 1–95 in each of Adobe's CJK collections (Japan1, GB1,
// CNS1, Korea1), the proportional Latin glyphs whose widths /W lists.
// Anything else (-1) takes the default width: 1000, full width, for the
// ideographs and kana these fonts are for.
func ucs2CID(code uint32) int {
	if code >= 0x20 && code <= 0x7E {
		return int(code) - 31
	}
	return -1
}

func (ft *font) cidWidth(cid int) float64 {
	if w, ok := ft.cidW[cid]; ok {
		return w
	}
	for _, r := range ft.cidRange {
		if cid >= r.first && cid <= r.last {
			return r.w
		}
	}
	return ft.missing
}

// glyphs splits raw into codes and decodes each.
func (ft *font) glyphs(raw []byte, out []glyph) []glyph {
	for len(raw) > 0 {
		if ft.simple {
			c := raw[0]
			raw = raw[1:]
			g := glyph{space: c == 32}
			if ft.hasW[c] {
				g.w = ft.widths[c] * ft.scale
			} else {
				g.w = ft.missing * ft.scale
			}
			if t, ok := ft.toUni.lookup(1, uint32(c)); ok {
				g.text = t
			} else if n := ft.names[c]; n != "" {
				g.text = glyphText(n)
			} else if c >= 32 && c < 127 && ft.toUni == nil {
				g.text = string(rune(c))
			}
			out = append(out, g)
			continue
		}
		n := 2
		if ft.enc != nil {
			n = ft.enc.split(raw, 2)
		} else if ft.toUni != nil && len(ft.toUni.space) > 0 && !ft.ucs2 {
			n = 2
		}
		n = min(n, len(raw))
		code := codeOf(raw[:n])
		raw = raw[n:]
		cid := int(code)
		switch {
		case ft.enc != nil:
			if c, ok := ft.enc.cid(n, code); ok {
				cid = c
			}
		case ft.ucs2:
			cid = ucs2CID(code)
		}
		g := glyph{w: ft.cidWidth(cid) * ft.scale, space: n == 1 && code == 32 || ft.ucs2 && code == 0x20}
		if t, ok := ft.toUni.lookup(n, code); ok {
			g.text = t
		} else if ft.ucs2 {
			g.text = string(utf16.Decode([]uint16{uint16(code)}))
		}
		out = append(out, g)
	}
	return out
}

// lookup is text on a possibly absent CMap.
func (m *cmap) lookup(n int, code uint32) (string, bool) {
	if m == nil {
		return "", false
	}
	return m.text(n, code)
}
