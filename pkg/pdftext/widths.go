package pdftext

import (
	"math"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/pdftext/internal/pdfobj"
)

// cidWidths are a CID font's glyph widths from its /W array (PDF 32000-2
// §9.7.4.3): entries "c [w1 w2 …]" (a width per CID from c) and "c1 c2 w"
// (one width for CIDs c1 to c2), looked up through an index. Where
// entries overlap, a listed width wins over a range, a later list over an
// earlier one, an earlier range over a later one (as the entries were
// read before: lists into a map, ranges scanned in order).
type cidWidths struct {
	runs []cidRun
	idx  spans
}

type cidRun struct {
	first uint32
	w     float64   // a range's one width
	list  []float64 // or one width per CID from first
}

// A /W is bounded by what a font can have: CIDs are 0 to 65,535, so no
// real font lists more widths or entries than that.
const (
	maxWidthEntries = 1 << 16
	maxWidthValues  = 1 << 16
)

// What /W's entries hold, charged before they are made.
const (
	costWidthRun   = 64
	costWidthValue = 8
)

// readW reads /W, charging the budget for what it keeps (added to cost).
func (x *extractor) readW(w pdfobj.Array, cost *int64) cidWidths {
	d := x.doc
	take := func(n int64) {
		x.mem.Take(n)
		*cost += n
	}
	var cw cidWidths
	var ivs []interval
	values := 0
	for i := 0; i+1 < len(w) && len(cw.runs) < maxWidthEntries; {
		x.check()
		first, ok := d.Int(w[i])
		if !ok || first < 0 || first > math.MaxUint32 {
			break
		}
		if list, ok := d.Resolve(w[i+1]).(pdfobj.Array); ok {
			i += 2
			n := min(len(list), maxWidthValues-values, math.MaxUint32-int(first)+1)
			if n <= 0 {
				if len(list) > 0 {
					break
				}
				continue
			}
			take(costWidthRun + costWidthValue*int64(n))
			run := cidRun{first: uint32(first), list: make([]float64, n)}
			for j, v := range list[:n] {
				if run.list[j], ok = d.Num(v); !ok {
					run.list[j] = math.NaN() // no width: the default one
				}
			}
			values += n
			ivs = appendDoubling(ivs, interval{lo: uint32(first), hi: uint32(first) + uint32(n-1), prio: 1<<32 + int64(len(cw.runs)), id: int32(len(cw.runs))})
			cw.runs = appendDoubling(cw.runs, run)
			continue
		}
		last, ok1 := d.Int(w[i+1])
		width, ok2 := 0.0, false
		if i+2 < len(w) {
			width, ok2 = d.Num(w[i+2])
		}
		if !ok1 || !ok2 {
			break
		}
		i += 3
		if last < first || last > math.MaxUint32 {
			continue
		}
		take(costWidthRun)
		ivs = appendDoubling(ivs, interval{lo: uint32(first), hi: uint32(last), prio: -int64(len(cw.runs)), id: int32(len(cw.runs))})
		cw.runs = appendDoubling(cw.runs, cidRun{first: uint32(first), w: width})
	}
	build := int64(48 * len(ivs))
	x.mem.Take(build)
	cw.idx = buildSpans(ivs, x.check)
	x.mem.Give(build)
	take(costSpans(len(cw.idx)))
	return cw
}

// width is the width of cid, ok false when /W does not give one.
func (cw *cidWidths) width(cid int) (float64, bool) {
	if cid < 0 || cid > math.MaxUint32 {
		return 0, false
	}
	i, ok := cw.idx.find(uint32(cid))
	if !ok {
		return 0, false
	}
	r := &cw.runs[i]
	if r.list != nil {
		w := r.list[uint32(cid)-r.first]
		return w, !math.IsNaN(w)
	}
	return r.w, true
}
