package pdftext

import (
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// The content stream interpreter (PDF 32000-2 §8, §9.3, §9.4): it keeps
// the graphics and text state that decide where each glyph lands, and
// hands glyphs to the layout. stream.go reads the operators and their
// operands within bounds; q nests at most maxSaveDepth deep, forms
// maxFormDepth.
const (
	maxSaveDepth = 256
	maxFormDepth = 12
)

type gstate struct {
	ctm                  matrix
	font                 *font
	size                 float64
	tc, tw, th, tl, rise float64
}

// set is a text state operator of one number (PDF 32000-2 §9.3): Tc
// character spacing, Tw word spacing, Tz horizontal scaling (in percent),
// TL leading, Ts rise.
func (gs *gstate) set(op string, v float64) {
	switch op {
	case "Tc":
		gs.tc = v
	case "Tw":
		gs.tw = v
	case "Tz":
		gs.th = v / 100
	case "TL":
		gs.tl = v
	case "Ts":
		gs.rise = v
	}
}

// content interprets one content stream with its resources.
type content struct {
	x     *extractor
	res   pdfobj.Dict
	gs    gstate
	saved []gstate
	tm    matrix
	tlm   matrix
	depth int
}

func num(o pdfobj.Object) float64 {
	switch v := o.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

func nums(args []pdfobj.Object, n int) ([]float64, bool) {
	if len(args) < n {
		return nil, false
	}
	out := make([]float64, n)
	for i, a := range args[len(args)-n:] {
		out[i] = num(a)
	}
	return out, true
}

func (c *content) op(op string, args []pdfobj.Object) {
	gs := &c.gs
	switch op {
	case "q":
		if len(c.saved) < maxSaveDepth {
			c.saved = append(c.saved, *gs)
		}
	case "Q":
		if n := len(c.saved); n > 0 {
			*gs = c.saved[n-1]
			c.saved = c.saved[:n-1]
		}
	case "cm":
		if v, ok := nums(args, 6); ok {
			if m := (matrix{v[0], v[1], v[2], v[3], v[4], v[5]}).mul(gs.ctm); m.sane() {
				gs.ctm = m
			}
		}
	case "BT":
		c.tm, c.tlm = identity, identity
	case "Tf":
		if len(args) >= 2 {
			name, _ := args[len(args)-2].(pdfobj.Name)
			gs.font = c.x.font(c.res, name)
			gs.size = num(args[len(args)-1])
		}
	case "Tc", "Tw", "Tz", "TL", "Ts":
		if v, ok := nums(args, 1); ok {
			gs.set(op, v[0])
		}
	case "Td":
		if v, ok := nums(args, 2); ok {
			c.moveLine(v[0], v[1])
		}
	case "TD":
		if v, ok := nums(args, 2); ok {
			gs.tl = -v[1]
			c.moveLine(v[0], v[1])
		}
	case "Tm":
		if v, ok := nums(args, 6); ok {
			if m := (matrix{v[0], v[1], v[2], v[3], v[4], v[5]}); m.sane() {
				c.tm, c.tlm = m, m
			}
		}
	case "T*":
		c.moveLine(0, -gs.tl)
	case "Tj":
		if len(args) > 0 {
			c.show(args[len(args)-1])
		}
	case "'":
		c.moveLine(0, -gs.tl)
		if len(args) > 0 {
			c.show(args[len(args)-1])
		}
	case "\"":
		if len(args) >= 3 {
			gs.tw, gs.tc = num(args[len(args)-3]), num(args[len(args)-2])
			c.moveLine(0, -gs.tl)
			c.show(args[len(args)-1])
		}
	case "TJ":
		if len(args) > 0 {
			a, _ := args[len(args)-1].(pdfobj.Array)
			for _, e := range a {
				if _, ok := e.(pdfobj.String); ok {
					c.show(e)
				} else {
					c.tm = translate(-num(e)/1000*gs.size*gs.th, 0).mul(c.tm)
				}
			}
		}
	case "Do":
		if len(args) > 0 {
			name, _ := args[len(args)-1].(pdfobj.Name)
			c.do(name)
		}
	}
}

func (c *content) moveLine(tx, ty float64) {
	c.tlm = translate(tx, ty).mul(c.tlm)
	c.tm = c.tlm
}

// show places each glyph of the string s and moves the text matrix past
// it (PDF 32000-2 §9.4.4).
func (c *content) show(s pdfobj.Object) {
	raw, _ := s.(pdfobj.String)
	gs := &c.gs
	ft := gs.font
	if ft == nil {
		ft = c.x.defaultFont()
	}
	c.x.check()
	c.x.glyphBuf = ft.glyphs([]byte(raw), c.x.glyphBuf[:0], c.x.mem)
	for i, g := range c.x.glyphBuf {
		if i&255 == 255 {
			c.x.check()
		}
		adv := g.w*gs.size + gs.tc
		if g.space {
			adv += gs.tw
		}
		m := c.tm.mul(gs.ctm)
		// The pen moves by the advance; the glyph ends at its width, as
		// poppler's TextPage::addChar takes it: the character and word
		// spacing after it are a gap, which is how justified groff and
		// ps2pdf output spaces words (3.4 Tc (ns) Tj sets "n s").
		var tx, ty, ex, ey float64
		if ft.vertical {
			ey = -gs.size
			ty = ey - gs.tc
			if g.space {
				ty -= gs.tw
			}
		} else {
			tx = adv * gs.th
			ex = g.w * gs.size * gs.th
		}
		x0, y0 := m.apply(0, gs.rise)
		x1, y1 := m.apply(ex, ey+gs.rise)
		size := gs.size * m.scaleY()
		c.x.out.glyph(g.text, x0, y0, x1, y1, m, size, ft.space*size*gs.th, ft.vertical)
		c.tm = translate(tx, ty).mul(c.tm)
	}
}

// do runs a Form XObject (its resources, else the current ones; its
// matrix) within the depth limit; a form that contains itself ends there.
func (c *content) do(name pdfobj.Name) {
	x := c.x
	xo := x.doc.GetDict(c.res, "XObject")
	s, ok := x.doc.Get(xo, name).(*pdfobj.Stream)
	if !ok {
		return
	}
	switch x.doc.GetName(s.Dict, "Subtype") {
	case "Image":
		x.sawImage = true
		return
	case "Form":
	default:
		return
	}
	if c.depth >= maxFormDepth || x.active[s.Ref] || x.spoiled[s.Ref] {
		return
	}
	r, err := x.openContent(s)
	if err != nil {
		if x.note == "" {
			x.note = "a form in it cannot be read: " + why(err)
		}
		return
	}
	x.active[s.Ref] = true
	defer delete(x.active, s.Ref)
	sub := &content{x: x, res: c.res, gs: c.gs, depth: c.depth + 1, tm: identity, tlm: identity}
	if res := x.doc.GetDict(s.Dict, "Resources"); res != nil {
		sub.res = res
	}
	if m, ok := nums(x.doc.GetArray(s.Dict, "Matrix"), 6); ok {
		if mm := (matrix{m[0], m[1], m[2], m[3], m[4], m[5]}).mul(c.gs.ctm); mm.sane() {
			sub.gs.ctm = mm
		}
	}
	stopped := x.work.Stopped
	sub.interpret(r)
	if x.work.Stopped > stopped {
		x.spoiled[s.Ref] = true // a hostile form is not read again
	}
}

// defaultFont stands in for a missing font: codes as Latin-1 text.
func (x *extractor) defaultFont() *font {
	if x.fallback == nil {
		ft := &font{simple: true, scale: 0.001, missing: 500}
		ft.names = stdEncodings[encStandard]
		ft.space = 0.25
		x.fallback = ft
	}
	return x.fallback
}
