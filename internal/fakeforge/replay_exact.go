package fakeforge

import (
	"net/http"
	"strconv"
)

// ReplayExact makes s answer each exchange of rec numbered in seqs at its
// exact method and path (the query ignored), as the forge answered it.
// Replay picks one answer among all exchanges of a route, so every
// attachment's download answers alike there; a test about one object's
// answer (an external release asset's 303 to /api/v1/user) needs its own.
func (s *Server) ReplayExact(rec *Recording, seqs ...int) {
	seen := map[string]bool{}
	for _, n := range seqs {
		e := rec.Seq(n)
		if e == nil {
			panic("no recorded exchange " + rec.Name + " #" + strconv.Itoa(n))
		}
		key := e.Method + " " + e.Route()
		if seen[key] {
			continue
		}
		seen[key] = true
		s.Handle(key, func(w http.ResponseWriter, _ *http.Request) { writeExchange(w, e, rec.Origin, s.URL) })
	}
}
