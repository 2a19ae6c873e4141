package fakeforge

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Recorded is one exchange a recording proxy kept between forgejo-mcp and
// a real forge (testdata/recorded; /work/shared/forgejo/recorded's README
// describes the fields). Only what a replay needs is read.
type Recorded struct {
	Seq     int               `json:"seq"`
	Tool    string            `json:"tool"`
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    *struct {
		JSON json.RawMessage `json:"json"`
		Text string          `json:"text"`
	} `json:"response_body"`
}

// RecordedFile is the path of a file of testdata/recorded, wherever the
// test runs from.
func RecordedFile(name string) string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "testdata", "recorded", name)
}

// Replay makes s answer each method and path of the recorded exchanges in
// file as the forge did (the first answer of each, paths with a query
// left out), with the recorder's origin (as in "http://127.0.0.1:34251")
// in bodies and Location replaced by s's own. It returns the exchanges.
func (s *Server) Replay(t testing.TB, file, origin string) []Recorded {
	t.Helper()
	fh, err := os.Open(file)
	require.NoError(t, err)
	defer fh.Close()
	var out []Recorded
	seen := map[string]bool{}
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r Recorded
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		out = append(out, r)
		key := r.Method + " " + r.Path
		if seen[key] || strings.Contains(r.Path, "?") {
			continue
		}
		seen[key] = true
		s.Handle(key, func(w http.ResponseWriter, _ *http.Request) {
			if loc := r.Headers["location"]; loc != "" {
				w.Header().Set("Location", strings.ReplaceAll(loc, origin, s.URL))
			}
			switch {
			case r.Body != nil && r.Body.JSON != nil:
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(r.Status)
				_, _ = w.Write([]byte(strings.ReplaceAll(string(r.Body.JSON), origin, s.URL)))
			case r.Body != nil:
				w.WriteHeader(r.Status)
				_, _ = w.Write([]byte(r.Body.Text))
			default:
				w.WriteHeader(r.Status)
			}
		})
	}
	require.NoError(t, sc.Err())
	return out
}
