package pdftext

import (
	"errors"
	"fmt"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// Fonts and CMaps are loaded once per extraction, by the object they are,
// and charged to the budget once: a file whose 4,000 fonts share one 4 MiB
// ToUnicode CMap parses it once. When the budget refuses a new font, the
// fonts and CMaps loaded before are dropped (they load again when shown
// again) and it is tried once more, so a document of many fonts is read
// within the budget; only one font that does not fit alone stops it.

// costCached is what one entry of a cache holds besides its value.
const costCached = 96

// font returns the font of resource name.
func (x *extractor) font(res pdfobj.Dict, name pdfobj.Name) *font {
	fonts := x.doc.GetDict(res, "Font")
	raw := fonts[name]
	key := fmt.Sprint(raw)
	if _, isRef := raw.(pdfobj.Ref); !isRef {
		key = fmt.Sprintf("%p/%s", fonts, name)
	}
	if f, ok := x.fonts[key]; ok {
		return f
	}
	d := x.doc.Dict(raw)
	if d == nil {
		f := x.defaultFont()
		x.cacheFont(key, f)
		return f
	}
	f, ok := x.tryFont(d)
	if !ok {
		x.dropFonts(false)
		if f, ok = x.tryFont(d); !ok {
			x.dropFonts(true)
			f = x.loadFont(d) // a refusal now ends the extraction
		}
	}
	x.cacheFont(key, f)
	return f
}

func (x *extractor) cacheFont(key string, f *font) {
	c := costCached + int64(len(key))
	x.mem.Take(c)
	f.cost += c
	x.fonts[key] = f
}

// tryFont loads font d, not ok when the budget refused it while fonts or
// CMaps were loaded that could be dropped to make room (the fonts first,
// then the CMaps too).
func (x *extractor) tryFont(d pdfobj.Dict) (f *font, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if s, isStop := r.(pdfobj.Stop); isStop && spent(s.Err) && x.droppable() {
				f, ok = nil, false
				return
			}
			panic(r)
		}
	}()
	return x.loadFont(d), true
}

// droppable reports fonts or CMaps loaded that dropFonts could drop.
func (x *extractor) droppable() bool {
	return len(x.fonts) > 0 || len(x.cmaps) > 0 || len(x.collections) > 0
}

// dropFonts forgets every font loaded (and with cmaps every CMap),
// giving back their charges; the fonts in use keep working (they are only
// no longer shared).
func (x *extractor) dropFonts(cmaps bool) {
	for _, f := range x.fonts {
		x.mem.Give(f.cost)
		f.cost = 0 // a font cached under two names is given back once
	}
	clear(x.fonts)
	if cmaps {
		for _, m := range x.cmaps {
			if m != nil {
				x.mem.Give(m.cost)
				m.cost = 0
			}
		}
		clear(x.cmaps)
		for _, m := range x.collections {
			if m != nil {
				x.mem.Give(m.cost)
				m.cost = 0
			}
		}
		clear(x.collections)
	}
	x.work.Evicted++
}

// cmapOf returns the CMap of stream s (a ToUnicode or an encoding CMap),
// parsed once; nil when it cannot be read.
func (x *extractor) cmapOf(s *pdfobj.Stream) *cmap {
	if m, ok := x.cmaps[s.Ref]; ok {
		return m
	}
	var m *cmap
	if data, err := x.doc.StreamBytes(s, maxCMapBytes); err == nil || len(data) > 0 {
		func() {
			defer x.doc.Free(data)
			m = parseCMap(data, x.mem, x.check)
		}()
	}
	x.mem.Take(costCached)
	if m != nil {
		m.cost += costCached
	}
	x.cmaps[s.Ref] = m
	return m
}

// maxCMapBytes bounds the decoded bytes of one CMap.
const maxCMapBytes = 4 << 20

// spent reports a budget (or the pool it draws on) that refused a charge.
func spent(err error) bool {
	var e *pdfobj.SpentError
	var p *pdfobj.PoolSpentError
	return errors.As(err, &e) || errors.As(err, &p)
}
