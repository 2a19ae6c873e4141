package pdftext

import (
	"bytes"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// layout turns placed glyphs into text in content order: a space where
// the gap from the previous glyph's end is wider than a fraction of a
// space, a line break where the baseline moves, a glyph drawn again on top
// of itself (fake bold, shadows) dropped, a word hyphenated at the end of
// a line joined again (as pdftotext does), right-to-left runs put in
// logical order. Positions are in device space, so text placed by Tm,
// Td, cm or a form's matrix all compare alike.
type layout struct {
	b         bytes.Buffer
	max       int            // bytes of text at most
	mem       *pdfobj.Budget // charged for b's room as it grows
	charged   int64
	full      bool
	started   bool
	lineStart int
	px, py    float64 // the previous glyph's end
	pdx, pdy  float64 // its direction (unit)
	psize     float64
	space     bool // a space glyph waits to be written
	recent    [16]placed
	nrecent   int
	spaced    spacedLine
}

// spacedLine follows a line whose words are all one glyph long, the way
// letter-spaced headings ("요 약", "C O N T E N T S") and tables of
// single characters are set: poppler joins such a line's glyphs when
// their gaps are within 1.3 times the narrowest (at most 0.4 of the
// size), and so does the layout when the line ends.
type spacedLine struct {
	broken bool // a word of two glyphs or more: not such a line
	glyphs int  // glyphs in the line's last word
	n      int  // spaces written, at[:n]
	at     [64]int
	gap    [64]float64
	size   float64
}

type placed struct {
	text string
	x, y float64
}

// gapFraction of a space width is the gap that separates words.
const gapFraction = 0.4

// glyph adds a glyph shown from (x0, y0) to (x1, y1) in text matrix m;
// size is the text size and spaceW a space's width, both in device units.
func (l *layout) glyph(text string, x0, y0, x1, y1 float64, m matrix, size, spaceW float64, vertical bool) {
	if l.full {
		panic(errFull)
	}
	dx, dy := x1-x0, y1-y0
	n := math.Hypot(dx, dy)
	if n < 1e-9 {
		// No advance: the text direction is the matrix's x axis.
		dx, dy = m[0], m[1]
		if vertical {
			dx, dy = -m[2], -m[3]
		}
		n = math.Hypot(dx, dy)
		if n < 1e-9 {
			dx, dy, n = 1, 0, 1
		}
	}
	dx, dy = dx/n, dy/n
	size = math.Abs(size)
	if size < 1e-6 {
		size = 1e-6
	}
	if strings.TrimSpace(text) == "" {
		if text != "" && l.started {
			l.space = true
		}
		l.px, l.py, l.pdx, l.pdy = x1, y1, dx, dy
		return
	}
	if l.duplicate(text, x0, y0, size) {
		return
	}
	if l.started {
		gx, gy := x0-l.px, y0-l.py
		along := gx*l.pdx + gy*l.pdy
		across := -gx*l.pdy + gy*l.pdx
		sz := math.Max(size, l.psize)
		turned := dx*l.pdx+dy*l.pdy < 0.9
		wordGap := gapFraction * spaceW
		if math.Abs(size-l.psize) > 0.05*sz {
			// Another size (a footnote mark, a superscript) starts a
			// word of its own; poppler spaces it from the last at a gap
			// of 0.03 of the size.
			wordGap = math.Min(wordGap, 0.03*l.psize)
		}
		switch {
		case math.Abs(across) > 0.5*sz || turned || along < -20*sz:
			l.newline(text)
		case l.space || along > wordGap || along < -0.6*sz:
			l.spaced.note(l.b.Len(), along, sz)
			l.write(" ")
		}
	}
	l.space = false
	l.started = true
	l.write(text)
	l.spaced.glyphs++
	if l.spaced.glyphs > 1 {
		l.spaced.broken = true
	}
	l.px, l.py, l.pdx, l.pdy, l.psize = x1, y1, dx, dy, size
	l.recent[l.nrecent%len(l.recent)] = placed{text, x0, y0}
	l.nrecent++
}

// duplicate reports a glyph drawn where the same glyph was just drawn.
func (l *layout) duplicate(text string, x, y, size float64) bool {
	for i := range min(l.nrecent, len(l.recent)) {
		p := l.recent[i]
		if p.text == text && math.Abs(p.x-x) < 0.1*size && math.Abs(p.y-y) < 0.1*size {
			return true
		}
	}
	return false
}

// newline ends the line, or joins a word hyphenated across it.
func (l *layout) newline(next string) {
	l.join()
	s := l.b.Bytes()[l.lineStart:]
	if r, _ := utf8.DecodeRuneInString(next); unicode.IsLetter(r) {
		if h, hl := utf8.DecodeLastRune(s); h == '-' || h == '\u00ad' {
			if p, _ := utf8.DecodeLastRune(s[:len(s)-hl]); unicode.IsLower(p) {
				l.b.Truncate(l.b.Len() - hl)
				return
			}
		}
	}
	l.write("\n")
	l.lineStart = l.b.Len()
	l.nrecent = 0
}

// note records a space about to be written at offset at, for a gap of
// the given width between glyphs of the given size.
func (sl *spacedLine) note(at int, gap, size float64) {
	if sl.glyphs > 1 || sl.n == len(sl.at) {
		sl.broken = true
	}
	if !sl.broken {
		sl.at[sl.n], sl.gap[sl.n] = at, gap
		sl.n++
		sl.size = math.Max(sl.size, size)
	}
	sl.glyphs = 0
}

// join ends the line's letter-spacing check: on a line of one-glyph
// words, the spaces whose gap is within poppler's threshold go.
func (l *layout) join() {
	sl := l.spaced
	l.spaced = spacedLine{}
	if sl.broken || sl.glyphs > 1 || sl.n == 0 {
		return
	}
	narrowest := sl.gap[0]
	for _, g := range sl.gap[1:sl.n] {
		narrowest = min(narrowest, g)
	}
	if narrowest <= 0 {
		return
	}
	limit := min(1.3*narrowest, 0.4*sl.size)
	b := l.b.Bytes()
	end := len(b)
	for i := sl.n - 1; i >= 0; i-- {
		if at := sl.at[i]; sl.gap[i] < limit && at < end && b[at] == ' ' {
			copy(b[at:], b[at+1:end])
			end--
		}
	}
	l.b.Truncate(end)
}

// room makes room for n more bytes, charging the budget for the larger
// buffer before it is made.
func (l *layout) room(n int) {
	if l.b.Len()+n <= l.b.Cap() {
		return
	}
	grown := int64(2*l.b.Cap() + n)
	l.mem.Take(grown)
	l.mem.Give(l.charged)
	l.charged = grown
	l.b.Grow(n)
}

// release gives back what the buffer was charged.
func (l *layout) release() {
	l.mem.Give(l.charged)
	l.charged = 0
}

// write appends text, cleaned: ligatures expanded, soft hyphens,
// control characters and U+FFFD dropped. Past the budget it stops the
// page (errFull).
func (l *layout) write(text string) {
	l.room(len(text))
	for _, r := range text {
		switch {
		case r == '\n' || r == ' ':
		case r == '\t':
			r = ' '
		case r == utf8.RuneError || r == '\u00ad' && text != "\u00ad" || unicode.IsControl(r):
			continue
		case r >= 0xFB00 && r <= 0xFB06:
			l.b.WriteString(ligature(r))
			continue
		}
		if r == '\u00ad' {
			r = '-' // a soft hyphen alone ends a line's word: join if it does
		}
		l.b.WriteRune(r)
	}
	if l.b.Len() > l.max {
		l.full = true
		panic(errFull)
	}
}

// text is the page's text so far.
func (l *layout) text() string {
	l.join()
	return logicalLines(strings.TrimSpace(l.b.String()))
}
