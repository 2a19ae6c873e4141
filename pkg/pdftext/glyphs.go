package pdftext

//go:generate go run ./internal/gendata -o stddata.go

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Glyph names to text (PDF 32000-2 §9.10.2): the Adobe Glyph List, then
// the uniXXXX and uXXXX[XX] conventions, then a name's base before a
// suffix ("a.sc", "f_i" as its parts).

// glyphText is the text of glyph name n, "" when it names nothing known.
func glyphText(n string) string {
	if n == "" || n == ".notdef" {
		return ""
	}
	if i := sort.SearchStrings(aglNames[:], n); i < len(aglNames) && aglNames[i] == n {
		return aglText[i]
	}
	if s, ok := uniName(n); ok {
		return s
	}
	if base, _, ok := strings.Cut(n, "."); ok && base != "" {
		return glyphText(base)
	}
	if strings.Contains(n, "_") {
		var b strings.Builder
		for _, part := range strings.Split(n, "_") {
			t := glyphText(part)
			if t == "" {
				return ""
			}
			b.WriteString(t)
		}
		return b.String()
	}
	return ""
}

// uniName reads "uni0041" (one or more groups of four hex digits) and
// "u1F600" (four to six).
func uniName(n string) (string, bool) {
	switch {
	case strings.HasPrefix(n, "uni") && len(n) >= 7 && (len(n)-3)%4 == 0:
		var b strings.Builder
		for i := 3; i < len(n); i += 4 {
			r, ok := hexRune(n[i : i+4])
			if !ok {
				return "", false
			}
			b.WriteRune(r)
		}
		return b.String(), true
	case strings.HasPrefix(n, "u") && len(n) >= 5 && len(n) <= 7:
		if r, ok := hexRune(n[1:]); ok {
			return string(r), true
		}
	}
	return "", false
}

func hexRune(h string) (rune, bool) {
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
			return 0, false // the conventions want upper case
		}
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil || (v >= 0xD800 && v <= 0xDFFF) || v > utf8.MaxRune {
		return 0, false
	}
	return rune(v), true
}

// Encodings by index in stdEncodings.
const (
	encStandard = iota
	encWinAnsi
	encMacRoman
	encSymbol
)

// stdWidths returns the widths table of a standard 14 font named base (a
// usual alias such as Arial or TimesNewRoman,Bold included), or -1.
func stdFont(base string) int {
	// A subset prefix "ABCDEF+" is not part of the name.
	if len(base) > 7 && base[6] == '+' {
		base = base[7:]
	}
	name := strings.NewReplacer(",", "-", " ", "").Replace(base)
	family, style, _ := strings.Cut(name, "-")
	bold := strings.Contains(style, "Bold")
	italic := strings.Contains(style, "Italic") || strings.Contains(style, "Oblique")
	var f string
	switch family {
	case "Courier", "CourierNew", "CourierNewPSMT", "NimbusMonoPS", "NimbusMonL":
		f = "Courier"
	case "Helvetica", "Arial", "ArialMT", "NimbusSans", "NimbusSanL", "LiberationSans":
		f = "Helvetica"
	case "Times", "TimesNewRoman", "TimesNewRomanPSMT", "Times-Roman", "NimbusRoman", "NimbusRomNo9L", "LiberationSerif":
		f = "Times"
	case "Symbol", "StandardSymbolsPS", "StandardSymL":
		return indexOf("Symbol")
	case "ZapfDingbats", "Dingbats", "D050000L":
		return indexOf("ZapfDingbats")
	default:
		return -1
	}
	switch {
	case f == "Times" && bold && italic:
		return indexOf("Times-BoldItalic")
	case f == "Times" && bold:
		return indexOf("Times-Bold")
	case f == "Times" && italic:
		return indexOf("Times-Italic")
	case f == "Times":
		return indexOf("Times-Roman")
	case bold && italic:
		return indexOf(f + "-BoldOblique")
	case bold:
		return indexOf(f + "-Bold")
	case italic:
		return indexOf(f + "-Oblique")
	}
	return indexOf(f)
}

func indexOf(font string) int {
	for i, n := range std14Names {
		if n == font {
			return i
		}
	}
	return -1
}

// stdWidth is glyph n's width in standard font f (1/1000 em), 0 if none.
func stdWidth(f int, n string) float64 {
	if f < 0 {
		return 0
	}
	i := sort.SearchStrings(metricNames[:], n)
	if i < len(metricNames) && metricNames[i] == n {
		return float64(std14Widths[f][i])
	}
	return 0
}

// ligature is the letters of a Latin ligature U+FB00–FB06, which an
// agent's search would otherwise miss ("oﬃce" for "office").
func ligature(r rune) string {
	switch r {
	case 0xFB00:
		return "ff"
	case 0xFB01:
		return "fi"
	case 0xFB02:
		return "fl"
	case 0xFB03:
		return "ffi"
	case 0xFB04:
		return "ffl"
	case 0xFB05, 0xFB06:
		return "st"
	}
	return ""
}
