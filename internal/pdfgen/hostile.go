package pdfgen

import (
	"fmt"
	"strings"
)

// Hostile is a PDF of security issue 26: a small file (a few kilobytes to
// a few megabytes) shaped so that a reader that sizes its buffers by what
// the file says, scans instead of looking up, counts values instead of
// bytes, or never looks at its deadline spends gigabytes or minutes on it.
// The first shapes are those of the table; the others are more of
// the same classes. HostileShapes says what each one is.
type Hostile string

// The hostile shapes.
const (
	// Decoder buffers sized by the file (issue 26, row 1).
	PredictorChain   Hostile = "predictor-chain"   // /FlateDecode ×8, each with a predictor of 64 MiB rows
	NestedPredictors Hostile = "nested-predictors" // 13 nested forms, each with one such predictor
	FilterChain      Hostile = "filter-chain"      // one stream through 100,000 Flate filters
	LZWTable         Hostile = "lzw-table"         // LZW codes whose table strings grow to 3,800 bytes, twice
	FormRepeat       Hostile = "form-repeat"       // an empty form with 64 KiB predictor rows, drawn 1 M times
	EncryptedForm    Hostile = "encrypted-form"    // an RC4 file: a 256 KiB form in an image filter, drawn 1 M times
	// Work after the deadline: linear scans a glyph pays for (row 2).
	CMapRanges     Hostile = "cmap-ranges"      // 131,072 ToUnicode bfranges that never match; 40 × 32,500 glyphs
	CIDWidthRanges Hostile = "cid-width-ranges" // 340,000 /W ranges that never match; the same glyphs
	EncodingCMap   Hostile = "encoding-cmap"    // an encoding CMap of 65,536 code space ranges and 65,536 cidranges
	EndstreamScan  Hostile = "endstream-scan"   // 50,000 streams whose end is never found: each a scan of the rest
	HyphenJoins    Hostile = "hyphen-joins"     // lines that each end in a hyphen the layout joins
	AnnotForms     Hostile = "annotation-forms" // 1,000 pages × 1,000 notes, each appearance 12 nested forms
	Differences    Hostile = "differences"      // 10,000 fonts sharing a /Differences of 1,000,000 names
	// Counts where bytes matter (row 3).
	SharedToUnicode Hostile = "shared-tounicode" // 4,000 fonts sharing one 4 MiB ToUnicode
	ToUnicodeLists  Hostile = "tounicode-lists"  // a 4 MiB ToUnicode of bfranges with arrays: 600,000 strings
	ValueCount      Hostile = "value-count"      // 5 arrays of 1 M zeros (10 MB) from a few kilobytes
	ValueDicts      Hostile = "value-dicts"      // 4 arrays of 1 M empty dictionaries
	LongNames       Hostile = "long-names"       // 30 names of 1 MiB each
	WidthList       Hostile = "w-list"           // /W [0 [1 M widths]]
	ManyFonts       Hostile = "many-fonts"       // 60,000 distinct fonts, each shown once
)

// HostileShapes lists every shape.
func HostileShapes() []Hostile {
	return []Hostile{PredictorChain, NestedPredictors, FilterChain, LZWTable, FormRepeat, EncryptedForm,
		CMapRanges, CIDWidthRanges, EncodingCMap, EndstreamScan, HyphenJoins, AnnotForms, Differences,
		SharedToUnicode, ToUnicodeLists, ValueCount, ValueDicts, LongNames, WidthList, ManyFonts}
}

// PDF builds the shape.
func (h Hostile) PDF() []byte {
	b, ok := hostileBuilders[h]
	if !ok {
		panic("unknown hostile shape " + string(h))
	}
	return b()
}

var hostileBuilders = map[Hostile]func() []byte{
	PredictorChain:   predictorChain,
	NestedPredictors: nestedPredictors,
	FilterChain:      filterChain,
	LZWTable:         lzwTable,
	FormRepeat:       formRepeat,
	EncryptedForm:    encryptedForm,
	CMapRanges:       func() []byte { return cidGlyphs(toUnicodeFont(rangesCMap(1<<17, "<FF00> <FF00> <0041>"))) },
	CIDWidthRanges:   cidWidthRanges,
	EncodingCMap:     encodingCMap,
	EndstreamScan:    endstreamScan,
	HyphenJoins:      hyphenJoins,
	AnnotForms:       annotForms,
	Differences:      differences,
	SharedToUnicode:  sharedToUnicode,
	ToUnicodeLists:   toUnicodeLists,
	ValueCount:       func() []byte { return bigArrays(5, strings.Repeat("0 ", 1_000_000)) },
	ValueDicts:       func() []byte { return bigArrays(4, strings.Repeat("<<>>", 1_000_000)) },
	LongNames:        func() []byte { return bigArrays(1, strings.Repeat("/"+strings.Repeat("n", 1<<20)+" ", 30)) },
	WidthList:        widthList,
	ManyFonts:        manyFonts,
}

// helvetica is the resource entry of the font the marker text is shown in.
const helvetica = "/H << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"

// marker is content that shows text, so a test sees the page was read.
func marker(text string) string {
	return fmt.Sprintf("BT /H 12 Tf 72 720 Td (%s) Tj ET\n", text)
}

// page is the catalog, the page tree, one page with resources res and
// content stream 4 (Flate-compressed), then more objects numbered from 5.
func page(res string, content []byte, more ...string) []string {
	z := Zlib(content)
	return append([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << " + res + " >> >>",
		Stream("/Filter /FlateDecode", z),
	}, more...)
}

// bigPredictor is a predictor whose rows are 64 MiB (32 colours of 16
// bits, 2^20 columns): what PDF 32000-2 allows, what no real file uses.
const bigPredictor = "<< /Predictor 12 /Colors 32 /BitsPerComponent 16 /Columns 1048576 >>"

// pngRows is data as rows of PNG predictor None (0): one short row.
func pngRows(data []byte) []byte { return append([]byte{0}, data...) }

func predictorChain() []byte {
	data := []byte(marker("predictor chain"))
	for range 8 {
		data = Zlib(pngRows(data))
	}
	dict := "/Filter [" + strings.Repeat("/FlateDecode ", 8) + "] /DecodeParms [" + strings.Repeat(bigPredictor+" ", 8) + "]"
	objs := page("/Font << "+helvetica+" >>", nil)
	objs[3] = Stream(dict, data)
	return Raw(objs...)
}

func nestedPredictors() []byte {
	const n = 13
	objs := page(fmt.Sprintf("/Font << %s >> /XObject << /Fm1 5 0 R >>", helvetica), []byte("/Fm1 Do"))
	for i := 1; i <= n; i++ {
		content := marker(fmt.Sprintf("form %d", i))
		res := "/Font << " + helvetica + " >>"
		if i < n {
			content += fmt.Sprintf("/Fm%d Do", i+1)
			res += fmt.Sprintf(" /XObject << /Fm%d %d 0 R >>", i+1, 5+i)
		}
		objs = append(objs, Stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << %s >> /Filter /FlateDecode /DecodeParms %s", res, bigPredictor),
			Zlib(pngRows([]byte(content)))))
	}
	return Raw(objs...)
}

func filterChain() []byte {
	objs := page("/Font << "+helvetica+" >>", nil, "["+strings.Repeat("/FlateDecode ", 100_000)+"]")
	objs[3] = Stream("/Filter 5 0 R", Zlib([]byte(marker("filter chain"))))
	return Compact(objs, func(num int) bool { return num == 5 })
}

func lzwTable() []byte {
	objs := page("/Font << "+helvetica+" >>", nil)
	objs[3] = Stream("/Filter /LZWDecode", LZW([]byte(strings.Repeat("a", 16<<20))))
	return Raw(objs...)
}

// LZW is data encoded as PDF's LZWDecode reads it (early change 1), with
// a clear code each time the table fills.
func LZW(data []byte) []byte {
	var out []byte
	var acc uint64
	var nacc uint
	width := uint(9)
	emit := func(code int) {
		acc = acc<<width | uint64(code)
		nacc += width
		for nacc >= 8 {
			out = append(out, byte(acc>>(nacc-8)))
			nacc -= 8
		}
	}
	// The table: each string is a known one (its code) and one more byte;
	// 0 is no entry (codes 0-257 are never added). A reset clears only
	// the entries set since the one before.
	table := make([][256]uint16, 4096)
	var set [][2]int
	next := 258
	emit(256)
	w := -1
	for _, c := range data {
		if w < 0 {
			w = int(c)
			continue
		}
		if k := table[w][c]; k != 0 {
			w = int(k)
			continue
		}
		emit(w)
		table[w][c] = uint16(next)
		set = append(set, [2]int{w, int(c)})
		next++
		// The reader's table is one entry behind (it adds an entry when
		// it reads the code after), and widens one code early.
		switch next {
		case 512, 1024, 2048:
			width++
		}
		if next == 4096 {
			emit(256)
			for _, k := range set {
				table[k[0]][k[1]] = 0
			}
			set, next, width = set[:0], 258, 9
		}
		w = int(c)
	}
	if w >= 0 {
		emit(w)
		// The reader adds an entry for this last code too, so it reads
		// the end code one entry further on: wider, if that entry
		// reaches a boundary (the fuzzer found 1,822 bytes that ended
		// at 511 entries and read back two bytes longer).
		switch next + 1 {
		case 512, 1024, 2048:
			width++
		}
	}
	emit(257)
	if nacc > 0 {
		out = append(out, byte(acc<<(8-nacc)))
	}
	return out
}

func formRepeat() []byte {
	objs := page("/Font << "+helvetica+" >> /XObject << /Fm 5 0 R >>", []byte(marker("form repeat")+strings.Repeat("/Fm Do\n", 1<<20)),
		Stream("/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 65536 >>", Zlib(nil)))
	return Raw(objs...)
}

func encryptedForm() []byte {
	content := Zlib([]byte(marker("encrypted form") + strings.Repeat("/Fm Do\n", 1<<20)))
	return RC4(
		Object{Dict: "<< /Type /Catalog /Pages 2 0 R >>"},
		Object{Dict: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"},
		Object{Dict: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << " + helvetica + " >> /XObject << /Fm 5 0 R >> >> >>"},
		Object{Dict: "/Filter /FlateDecode", Data: content, Stream: true},
		Object{Dict: "/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Filter /DCTDecode", Data: noise(256 << 10), Stream: true},
	)
}

// glyphRun is what the linear-scan shapes show: 40 strings of 65,000
// bytes of 0x01, each 32,500 two-byte codes (or 16,250 four-byte ones).
func glyphRun() string {
	return strings.Repeat("BT /F1 12 Tf 72 700 Td ("+strings.Repeat("\x01", 65000)+") Tj ET\n", 40)
}

// rangesCMap is a CMap of n copies of a bfrange line.
func rangesCMap(n int, line string) string {
	return cmapOpen + fmt.Sprintf("%d beginbfrange\n", n) + strings.Repeat(line+"\n", n) + "endbfrange\n" + cmapClose
}

const (
	cmapOpen  = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
	cmapClose = "endcmap CMapName currentdict /CMap defineresource pop end end\n"
	cidFont   = "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Hostile /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 %s >>"
)

// toUnicodeFont is a Type 0 font (object 5, its CID font 6, its
// ToUnicode 7) whose ToUnicode CMap is cmap.
func toUnicodeFont(cmap string) []string {
	return []string{
		"<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
		fmt.Sprintf(cidFont, ""),
		Stream("/Filter /FlateDecode", Zlib([]byte(cmap))),
	}
}

// cidGlyphs is a page showing glyphRun in font F1 (object 5 of font).
func cidGlyphs(font []string) []byte {
	objs := page("/Font << /F1 5 0 R "+helvetica+" >>", []byte(marker("before the glyphs")+glyphRun()), font...)
	return Raw(objs...)
}

func cidWidthRanges() []byte {
	font := []string{
		"<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding /Identity-H /DescendantFonts [6 0 R] >>",
		fmt.Sprintf(cidFont, "/W 7 0 R"),
		"[" + strings.Repeat("60000 60000 500 ", 340_000) + "]",
	}
	objs := page("/Font << /F1 5 0 R "+helvetica+" >>", []byte(marker("before the glyphs")+glyphRun()), font...)
	return Compact(objs, func(num int) bool { return num == 7 })
}

func encodingCMap() []byte {
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n65536 begincodespacerange\n" +
		strings.Repeat("<FFFFFF00> <FFFFFF00>\n", 1<<16) + "endcodespacerange\n65536 begincidrange\n" +
		strings.Repeat("<FFFFFF00> <FFFFFF00> 1\n", 1<<16) + "endcidrange\n" + cmapClose
	font := []string{
		"<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding 7 0 R /DescendantFonts [6 0 R] >>",
		fmt.Sprintf(cidFont, ""),
		Stream("/Type /CMap /CMapName /Hostile /Filter /FlateDecode", Zlib([]byte(cmap))),
	}
	return cidGlyphs(font)
}

func endstreamScan() []byte {
	const n = 50_000
	refs := make([]string, n)
	for i := range refs {
		refs[i] = fmt.Sprintf("%d 0 R", 4+i)
	}
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [" + strings.Join(refs, " ") + "] >>",
	}
	for range n {
		objs = append(objs, "<< /Length 1 >>\nstream\nx")
	}
	return Raw(objs...)
}

func hyphenJoins() []byte {
	content := "BT /H 12 Tf 14 TL 72 720 Td " + strings.Repeat("(ab-) Tj T* ", 400_000) + "ET"
	return Raw(page("/Font << "+helvetica+" >>", []byte(content))...)
}

func annotForms() []byte {
	const pages, notes, depth = 1000, 1000, 12
	// 1 catalog, 2 pages, 3 the one page dictionary every kid points
	// at (a page tree may share nodes: this one lists it 1,000 times),
	// 4 its content, 5 the note, 6 its annotations, 7… the forms.
	objs := page("/Font << "+helvetica+" >>", []byte(marker("notes")),
		"<< /Type /Annot /Subtype /FreeText /Rect [0 0 1 1] /AP << /N 7 0 R >> >>",
		"["+strings.Repeat("5 0 R ", notes)+"]")
	objs[1] = "<< /Type /Pages /Kids [" + strings.Repeat("3 0 R ", pages) + "] /Count " + fmt.Sprint(pages) + " >>"
	objs[2] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Annots 6 0 R /Resources << /Font << " + helvetica + " >> >> >>"
	for i := range depth {
		content, res := "", ""
		if i < depth-1 {
			content = "/Fm Do"
			res = fmt.Sprintf("/XObject << /Fm %d 0 R >>", 8+i)
		}
		objs = append(objs, Stream("/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << "+res+" >> /Filter /FlateDecode", Zlib([]byte(content))))
	}
	return Raw(objs...)
}

func differences() []byte {
	objs := page("", nil, "<< /Type /Encoding /Differences 6 0 R >>", "[0 "+strings.Repeat("/a ", 1_000_000)+"]")
	objs = fontsShown(objs, 10_000, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding 5 0 R >>", "(a)")
	return Compact(objs, func(num int) bool { return num >= 5 })
}

// fontsShown adds n fonts (each the dictionary font) to objs, the page's
// resources naming them, and a content stream showing text in each.
func fontsShown(objs []string, n int, font, text string) []string {
	var res, content strings.Builder
	for i := range n {
		objs = append(objs, font)
		fmt.Fprintf(&res, "/F%d %d 0 R ", i, len(objs))
		fmt.Fprintf(&content, "/F%d 12 Tf %s Tj ", i, text)
	}
	objs = append(objs, "<< "+res.String()+" >>")
	objs[2] = fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font %d 0 R >> >>", len(objs))
	objs[3] = Stream("/Filter /FlateDecode", Zlib([]byte("BT 72 720 Td "+content.String()+"ET")))
	return objs
}

func sharedToUnicode() []byte {
	var cmap strings.Builder
	cmap.WriteString(cmapOpen + "131072 beginbfchar\n")
	for i := range 1 << 17 {
		fmt.Fprintf(&cmap, "<%04X> <00410042004300440045>\n", i&0xffff)
	}
	cmap.WriteString("endbfchar\n")
	for cmap.Len() < 4<<20-len(cmapClose)-64 {
		cmap.WriteString("% padding to the 4 MiB a ToUnicode CMap may decode to\n")
	}
	cmap.WriteString(cmapClose)
	return fontsSharing(4000, cmap.String())
}

func toUnicodeLists() []byte {
	var cmap strings.Builder
	cmap.WriteString(cmapOpen + "100 beginbfrange\n")
	list := "[" + strings.Repeat("<0041> ", 1<<16) + "]"
	for cmap.Len()+len(list) < 4<<20-len(cmapClose)-64 {
		cmap.WriteString("<0000> <FFFF> " + list + "\n")
	}
	cmap.WriteString("endbfrange\n" + cmapClose)
	return fontsSharing(1, cmap.String())
}

// fontsSharing is a page that shows a glyph in each of n Type 0 fonts
// sharing one ToUnicode CMap.
func fontsSharing(n int, cmap string) []byte {
	objs := page("", nil, fmt.Sprintf(cidFont, ""), Stream("/Filter /FlateDecode", Zlib([]byte(cmap))))
	objs = fontsShown(objs, n, "<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding /Identity-H /DescendantFonts [5 0 R] /ToUnicode 6 0 R >>", "<0001>")
	return Compact(objs, func(num int) bool { return num == 5 || num >= 7 })
}

// bigArrays is a page whose annotations are n arrays of elements (each
// under the 2^20 elements one array may hold), kept in an object stream.
func bigArrays(n int, elements string) []byte {
	refs := ""
	var arrays []string
	for i := range n {
		refs += fmt.Sprintf("%d 0 R ", 5+i)
		arrays = append(arrays, "["+elements+"]")
	}
	objs := page("/Font << "+helvetica+" >>", []byte(marker("before the arrays")), arrays...)
	objs[2] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Annots [" + refs + "] /Resources << /Font << " + helvetica + " >> >> >>"
	return Compact(objs, func(num int) bool { return num >= 5 })
}

func widthList() []byte {
	font := []string{
		"<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding /Identity-H /DescendantFonts [6 0 R] >>",
		fmt.Sprintf(cidFont, "/W [0 7 0 R]"),
		"[" + strings.Repeat("500 ", 1<<20) + "]",
	}
	objs := page("/Font << /F1 5 0 R "+helvetica+" >>", []byte(marker("before the glyphs")+"BT /F1 12 Tf <00010002> Tj ET"), font...)
	return Compact(objs, func(num int) bool { return num == 7 })
}

func manyFonts() []byte {
	objs := fontsShown(page("", nil), 60_000, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", "(a)")
	return Compact(objs, func(num int) bool { return num >= 5 })
}
