package pdftext

import (
	"container/heap"
	"slices"
)

// spans indexes intervals of codes (or CIDs) that may overlap, each with a
// priority, so that finding the interval that wins at a code costs a
// binary search, not a scan of every interval: a CMap of 131,072 ranges
// or a /W of 340,000 was scanned whole for each glyph of a string (issue
// 26: 9 s of CPU per Tj). The index is the intervals cut where any begins
// or ends, each piece naming the interval with the highest priority there.
type spans []span

type span struct {
	lo, hi uint32
	at     int32 // the winning interval's id
}

// interval is one input of buildSpans.
type interval struct {
	lo, hi uint32
	prio   int64 // the highest wins where intervals overlap
	id     int32 // what find answers for it (its entry in the caller's list)
}

// buildSpans indexes ivs (lo <= hi each), sweeping from the lowest code:
// O(n log n) for n intervals, at most 2n pieces. check is called as it
// goes (a deadline).
func buildSpans(ivs []interval, check func()) spans {
	if len(ivs) == 0 {
		return nil
	}
	order := make([]int32, len(ivs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmpU32(ivs[a].lo, ivs[b].lo) })
	// The places where the winner may change: every start, and every end
	// plus one (in 64 bits: an interval may end at the last code).
	points := make([]uint64, 0, 2*len(ivs))
	for _, iv := range ivs {
		points = append(points, uint64(iv.lo), uint64(iv.hi)+1)
	}
	slices.Sort(points)
	points = slices.Compact(points)
	active := &byPrio{ivs: ivs}
	var out spans
	next := 0
	for k, p := range points {
		if k&1023 == 0 && check != nil {
			check()
		}
		for next < len(order) && uint64(ivs[order[next]].lo) == p {
			heap.Push(active, order[next])
			next++
		}
		for active.Len() > 0 && uint64(ivs[active.at[0]].hi) < p {
			heap.Pop(active)
		}
		if active.Len() == 0 || k+1 == len(points) {
			continue
		}
		win, hi := ivs[active.at[0]].id, uint32(points[k+1]-1)
		if n := len(out); n > 0 && out[n-1].at == win && uint64(out[n-1].hi)+1 == p {
			out[n-1].hi = hi
			continue
		}
		out = append(out, span{lo: uint32(p), hi: hi, at: win})
	}
	return slices.Clip(out)
}

// find returns the id of the interval that wins at code c.
func (s spans) find(c uint32) (int, bool) {
	i, _ := slices.BinarySearchFunc(s, c, func(sp span, c uint32) int {
		switch {
		case sp.hi < c:
			return -1
		case sp.lo > c:
			return 1
		}
		return 0
	})
	if i < len(s) && s[i].lo <= c && c <= s[i].hi {
		return int(s[i].at), true
	}
	return 0, false
}

// appendDoubling appends v, doubling the room when it is full: append
// grows a large slice by a quarter at a time, so a list of 131,072 CMap
// ranges was copied into arrays five times its size in all.
func appendDoubling[T any](s []T, v T) []T {
	if len(s) == cap(s) {
		s = slices.Grow(s, max(len(s), 16))
	}
	return append(s, v)
}

// costSpans is what n pieces of an index hold, for the budget.
func costSpans(n int) int64 { return int64(n) * 12 }

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// byPrio is a heap of interval indexes, the highest priority first.
type byPrio struct {
	ivs []interval
	at  []int32
}

func (h *byPrio) Len() int           { return len(h.at) }
func (h *byPrio) Less(i, j int) bool { return h.ivs[h.at[i]].prio > h.ivs[h.at[j]].prio }
func (h *byPrio) Swap(i, j int)      { h.at[i], h.at[j] = h.at[j], h.at[i] }
func (h *byPrio) Push(x any)         { h.at = append(h.at, x.(int32)) }
func (h *byPrio) Pop() any {
	x := h.at[len(h.at)-1]
	h.at = h.at[:len(h.at)-1]
	return x
}
