// Package fakeforge is an httptest stand-in for the forge API, shared by
// unit tests: routes answer canned JSON, every request is recorded, and
// anything unrouted gets the forge's 404, but a repository's own route:
// every repository exists unless a test routes it.
package fakeforge

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// Token is the token the fake's clients send.
const Token = "fake-token-0123456789abcdef"

// Request is one recorded request.
type Request struct {
	Method, Path, RawQuery, Auth, UserAgent string
	Body                                    []byte
}

// Server is a fake forge.
type Server struct {
	*httptest.Server

	mu         sync.Mutex
	mux        *http.ServeMux // replaced whole by Reset
	shared     *http.Client   // Fresh's, made on first use
	requests   []Request
	unanswered []string // requests a replay had no recorded answer for
	served     []Answer // the requests a replay answered, with the recorded exchange
}

// New starts a fake forge that is closed when t ends. A test that starts
// one per tool in a loop closes each when its call is done (Close may be
// called again): hundreds left listening, each with its connections, make
// every new listener's bind search the ports in use, which took a third
// of such a test's CPU.
func New(t testing.TB) *Server {
	s := &Server{mux: http.NewServeMux()}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery,
		Auth: r.Header.Get("Authorization"), UserAgent: r.Header.Get("User-Agent"), Body: body})
	mux := s.mux
	s.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if h, pattern := mux.Handler(r); pattern != "" {
		h.ServeHTTP(w, r)
		return
	}
	if owner, repo, ok := repoPath(r); ok {
		// A repository exists unless a route says otherwise: a tool asks
		// for it after a 404 to tell a missing repository from a missing
		// issue or file in it (tool.missingRepo).
		WriteJSON(w, http.StatusOK, map[string]any{"name": repo, "full_name": owner + "/" + repo,
			"owner": map[string]any{"login": owner}})
		return
	}
	WriteJSON(w, http.StatusNotFound, nil)
}

// repoPath returns the owner and name of a GET of one repository's own
// route, /api/v1/repos/{owner}/{repo}.
func repoPath(r *http.Request) (owner, repo string, ok bool) {
	rest, found := strings.CutPrefix(r.URL.Path, "/api/v1/repos/")
	if !found || r.Method != http.MethodGet {
		return "", "", false
	}
	parts := strings.Split(rest, "/")
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// Handle routes pattern (net/http ServeMux syntax, e.g.
// "GET /api/v1/repos/{owner}/{repo}/issues/{index}") to h.
func (s *Server) Handle(pattern string, h http.HandlerFunc) {
	s.mu.Lock()
	mux := s.mux
	s.mu.Unlock()
	mux.HandleFunc(pattern, h)
}

// Reset forgets every route and every recorded request, so one fake can
// serve a loop's calls in turn, each set up anew: a test that drives
// thousands of calls spent two thirds of its CPU in bind(2) when it
// started a fake per call (each new listener searches the ports the
// closed ones left in TIME_WAIT). Call it between calls, never during one.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mux = http.NewServeMux()
	s.requests, s.unanswered, s.served = nil, nil, nil
}

// JSON routes pattern to a fixed JSON answer.
func (s *Server) JSON(pattern string, status int, body any) {
	s.Handle(pattern, func(w http.ResponseWriter, _ *http.Request) { WriteJSON(w, status, body) })
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RequestsTo returns the requests received for method and path, in
// order: what a tool sent, without the trust pass's own lookups (the
// repository, an author's permission) beside it.
func (s *Server) RequestsTo(method, path string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Method == method && r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// LastQuery returns the query of the last request received; the test
// fails when there was none.
func (s *Server) LastQuery(t testing.TB) url.Values {
	t.Helper()
	reqs := s.Requests()
	require.NotEmpty(t, reqs, "no request reached the fake forge")
	q, err := url.ParseQuery(reqs[len(reqs)-1].RawQuery)
	require.NoError(t, err)
	return q
}

// TokenLinkedAttachment serves attachment 7 of issue o/r#3: five binary
// bytes ("he\x00lo", notes.bin) whose browser_download_url carries the
// fake's token in its query, as a forge that signs its links might: for
// tests that the token never leaves in a result.
func (s *Server) TokenLinkedAttachment(uuid string) {
	link := s.URL + "/attachments/" + uuid + "?token=" + Token
	s.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"name": "r"})
	s.JSON("GET /api/v1/repos/o/r/issues/3", 200, map[string]any{"id": 1, "number": 3})
	s.JSON("GET /api/v1/repos/o/r/issues/3/assets/7", 200, map[string]any{
		"id": 7, "name": "notes.bin", "size": 5, "uuid": uuid, "browser_download_url": link})
	s.Handle("GET /attachments/"+uuid, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write([]byte("he\x00lo"))
	})
}

// BaseURL returns the fake's base URL, parsed.
func (s *Server) BaseURL() *url.URL {
	u, err := url.Parse(s.Server.URL)
	if err != nil {
		panic(err)
	}
	return u
}

// Client returns a forge client for the fake, with Token, on an HTTP
// client of its own.
func (s *Server) Client() *forgejo.Client {
	base := s.BaseURL()
	hc := forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base})
	return forgejo.NewClient(hc, base, Token, "forgejo-mcp/test")
}

// Fresh returns a new forge client for the fake, with Token: it knows
// nothing of the forge yet (its flavour and version are probed again),
// but it shares one HTTP client, and so its connections, with every
// other client Fresh returned, so a loop over calls (with Reset between
// them) opens no new connection per call.
func (s *Server) Fresh() *forgejo.Client {
	base := s.BaseURL()
	s.mu.Lock()
	if s.shared == nil {
		s.shared = forgejo.NewHTTPClient(forgejo.HTTPOptions{BaseURL: base})
	}
	hc := s.shared
	s.mu.Unlock()
	return forgejo.NewClient(hc, base, Token, "forgejo-mcp/test")
}

// WriteJSON writes v as a JSON response with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Blocking routes pattern to a handler that never answers: it reports on
// started when a request arrives and on aborted when the client gives up
// (cancellation, deadline), so tests can prove a request was really aborted.
func (s *Server) Blocking(pattern string) (started, aborted chan struct{}) {
	started, aborted = make(chan struct{}, 64), make(chan struct{}, 64)
	s.Handle(pattern, func(_ http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-r.Context().Done():
			aborted <- struct{}{}
		case <-time.After(20 * time.Second):
		}
	})
	return started, aborted
}

// SyncBuffer is a log sink safe for concurrent writers, for tests that
// read what a server logged.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write implements io.Writer.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
