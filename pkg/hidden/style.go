package hidden

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// styleHides reports whether a style attribute takes an element's text
// off the page or makes it invisible: display:none, visibility:hidden,
// opacity or font size near zero, a transparent colour or one equal to the
// background, a position far off-screen, a clip, a zero size with overflow
// hidden, scale(0).
//
// Gitea's and Forgejo's sanitiser keeps only color and background-color
// of a style (on div, span, p and table cells), so on their pages the
// rest shows after all; the element is still marked: its author meant it
// hidden, and a forge configured to keep styles, a mirror or a client
// rendering the markdown itself hides it.
func styleHides(v string) bool {
	decl := map[string]string{}
	for _, d := range strings.Split(cssText(v), ";") {
		p, val, ok := strings.Cut(d, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), "!important"))
		decl[strings.TrimSpace(p)] = val
	}
	switch {
	case decl["display"] == "none",
		decl["visibility"] == "hidden", decl["visibility"] == "collapse",
		nearZero(decl["opacity"], 0.05),
		decl["font-size"] != "" && tinyFont(decl["font-size"]),
		invisibleColour(decl["color"]),
		decl["color"] != "" && (decl["color"] == decl["background-color"] || decl["color"] == decl["background"]),
		strings.HasPrefix(decl["clip"], "rect("),
		decl["clip-path"] != "" && decl["clip-path"] != "none",
		strings.Contains(decl["filter"], "opacity(0"),
		scaledAway(decl["transform"]):
		return true
	}
	if p := decl["position"]; p == "absolute" || p == "fixed" {
		for _, k := range []string{"left", "top", "right", "bottom", "margin-left", "margin-top"} {
			if farOff(decl[k]) {
				return true
			}
		}
	}
	if farOff(decl["text-indent"]) {
		return true
	}
	if o := decl["overflow"]; o == "hidden" || o == "clip" {
		for _, k := range []string{"width", "height", "max-width", "max-height"} {
			if nearZero(decl[k], 0) {
				return true
			}
		}
	}
	return false
}

// cssText decodes what a browser decodes before it reads a style: HTML
// character references, CSS comments and escapes; and lower-cases it.
func cssText(v string) string {
	v = decodeEntities(v)
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch {
		case strings.HasPrefix(v[i:], "/*"):
			end := strings.Index(v[i+2:], "*/")
			if end < 0 {
				i = len(v)
			} else {
				i += 2 + end + 1
			}
		case v[i] == '\\' && i+1 < len(v):
			j := i + 1
			for j < len(v) && j < i+7 && isHex(v[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte(v[j])
				i = j
				continue
			}
			n, _ := strconv.ParseUint(v[i+1:j], 16, 32)
			b.WriteRune(rune(n))
			if j < len(v) && isHTMLSpace(v[j]) {
				j++
			}
			i = j - 1
		default:
			b.WriteByte(v[i])
		}
	}
	return strings.ToLower(b.String())
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }

// decodeEntities decodes numeric character references and the named ones
// that can spell CSS.
func decodeEntities(v string) string {
	if !strings.Contains(v, "&") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '&' {
			b.WriteByte(v[i])
			continue
		}
		end := strings.IndexByte(v[i:], ';')
		if end < 0 || end > 32 {
			b.WriteByte('&')
			continue
		}
		ref := v[i+1 : i+end]
		if r, ok := entity(ref); ok {
			b.WriteRune(r)
			i += end
			continue
		}
		b.WriteByte('&')
	}
	return b.String()
}

func entity(ref string) (rune, bool) {
	if strings.HasPrefix(ref, "#x") || strings.HasPrefix(ref, "#X") {
		n, err := strconv.ParseUint(ref[2:], 16, 32)
		return rune(n), err == nil && utf8.ValidRune(rune(n))
	}
	if strings.HasPrefix(ref, "#") {
		n, err := strconv.ParseUint(ref[1:], 10, 32)
		return rune(n), err == nil && utf8.ValidRune(rune(n))
	}
	names := map[string]rune{
		"colon": ':', "semi": ';', "newline": '\n', "tab": '\t', "lpar": '(', "rpar": ')',
		"quot": '"', "apos": '\'', "amp": '&', "lt": '<', "gt": '>', "excl": '!', "num": '#',
		"percnt": '%', "period": '.', "comma": ',', "sol": '/', "bsol": '\\', "ast": '*',
		"midast": '*', "plus": '+', "equals": '=',
	}
	r, ok := names[strings.ToLower(ref)]
	return r, ok
}

// number reads the leading number of a CSS value and its unit.
func number(v string) (float64, string, bool) {
	v = strings.TrimSpace(v)
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.' || v[i] == '-' || v[i] == '+') {
		i++
	}
	f, err := strconv.ParseFloat(v[:i], 64)
	return f, strings.TrimSpace(v[i:]), err == nil
}

func nearZero(v string, limit float64) bool {
	f, unit, ok := number(v)
	if !ok {
		return false
	}
	if unit == "%" {
		f /= 100
	}
	return f <= limit && f >= -limit
}

func tinyFont(v string) bool {
	f, unit, ok := number(v)
	if !ok {
		return false
	}
	switch unit {
	case "em", "rem", "ex", "ch":
		return f < 0.2
	case "%":
		return f < 20
	}
	return f < 2 // px, pt, or none
}

func farOff(v string) bool {
	f, _, ok := number(v)
	return ok && f <= -100
}

func scaledAway(v string) bool {
	for _, fn := range []string{"scale(", "scalex(", "scaley(", "scale3d("} {
		if i := strings.Index(v, fn); i >= 0 && nearZero(v[i+len(fn):], 0) {
			return true
		}
	}
	return false
}

// invisibleColour reports transparent, or a colour with alpha zero.
func invisibleColour(v string) bool {
	v = strings.ReplaceAll(v, " ", "")
	switch {
	case v == "transparent":
		return true
	case strings.HasPrefix(v, "#") && (len(v) == 5 && v[4] == '0' || len(v) == 9 && v[7:] == "00"):
		return true
	case strings.HasPrefix(v, "rgba(") || strings.HasPrefix(v, "hsla(") || strings.HasPrefix(v, "rgb(") || strings.HasPrefix(v, "hsl("):
		in := strings.TrimSuffix(v[strings.IndexByte(v, '(')+1:], ")")
		sep := strings.LastIndexAny(in, ",/")
		withAlpha := strings.Count(in, ",") == 3 || strings.Contains(in, "/")
		return sep >= 0 && withAlpha && nearZero(in[sep+1:], 0)
	}
	return false
}
