package fakeforge

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Replay makes s answer as the recorded forge did: a request is answered
// with a recorded exchange of the same method and route (the API route
// template its path hits in the recorded version's description, so owners,
// names and ids need not be the recorded ones; other paths with their ids,
// hashes and UUIDs normalised). Among several, it prefers one the tool named
// tool made, then one with the same query, then one that succeeded, then
// the earliest. Headers, status, content type and body are the recorded
// ones, with the recorder's origin rewritten to s's. A request no exchange
// matches gets 501 "no recorded answer", which Unanswered lists.
func (s *Server) Replay(rec *Recording, tool string) {
	spec, byKey, err := rec.replayIndex()
	if err != nil {
		panic(err) // the embedded recordings and descriptions are checked by tests
	}
	s.Handle("/", func(w http.ResponseWriter, r *http.Request) {
		cands := byKey[replayKey(spec, r.Method, r.URL.EscapedPath())]
		e := bestExchange(cands, tool, r.URL.Query())
		if e == nil {
			s.mu.Lock()
			s.unanswered = append(s.unanswered, r.Method+" "+r.URL.EscapedPath())
			s.mu.Unlock()
			http.Error(w, "no recorded answer", http.StatusNotImplemented)
			return
		}
		s.mu.Lock()
		s.served = append(s.served, Answer{Method: r.Method, Path: r.URL.EscapedPath(), Exchange: e})
		s.mu.Unlock()
		writeExchange(w, e, rec.Origin, s.URL)
	})
}

// Answer is a request a replay answered and the exchange it answered with.
type Answer struct {
	Method, Path string // the request's, the path escaped and without its query
	Exchange     *Exchange
}

// replayIndex is the recorded version's description and the exchanges by
// replayKey, made once per Recording: a test replaying it for every tool
// would otherwise read the descriptions and match every route each time.
func (r *Recording) replayIndex() (*Spec, map[string][]*Exchange, error) {
	r.index.once.Do(func() {
		r.index.spec, r.index.err = r.Spec()
		if r.index.err != nil {
			return
		}
		r.index.byKey = map[string][]*Exchange{}
		for i := range r.Exchanges {
			e := &r.Exchanges[i]
			k := replayKey(r.index.spec, e.Method, e.Route())
			r.index.byKey[k] = append(r.index.byKey[k], e)
		}
	})
	return r.index.spec, r.index.byKey, r.index.err
}

// Served lists the recorded exchanges a replay answered with, in order.
func (s *Server) Served() []*Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Exchange, len(s.served))
	for i, a := range s.served {
		out[i] = a.Exchange
	}
	return out
}

// Answers lists the requests a replay answered with what it answered, in
// order: a test reads a request's recorded answer by its own path.
func (s *Server) Answers() []Answer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Answer(nil), s.served...)
}

// Unanswered lists the requests a replay had no recorded answer for.
func (s *Server) Unanswered() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.unanswered...)
}

var (
	uuidSeg = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	hexSeg  = regexp.MustCompile(`^[0-9a-f]{7,64}$`)
	numSeg  = regexp.MustCompile(`^[0-9]+$`)
)

// replayKey is "METHOD route": the API template an /api/v1 path hits in
// spec, or for any other path (a route the version lacks, a web route) the
// path with /repos/{owner}/{repo}, numbers, hashes and UUIDs as {}.
func replayKey(spec *Spec, method, escapedPath string) string {
	if p, ok := strings.CutPrefix(escapedPath, "/api/v1"); ok {
		if tpl, ok := spec.Match(method, p); ok {
			return method + " " + Normalize(tpl)
		}
	}
	segs := strings.Split(escapedPath, "/")
	for i := 0; i < len(segs); i++ {
		switch seg := segs[i]; {
		case seg == "repos" && i+2 < len(segs) && segs[i+1] != "issues" && segs[i+1] != "search":
			segs[i+1], segs[i+2] = "{}", "{}" // /repos/{owner}/{repo}
			i += 2
		case numSeg.MatchString(seg), uuidSeg.MatchString(seg), hexSeg.MatchString(seg) && strings.ContainsAny(seg, "0123456789"):
			segs[i] = "{}"
		}
	}
	return method + " !" + strings.Join(segs, "/")
}

// bestExchange picks the exchange that answers a request best (Replay).
func bestExchange(cands []*Exchange, tool string, q url.Values) *Exchange {
	var best *Exchange
	bestScore := -1
	for _, e := range cands {
		score := 0
		if e.Tool == tool {
			score += 8
		}
		_, rawQuery, _ := strings.Cut(e.Path, "?")
		if eq, err := url.ParseQuery(rawQuery); err == nil {
			if eq.Encode() == q.Encode() {
				score += 4
			} else if sameKeys(eq, q) {
				score += 2
			}
		}
		if e.Status/100 == 2 {
			score++
		}
		if score > bestScore {
			best, bestScore = e, score
		}
	}
	return best
}

func sameKeys(a, b url.Values) bool {
	ka, kb := make([]string, 0, len(a)), make([]string, 0, len(b))
	for k := range a {
		ka = append(ka, k)
	}
	for k := range b {
		kb = append(kb, k)
	}
	slices.Sort(ka)
	slices.Sort(kb)
	return slices.Equal(ka, kb)
}

// writeExchange answers as e was answered, origin rewritten to base.
func writeExchange(w http.ResponseWriter, e *Exchange, origin, base string) {
	for k, v := range e.Headers {
		w.Header().Set(k, strings.ReplaceAll(v, origin, base))
	}
	if e.ContentType != "" {
		w.Header().Set("Content-Type", e.ContentType)
	}
	var body []byte
	switch b := e.Response; {
	case b == nil:
	case len(b.JSON) > 0:
		body = []byte(strings.ReplaceAll(string(b.JSON), origin, base))
	case b.Text != nil:
		body = []byte(strings.ReplaceAll(*b.Text, origin, base))
	case b.BinaryLength > 0:
		// Only the length and hash were kept: bytes of that length.
		body = []byte(base64.StdEncoding.EncodeToString(make([]byte, b.BinaryLength)))[:b.BinaryLength]
	}
	w.WriteHeader(e.Status)
	_, _ = w.Write(body)
}
