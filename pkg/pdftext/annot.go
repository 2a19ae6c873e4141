package pdftext

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// maxAnnotations bounds the annotations read on one page.
const maxAnnotations = 1000

// annotations adds, after the page's text, the text of its notes
// (/Contents of Text and FreeText annotations) and the values of its
// filled form fields (/V of a widget or its field), each on its own
// line and marked, since a viewer shows them over the page.
func (x *extractor) annotations(p pdfobj.Page) {
	d := x.doc
	annots := d.GetArray(p.Dict, "Annots")
	for i, a := range annots {
		if i == maxAnnotations {
			break
		}
		x.check()
		ad := d.Dict(a)
		var line string
		switch d.GetName(ad, "Subtype") {
		case "Text", "FreeText":
			s := oneLine(textString(d.Get(ad, "Contents")))
			if s == "" {
				s = oneLine(x.appearanceText(ad))
			}
			if s != "" {
				line = "[note] " + s
			}
		case "Widget":
			line = x.fieldLine(ad)
		}
		if line != "" {
			x.out.write("\n" + line)
		}
	}
}

// appearanceText is the text an annotation's normal appearance draws
// (some writers put a FreeText's text only there).
func (x *extractor) appearanceText(a pdfobj.Dict) string {
	d := x.doc
	s, ok := d.Get(d.GetDict(a, "AP"), "N").(*pdfobj.Stream)
	if !ok || x.active[s.Ref] {
		return ""
	}
	r, err := x.openContent(s)
	if err != nil {
		return ""
	}
	page := x.out
	x.out = &layout{max: page.max - page.b.Len(), mem: x.mem}
	defer func() {
		x.out.release()
		x.out = page
	}()
	x.active[s.Ref] = true
	defer delete(x.active, s.Ref)
	c := &content{x: x, res: d.GetDict(s.Dict, "Resources"), gs: gstate{ctm: identity, th: 1}, tm: identity, tlm: identity, depth: 1}
	_ = c.run(r)
	return x.out.text()
}

// fieldLine is "[form field NAME] VALUE" for a widget whose field has a
// text or choice value.
func (x *extractor) fieldLine(w pdfobj.Dict) string {
	d := x.doc
	var names []string
	var value pdfobj.Object
	kind := pdfobj.Name("")
	for f, i := w, 0; f != nil && i < 32; f, i = d.GetDict(f, "Parent"), i+1 {
		if value == nil {
			value = d.Get(f, "V")
		}
		if kind == "" {
			kind = d.GetName(f, "FT")
		}
		if t := textString(d.Get(f, "T")); t != "" {
			names = append([]string{t}, names...)
		}
	}
	if kind != "Tx" && kind != "Ch" {
		return ""
	}
	var vals []string
	switch v := value.(type) {
	case pdfobj.String:
		vals = append(vals, textString(v))
	case pdfobj.Array:
		for _, e := range v {
			if s, ok := d.Resolve(e).(pdfobj.String); ok {
				vals = append(vals, textString(s))
			}
		}
	}
	val := oneLine(strings.Join(vals, ", "))
	if val == "" {
		return ""
	}
	return "[form field " + oneLine(strings.Join(names, ".")) + "] " + val
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// textString decodes a PDF text string (PDF 32000-2 §7.9.2.2): UTF-16BE
// or UTF-8 after their byte order marks, else PDFDocEncoding.
func textString(o pdfobj.Object) string {
	s, _ := o.(pdfobj.String)
	b := []byte(s)
	switch {
	case len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff:
		u := make([]uint16, (len(b)-2)/2)
		for i := range u {
			u[i] = uint16(b[2+2*i])<<8 | uint16(b[3+2*i])
		}
		return string(utf16.Decode(u))
	case len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf:
		return strings.ToValidUTF8(string(b[3:]), "")
	}
	var out strings.Builder
	for _, c := range b {
		r := rune(c)
		switch {
		case c >= 0x18 && c <= 0x1f:
			r = []rune("˘ˇˆ˙˝˛˚˜")[c-0x18]
		case c >= 0x80 && c <= 0xa0:
			r = []rune("•†‡…—–ƒ⁄‹›−‰„“”‘’‚™ﬁﬂŁŒŠŸŽıłœšž\uFFFD€")[c-0x80]
		}
		out.WriteRune(r)
	}
	return out.String()
}

// cut shortens s to at most n bytes at a rune boundary.
func cut(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:min(n, len(s))]
}
