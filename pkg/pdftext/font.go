package pdftext

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unsafe"

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
	cidW     cidWidths
	scale    float64 // glyph units to text space: 0.001, or a Type 3 matrix
	space    float64 // the width of a space, in text space units (× size)
	vertical bool
	// A CID-keyed font of one of Adobe's CJK collections: the name of the
	// collection's CID to Unicode CMap, read (by readColl) when a code
	// first needs it, then coll.
	collection string
	readColl   func() *cmap
	coll       *cmap
	cost       int64 // bytes charged to the budget for it (its CMaps apart)
}

// costFont is what a font holds (its tables of 256 names and widths).
const costFont = int64(unsafe.Sizeof(font{}))

// maxDifferences bounds the entries of an encoding's /Differences read: a
// real one names at most 256 glyphs, with a code before each run.
const maxDifferences = 1024

// glyph is one code shown.
type glyph struct {
	text  string
	w     float64 // advance in text space units for size 1
	space bool    // a single-byte code 32: word spacing applies
}

// loadFont reads font dictionary f, charging the budget for it (all of
// it given back if the budget refuses part of it).
func (x *extractor) loadFont(f pdfobj.Dict) (ft *font) {
	d := x.doc
	x.mem.Take(costFont)
	ft = &font{scale: 0.001, simple: true, cost: costFont}
	defer func() {
		if r := recover(); r != nil {
			x.mem.Give(ft.cost)
			panic(r)
		}
	}()
	sub := d.GetName(f, "Subtype")
	if tu := d.GetStream(f, "ToUnicode"); tu != nil {
		ft.toUni = x.cmapOf(tu)
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
	for _, v := range diffs[:min(len(diffs), maxDifferences)] {
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
	// Widths: /Widths from FirstChar (the 256 codes there are), else the
	// standard 14 metrics.
	ft.missing, _ = d.Num(desc["MissingWidth"])
	first, _ := d.Int(f["FirstChar"])
	widths := d.GetArray(f, "Widths")
	for i := max(0, -first); first > -1<<32 && i < int64(len(widths)) && first+i < 256; i++ {
		if v, ok := d.Num(widths[i]); ok {
			ft.widths[first+i], ft.hasW[first+i] = v, true
		}
	}
	if std >= 0 {
		base := x.stdWidths(std, baseEnc)
		for c := range 256 {
			if !ft.hasW[c] && ft.names[c] != "" {
				w := base[c]
				if ft.names[c] != stdEncodings[baseEnc][c] {
					w = stdWidth(std, ft.names[c]) // a name of its own
				}
				if w > 0 {
					ft.widths[c], ft.hasW[c] = w, true
				}
			}
		}
	}
	ft.space = ft.spaceWidth()
	return ft
}

// stdWidths is the widths of standard font std for the codes of
// encoding enc, worked out once per extraction (a lookup by glyph name
// for each of 256 codes, which a file of 60,000 fonts would otherwise pay
// 60,000 times).
func (x *extractor) stdWidths(std, enc int) *[256]float64 {
	k := [2]int{std, enc}
	if w, ok := x.stdTables[k]; ok {
		return w
	}
	x.mem.Take(2 << 10)
	w := new([256]float64)
	for c, n := range stdEncodings[enc] {
		if n != "" {
			w[c] = stdWidth(std, n)
		}
	}
	x.stdTables[k] = w
	return w
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
	s := x.doc.GetStream(desc, "FontFile")
	if s == nil {
		return [256]string{}, false
	}
	if p, ok := x.programs[s.Ref]; ok {
		// Read once: fonts share font programs (and a file may make
		// thousands of fonts share a large one).
		return p.enc, p.ok
	}
	enc, ok := x.programEncoding(s)
	x.mem.Take(costProgram)
	x.programs[s.Ref] = program{enc, ok}
	return enc, ok
}

// program is what a font program says of its encoding.
type program struct {
	enc [256]string
	ok  bool
}

// costProgram is what a program's entry in the extractor's cache holds.
const costProgram = int64(unsafe.Sizeof(program{})) + 64

// programEncoding reads the encoding of font program s.
func (x *extractor) programEncoding(s *pdfobj.Stream) (enc [256]string, found bool) {
	data, _ := x.doc.StreamBytes(s, 256<<10)
	defer x.doc.Free(data)
	if i := bytes.Index(data, []byte("eexec")); i >= 0 {
		data = data[:i]
	}
	if bytes.Contains(data, []byte("/Encoding StandardEncoding")) {
		enc, found = stdEncodings[encStandard], true
		return enc, found
	}
	for rest := data; ; {
		x.check()
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
	knownCIDs := false // codes whose CIDs this reader knows
	switch e := d.Get(f, "Encoding").(type) {
	case pdfobj.Name:
		name := string(e)
		ft.vertical = strings.HasSuffix(name, "-V")
		ft.ucs2 = strings.Contains(name, "UCS2") || strings.Contains(name, "UTF16")
		knownCIDs = name == "Identity-H" || name == "Identity-V"
	case *pdfobj.Stream:
		ft.enc = x.cmapOf(e)
		if wm, _ := d.Int(e.Dict["WMode"]); wm == 1 {
			ft.vertical = true
		}
		knownCIDs = true
	}
	desc := d.Dict(d.GetArray(f, "DescendantFonts").At(0))
	if knownCIDs {
		info := d.GetDict(desc, "CIDSystemInfo")
		reg, _ := d.Get(info, "Registry").(pdfobj.String)
		ord, _ := d.Get(info, "Ordering").(pdfobj.String)
		if name := collectionOf(string(reg), string(ord)); name != "" {
			ft.collection = name
			ft.readColl = func() *cmap { return x.collection(name) }
		}
	}
	ft.missing = 1000
	if v, ok := d.Num(desc["DW"]); ok {
		ft.missing = v
	}
	ft.cidW = x.readW(d.GetArray(desc, "W"), &ft.cost)
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
	} else if ft.enc == nil && ft.collection != "" {
		w = ft.cidWidth(1) * ft.scale // CID 1: the space of Adobe's collections
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
	if w, ok := ft.cidW.width(cid); ok {
		return w
	}
	return ft.missing
}

// glyphs splits raw into codes and decodes each.
func (ft *font) glyphs(raw []byte, out []glyph, mem *pdfobj.Budget) []glyph {
	if cap(out) < len(raw) {
		// At most a glyph a byte: room for all, charged before it is made.
		const size = int64(unsafe.Sizeof(glyph{}))
		mem.Take(size * int64(len(raw)))
		mem.Give(size * int64(cap(out)))
		out = make([]glyph, 0, len(raw))
	}
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
		cid, known := int(code), n == 2 // known: the CID the encoding gives
		switch {
		case ft.enc != nil:
			var c int
			if c, known = ft.enc.cid(n, code); known {
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
		} else if t, ok := ft.collectionText(cid, known); ok {
			g.text = t
		}
		out = append(out, g)
	}
	return out
}

// collectionText is the text of cid in the font's character collection,
// which it reads the first time; none for a code whose CID the encoding
// does not give (known false).
func (ft *font) collectionText(cid int, known bool) (string, bool) {
	if !known || cid < 0 || cid > 0xFFFF {
		return "", false
	}
	if ft.readColl != nil {
		ft.coll, ft.readColl = ft.readColl(), nil
	}
	return ft.coll.lookup(2, uint32(cid))
}

// lookup is text on a possibly absent CMap.
func (m *cmap) lookup(n int, code uint32) (string, bool) {
	if m == nil {
		return "", false
	}
	return m.text(n, code)
}
