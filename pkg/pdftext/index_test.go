package pdftext

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSpans: the index answers what a scan of every interval answers (the
// highest priority among those holding the code), on random overlapping
// intervals, at their edges and around the last code.
func TestSpans(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 26))
	for round := range 200 {
		n := r.IntN(40)
		var ivs []interval
		for range n {
			lo := r.Uint32N(200)
			if round%7 == 0 {
				lo = ^uint32(0) - r.Uint32N(10)
			}
			hi := lo + r.Uint32N(30)
			if hi < lo {
				hi = ^uint32(0)
			}
			ivs = append(ivs, interval{lo: lo, hi: hi, prio: int64(r.IntN(20))})
		}
		// Distinct priorities where a scan would otherwise pick by order.
		for i := range ivs {
			ivs[i].prio = ivs[i].prio*100 + int64(i)
			ivs[i].id = int32(i)
		}
		s := buildSpans(ivs, nil)
		require.LessOrEqual(t, len(s), 2*len(ivs)+1)
		probe := func(c uint32) {
			want, found := -1, false
			for i, iv := range ivs {
				if c >= iv.lo && c <= iv.hi && (!found || iv.prio > ivs[want].prio) {
					want, found = i, true
				}
			}
			got, ok := s.find(c)
			require.Equal(t, found, ok, "round %d code %d", round, c)
			if found {
				require.Equal(t, want, got, "round %d code %d", round, c)
			}
		}
		for c := uint32(0); c < 250; c++ {
			probe(c)
		}
		for c := ^uint32(0) - 50; c != 0; c++ {
			probe(c)
		}
	}
}
