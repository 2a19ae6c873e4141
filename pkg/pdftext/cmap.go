package pdftext

import (
	"unicode/utf16"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// cmap is a CMap (PDF 32000-2 §9.7.5, §9.10.3): the code space, which
// splits a string into codes of one to four bytes, and a map from codes
// to Unicode text (a ToUnicode CMap: bfchar, bfrange) or to CIDs (an
// encoding CMap: cidchar, cidrange). Ranges are kept as ranges, and the
// entries are bounded, so a hostile count costs nothing.
type cmap struct {
	space  []codeRange
	chars  map[uint64]string // ToUnicode single codes, by key(n, code)
	cids   map[uint64]int
	ranges []cmapRange
}

type codeRange struct {
	n      int
	lo, hi uint32
}

type cmapRange struct {
	n      int
	lo, hi uint32
	text   []rune   // bfrange: the first code's text; the last rune counts up
	list   []string // bfrange with an array: one text per code
	cid    int      // cidrange: the first code's CID
	hasCID bool
}

// maxCMapEntries bounds a CMap's entries (chars and ranges together).
const maxCMapEntries = 1 << 17

func key(n int, code uint32) uint64 { return uint64(n)<<32 | uint64(code) }

func codeOf(b []byte) uint32 {
	var v uint32
	for _, c := range b {
		v = v<<8 | uint32(c)
	}
	return v
}

// utf16Text decodes a bfchar destination: UTF-16BE, or single bytes
// when the length is odd (a writer's mistake).
func utf16Text(b []byte) []rune {
	if len(b)%2 == 1 {
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return r
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	return utf16.Decode(u)
}

// parseCMap reads a CMap's blocks from data.
func parseCMap(data []byte) *cmap {
	m := &cmap{chars: map[uint64]string{}, cids: map[uint64]int{}}
	l := pdfobj.NewLexer(data, 0)
	l.MaxString = 1 << 10
	entries := 0
	for {
		t := l.Next()
		if t.Kind == pdfobj.EOF {
			return m
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
			lo := append([]byte(nil), a.Bytes...)
			n := len(lo)
			if n == 0 || n > 4 {
				continue
			}
			entries++
			switch block {
			case "beginbfchar":
				b := l.Next()
				if b.Kind == pdfobj.StringTok {
					m.chars[key(n, codeOf(lo))] = string(utf16Text(b.Bytes))
				} else if b.Kind == pdfobj.NameTok {
					m.chars[key(n, codeOf(lo))] = glyphText(string(b.Bytes))
				}
			case "begincidchar":
				if b := l.Next(); b.Kind == pdfobj.Int {
					m.cids[key(n, codeOf(lo))] = int(b.Int)
				}
			default:
				b := l.Next()
				if b.Kind != pdfobj.StringTok || len(b.Bytes) != n {
					continue
				}
				r := cmapRange{n: n, lo: codeOf(lo), hi: codeOf(b.Bytes)}
				if r.hi < r.lo {
					continue
				}
				if block == "begincodespacerange" {
					m.space = append(m.space, codeRange{n, r.lo, r.hi})
					continue
				}
				c := l.Next()
				switch {
				case block == "begincidrange" && c.Kind == pdfobj.Int:
					r.cid, r.hasCID = int(c.Int), true
				case c.Kind == pdfobj.StringTok:
					r.text = utf16Text(c.Bytes)
				case c.Kind == pdfobj.ArrayOpen:
					for {
						e := l.Next()
						if e.Kind != pdfobj.StringTok || len(r.list) > 1<<16 {
							break
						}
						r.list = append(r.list, string(utf16Text(e.Bytes)))
					}
				default:
					continue
				}
				m.ranges = append(m.ranges, r)
			}
		}
	}
}

// text is the Unicode text of code (n bytes), ok false when the CMap has
// none.
func (m *cmap) text(n int, code uint32) (string, bool) {
	if s, ok := m.chars[key(n, code)]; ok {
		return s, true
	}
	for i := len(m.ranges) - 1; i >= 0; i-- {
		r := &m.ranges[i]
		if r.n != n || code < r.lo || code > r.hi || r.hasCID {
			continue
		}
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
		t := append([]rune(nil), r.text...)
		t[len(t)-1] += rune(off)
		return string(t), true
	}
	return "", false
}

// cid is the CID of code (n bytes) in an encoding CMap.
func (m *cmap) cid(n int, code uint32) (int, bool) {
	if c, ok := m.cids[key(n, code)]; ok {
		return c, true
	}
	for i := len(m.ranges) - 1; i >= 0; i-- {
		r := &m.ranges[i]
		if r.hasCID && r.n == n && code >= r.lo && code <= r.hi {
			return r.cid + int(code-r.lo), true
		}
	}
	return 0, false
}

// split returns the length of the code at the start of s: the code space
// range that matches it, else (no code space) two bytes, else one.
func (m *cmap) split(s []byte, fallback int) int {
	for n := 1; n <= 4 && n <= len(s); n++ {
		c := codeOf(s[:n])
		for _, r := range m.space {
			if r.n == n && c >= r.lo && c <= r.hi {
				return n
			}
		}
	}
	if len(m.space) > 0 {
		// No range matched: take the shortest code length defined.
		short := 4
		for _, r := range m.space {
			short = min(short, r.n)
		}
		return min(short, len(s))
	}
	return min(fallback, len(s))
}
