package pdftext

import (
	"unicode/utf16"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// cmap is a CMap (PDF 32000-2 §9.7.5, §9.10.3): the code space, which
// splits a string into codes of one to four bytes, and a map from codes
// to Unicode text (a ToUnicode CMap: bfchar, bfrange) or to CIDs (an
// encoding CMap: cidchar, cidrange). Ranges are kept as ranges and looked
// up through an index (spans), the entries are bounded, and what it holds
// is charged to the extraction's budget (cost), so neither a hostile
// count nor a hostile range costs a glyph more than a binary search.
type cmap struct {
	space  []codeRange
	short  int               // the shortest code length of the code space
	spaces [5]spans          // by code length: the code space ranges
	chars  map[uint64]string // ToUnicode single codes, by key(n, code)
	cids   map[uint64]int
	ranges []cmapRange
	texts  [5]spans // by code length: the bfranges, the last defined winning
	cidx   [5]spans // by code length: the cidranges, likewise
	cost   int64    // bytes charged to the budget for all of it
}

type codeRange struct {
	n      int
	lo, hi uint32
}

type cmapRange struct {
	n      uint8
	hasCID bool
	lo, hi uint32
	cid    int32    // cidrange: the first code's CID
	text   string   // bfrange: the first code's text; the last rune counts up
	list   []string // bfrange with an array: one text per code
}

// maxCMapEntries bounds a CMap's entries: chars, ranges, code space
// ranges and the texts of bfrange arrays together. The largest real ones
// (CJK fonts' ToUnicode) have some 30,000.
const maxCMapEntries = 1 << 16

// What a CMap's entries hold, in bytes, charged before they are made
// (measured on Go 1.26 with 131,072 entries of each kind: 1.0 to 1.9
// times what Go holds for them).
const (
	costChar  = 40  // a bfchar or cidchar: the map's entry
	costRange = 112 // a range and its room in the list (doubled as it grows)
	costText  = 48  // a text of a bfrange array
)

func key(n int, code uint32) uint64 { return uint64(n)<<32 | uint64(code) }

func codeOf(b []byte) uint32 {
	var v uint32
	for _, c := range b {
		v = v<<8 | uint32(c)
	}
	return v
}

// utf16Text decodes a bfchar destination: UTF-16BE (a lone surrogate is
// U+FFFD), or single bytes when the length is odd (a writer's mistake).
// It allocates the text alone: a CMap has up to 65,536 of them.
func utf16Text(b []byte) string {
	var buf [64]byte
	out := buf[:0]
	if len(b)%2 == 1 {
		for _, c := range b {
			out = utf8.AppendRune(out, rune(c))
		}
		return string(out)
	}
	for i := 0; i+1 < len(b); i += 2 {
		r := rune(b[i])<<8 | rune(b[i+1])
		if utf16.IsSurrogate(r) {
			if i+3 < len(b) {
				if pair := utf16.DecodeRune(r, rune(b[i+2])<<8|rune(b[i+3])); pair != utf8.RuneError {
					out = utf8.AppendRune(out, pair)
					i += 2
					continue
				}
			}
			r = utf8.RuneError
		}
		out = utf8.AppendRune(out, r)
	}
	return string(out)
}

// parseCMap reads a CMap's blocks from data, charging mem for what it
// keeps; check is called for each token (a deadline).
func parseCMap(data []byte, mem *pdfobj.Budget, check func()) *cmap {
	m := &cmap{chars: map[uint64]string{}, cids: map[uint64]int{}, short: 4}
	defer func() {
		if r := recover(); r != nil {
			mem.Give(m.cost) // a CMap stopped part way is not kept
			panic(r)
		}
	}()
	take := func(n int64) {
		mem.Take(n)
		m.cost += n
	}
	l := pdfobj.NewLexer(data, 0)
	l.MaxString = 1 << 10
	l.Check = check
	entries := 0
	for entries < maxCMapEntries {
		t := l.Next()
		if t.Kind == pdfobj.EOF {
			break
		}
		if t.Kind != pdfobj.Keyword {
			continue
		}
		block := string(t.Bytes)
		switch block {
		case "begincodespacerange", "beginbfchar", "beginbfrange", "begincidchar", "begincidrange":
		default:
			continue
		}
		for entries < maxCMapEntries {
			a := l.Next()
			if a.Kind != pdfobj.StringTok {
				break // the end keyword, or garbage
			}
			n, lo := len(a.Bytes), codeOf(a.Bytes)
			if n == 0 || n > 4 {
				continue
			}
			entries++
			switch block {
			case "beginbfchar":
				b := l.Next()
				var text string
				switch b.Kind {
				case pdfobj.StringTok:
					take(costChar + 2*int64(len(b.Bytes)))
					text = utf16Text(b.Bytes)
				case pdfobj.NameTok:
					take(costChar + int64(len(b.Bytes)))
					text = glyphText(string(b.Bytes))
				default:
					continue
				}
				m.chars[key(n, lo)] = text
			case "begincidchar":
				if b := l.Next(); b.Kind == pdfobj.Int {
					take(costChar)
					m.cids[key(n, lo)] = int(b.Int)
				}
			default:
				b := l.Next()
				if b.Kind != pdfobj.StringTok || len(b.Bytes) != n {
					continue
				}
				r := cmapRange{n: uint8(n), lo: lo, hi: codeOf(b.Bytes)}
				if r.hi < r.lo {
					continue
				}
				take(costRange)
				if block == "begincodespacerange" {
					m.space = appendDoubling(m.space, codeRange{n, r.lo, r.hi})
					continue
				}
				c := l.Next()
				switch {
				case block == "begincidrange" && c.Kind == pdfobj.Int:
					r.cid, r.hasCID = int32(c.Int), true
				case c.Kind == pdfobj.StringTok:
					take(2 * int64(len(c.Bytes)))
					r.text = utf16Text(c.Bytes)
				case c.Kind == pdfobj.ArrayOpen:
					for entries < maxCMapEntries {
						e := l.Next()
						if e.Kind != pdfobj.StringTok {
							break
						}
						entries++
						take(costText + 4*int64(len(e.Bytes)))
						r.list = appendDoubling(r.list, utf16Text(e.Bytes))
					}
				default:
					continue
				}
				m.ranges = appendDoubling(m.ranges, r)
			}
		}
	}
	m.index(mem, check)
	return m
}

// index builds the lookups of the code space and the ranges: per code
// length, the later range winning where two overlap (as a scan from the
// last one found).
func (m *cmap) index(mem *pdfobj.Budget, check func()) {
	var space, texts, cids [5][]interval
	for _, r := range m.space {
		space[r.n] = append(space[r.n], interval{lo: r.lo, hi: r.hi})
		m.short = min(m.short, r.n)
	}
	for i, r := range m.ranges {
		iv := interval{lo: r.lo, hi: r.hi, prio: int64(i), id: int32(i)}
		if r.hasCID {
			cids[r.n] = append(cids[r.n], iv)
		} else {
			texts[r.n] = append(texts[r.n], iv)
		}
	}
	// Building takes about 48 bytes an interval for a moment; the index
	// keeps at most two pieces an interval.
	build := int64(48 * (len(m.space) + len(m.ranges)))
	mem.Take(build)
	defer mem.Give(build)
	for n := 1; n <= 4; n++ {
		m.spaces[n] = buildSpans(space[n], check)
		m.texts[n] = buildSpans(texts[n], check)
		m.cidx[n] = buildSpans(cids[n], check)
		c := costSpans(len(m.spaces[n]) + len(m.texts[n]) + len(m.cidx[n]))
		mem.Take(c)
		m.cost += c
	}
}

// text is the Unicode text of code (n bytes), ok false when the CMap has
// none.
func (m *cmap) text(n int, code uint32) (string, bool) {
	if s, ok := m.chars[key(n, code)]; ok {
		return s, true
	}
	if n < 1 || n > 4 {
		return "", false
	}
	i, ok := m.texts[n].find(code)
	if !ok {
		return "", false
	}
	return m.ranges[i].textAt(code)
}

// textAt is the text of code, which r covers: its entry in r's list, or
// r's text with its last character moved on by code's offset.
func (r *cmapRange) textAt(code uint32) (string, bool) {
	off := int(code - r.lo)
	if r.list != nil {
		if off < len(r.list) {
			return r.list[off], true
		}
		return "", false
	}
	if len(r.text) == 0 {
		return "", true
	}
	t := []rune(r.text)
	t[len(t)-1] += rune(off)
	return string(t), true
}

// cid is the CID of code (n bytes) in an encoding CMap.
func (m *cmap) cid(n int, code uint32) (int, bool) {
	if c, ok := m.cids[key(n, code)]; ok {
		return c, true
	}
	if n < 1 || n > 4 {
		return 0, false
	}
	if i, ok := m.cidx[n].find(code); ok {
		r := &m.ranges[i]
		return int(r.cid) + int(code-r.lo), true
	}
	return 0, false
}

// split returns the length of the code at the start of s: the code space
// range that matches it, else (no code space) two bytes, else one.
func (m *cmap) split(s []byte, fallback int) int {
	for n := 1; n <= 4 && n <= len(s); n++ {
		if _, ok := m.spaces[n].find(codeOf(s[:n])); ok {
			return n
		}
	}
	if len(m.space) > 0 {
		// No range matched: take the shortest code length defined.
		return min(m.short, len(s))
	}
	return min(fallback, len(s))
}
