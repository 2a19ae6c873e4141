// Command gendata writes pkg/pdftext/stddata.go: the Adobe Glyph List
// (glyph name to Unicode), the standard encodings (Standard, WinAnsi,
// MacRoman, Symbol) as glyph names, and the widths of the standard 14
// fonts, from public sources Debian ships: the AGL in TeX Live's
// fonts/map/glyphlist, the metric-compatible URW base 35 AFM files
// (fonts-urw-base35), and Windows-1252 and Mac OS Roman from
// golang.org/x/text. Run it with `go generate ./pkg/pdftext/`.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

var (
	glyphDir = flag.String("glyphlist", "/usr/share/texlive/texmf-dist/fonts/map/glyphlist", "the folder of glyphlist.txt and texglyphlist.txt")
	afmDir   = flag.String("afm", "/usr/share/fonts/type1/urw-base35", "the URW base 35 AFM folder")
	out      = flag.String("o", "stddata.go", "the file to write")
)

// The standard 14 fonts and the URW font metric-compatible with each.
var std14 = [][2]string{
	{"Courier", "NimbusMonoPS-Regular"},
	{"Courier-Bold", "NimbusMonoPS-Bold"},
	{"Courier-BoldOblique", "NimbusMonoPS-BoldItalic"},
	{"Courier-Oblique", "NimbusMonoPS-Italic"},
	{"Helvetica", "NimbusSans-Regular"},
	{"Helvetica-Bold", "NimbusSans-Bold"},
	{"Helvetica-BoldOblique", "NimbusSans-BoldItalic"},
	{"Helvetica-Oblique", "NimbusSans-Italic"},
	{"Symbol", "StandardSymbolsPS"},
	{"Times-Bold", "NimbusRoman-Bold"},
	{"Times-BoldItalic", "NimbusRoman-BoldItalic"},
	{"Times-Italic", "NimbusRoman-Italic"},
	{"Times-Roman", "NimbusRoman-Regular"},
	{"ZapfDingbats", "D050000L"},
}

type afm struct {
	widths map[string]int
	codes  [256]string
}

func readAFM(path string) afm {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	a := afm{widths: map[string]int{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "C ") {
			continue
		}
		var code, wx int
		var name string
		for _, part := range strings.Split(line, ";") {
			fs := strings.Fields(part)
			if len(fs) < 2 {
				continue
			}
			switch fs[0] {
			case "C":
				code, _ = strconv.Atoi(fs[1])
			case "WX":
				wx, _ = strconv.Atoi(fs[1])
			case "N":
				name = fs[1]
			}
		}
		if name == "" {
			continue
		}
		if _, ok := a.widths[name]; !ok {
			a.widths[name] = wx
		}
		if code >= 0 && code < 256 {
			a.codes[code] = name
		}
	}
	return a
}

func readGlyphList(path string, into map[string]string) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		name, codes, ok := strings.Cut(line, ";")
		if !ok {
			continue
		}
		if _, seen := into[name]; seen {
			continue
		}
		var s strings.Builder
		codes, _, _ = strings.Cut(codes, ",") // TeX Live lists alternatives
		for _, h := range strings.Fields(codes) {
			r, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				log.Fatalf("%s: %q", path, line)
			}
			s.WriteRune(rune(r))
		}
		into[name] = s.String()
	}
}

func main() {
	flag.Parse()
	agl := map[string]string{}
	readGlyphList(filepath.Join(*glyphDir, "glyphlist.txt"), agl)
	readGlyphList(filepath.Join(*glyphDir, "texglyphlist.txt"), agl)
	metrics := make([]afm, len(std14))
	for i, f := range std14 {
		metrics[i] = readAFM(filepath.Join(*afmDir, f[1]+".afm"))
	}
	// Unicode to a glyph name, for naming the code points of the Windows
	// and Mac encodings: a name Times-Roman's metrics know (the standard
	// Latin names), else the shortest, then the first.
	byRune := map[string]string{}
	better := func(a, b string) bool {
		_, ka := metrics[12].widths[a]
		_, kb := metrics[12].widths[b]
		if ka != kb {
			return ka
		}
		return len(a) < len(b) || len(a) == len(b) && a < b
	}
	for name, s := range agl {
		if old, ok := byRune[s]; !ok || better(name, old) {
			byRune[s] = name
		}
	}
	named := func(cm *charmap.Charmap, fix map[int]string) [256]string {
		var enc [256]string
		for c := 32; c < 256; c++ {
			if n, ok := fix[c]; ok {
				enc[c] = n
				continue
			}
			r := cm.DecodeByte(byte(c))
			if r == 0xFFFD || r < 32 || r == 0x7f {
				continue
			}
			enc[c] = byRune[string(r)]
		}
		return enc
	}
	encs := [][256]string{
		metrics[12].codes, // StandardEncoding, as Times-Roman's AFM lists it
		// PDF 32000-2 Annex D: WinAnsi is Windows-1252 with space at
		// 0xA0 and hyphen at 0xAD; unused codes above 40 are bullets.
		named(charmap.Windows1252, map[int]string{0xA0: "space", 0xAD: "hyphen", 0x7f: "bullet", 0x81: "bullet", 0x8d: "bullet", 0x8f: "bullet", 0x90: "bullet", 0x9d: "bullet"}),
		// MacRoman as PDF has it: 0xDB is currency, 0xCA space.
		named(charmap.Macintosh, map[int]string{0xDB: "currency", 0xCA: "space"}),
		metrics[8].codes, // Symbol's built-in encoding
	}
	// The names the metrics keep: those any encoding above names.
	keep := map[string]bool{}
	for _, e := range encs {
		for _, n := range e {
			if n != "" {
				keep[n] = true
			}
		}
	}
	for _, n := range metrics[13].codes {
		if n != "" {
			keep[n] = true
		}
	}
	var names []string
	for n := range keep {
		names = append(names, n)
	}
	sort.Strings(names)

	var b bytes.Buffer
	b.WriteString("// Code generated by pkg/pdftext/internal/gendata; DO NOT EDIT.\n\npackage pdftext\n\n")
	var aglNames []string
	for n := range agl {
		aglNames = append(aglNames, n)
	}
	sort.Strings(aglNames)
	aglTexts := make([]string, len(aglNames))
	for i, n := range aglNames {
		aglTexts[i] = agl[n]
	}
	b.WriteString("// aglNames and aglText are the Adobe Glyph List (with TeX Live's\n// additions), sorted by name.\nvar aglNames = [...]string{")
	elements(&b, aglNames, 8, "%q,")
	b.WriteString("\n}\n\nvar aglText = [...]string{")
	elements(&b, aglTexts, 8, "%+q,")
	b.WriteString("\n}\n\n// stdEncodings are Standard, WinAnsi, MacRoman and Symbol, as glyph names.\nvar stdEncodings = [4][256]string{\n")
	for _, e := range encs {
		b.WriteString("{")
		elements(&b, e[:], 16, "%q,")
		b.WriteString("\n},\n")
	}
	b.WriteString("}\n\n// std14Names are the standard 14 fonts, in the order of std14Widths.\nvar std14Names = [...]string{")
	for _, f := range std14 {
		fmt.Fprintf(&b, "%q,", f[0])
	}
	b.WriteString("}\n\n// metricNames are the glyphs std14Widths has widths of, sorted.\nvar metricNames = [...]string{")
	elements(&b, names, 8, "%q,")
	fmt.Fprintf(&b, "\n}\n\n// std14Widths[font][glyph] is a width in 1/1000 em, 0 when the font lacks the glyph.\nvar std14Widths = [%d][%d]uint16{\n", len(std14), len(names))
	for _, m := range metrics {
		widths := make([]int, len(names))
		for i, n := range names {
			widths[i] = m.widths[n]
		}
		b.WriteString("{")
		elements(&b, widths, 16, "%d,")
		b.WriteString("\n},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// elements writes the elements of a Go composite literal, perLine to a
// line, each in format.
func elements[T any](b *bytes.Buffer, items []T, perLine int, format string) {
	for i, v := range items {
		if i%perLine == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, format, v)
	}
}
