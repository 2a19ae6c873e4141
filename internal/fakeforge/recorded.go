package fakeforge

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// The real HTTP answers of Forgejo 13.0.5 and 15.0.3 and Gitea 1.26.0 to
// every tool, one JSON line per exchange (recorded/README.md).
//
//go:embed recorded/*.jsonl
var recordedFiles embed.FS

// Exchange is one recorded request and the forge's answer.
type Exchange struct {
	Seq int `json:"seq"`
	// Tool is the tool being called, or "(seed) …"/"(probe) …" for the
	// sweep's own requests (Call is then nil).
	Tool        string            `json:"tool"`
	Call        *int              `json:"call"`
	Method      string            `json:"method"`
	Path        string            `json:"path"` // path and query, as sent
	Auth        string            `json:"auth"`
	RequestBody *Body             `json:"request_body"`
	Status      int               `json:"status"`
	ContentType string            `json:"content_type"`
	Headers     map[string]string `json:"headers"`
	Response    *Body             `json:"response_body"`
	Length      int64             `json:"response_length"`
}

// Body is a recorded body: JSON, text, or the length of a binary one.
type Body struct {
	JSON         json.RawMessage `json:"json"`
	Text         *string         `json:"text"`
	BinaryLength int64           `json:"binary_length"`
}

// IsTool reports whether the exchange came from a tool call rather than
// the sweep's own seed or probe requests.
func (e *Exchange) IsTool() bool { return e.Call != nil }

// Route is the exchange's path without its query.
func (e *Exchange) Route() string { p, _, _ := strings.Cut(e.Path, "?"); return p }

// JSON decodes the answer's JSON body into a generic value; ok is false
// when the answer was not JSON.
func (e *Exchange) JSON() (v any, ok bool) {
	if e.Response == nil || len(e.Response.JSON) == 0 {
		return nil, false
	}
	return v, json.Unmarshal(e.Response.JSON, &v) == nil
}

// Recording is one forge's recorded sweep.
type Recording struct {
	Name  string        // "forgejo-13.0.5", the file's name
	Forge forgejo.Forge // as its /api/v1/version answered
	// Origin is the recorder's address the forge put in absolute URLs
	// ("http://127.0.0.1:34251"), which a replay rewrites to its own.
	Origin    string
	Exchanges []Exchange
	// Parts are the later sweeps' files ("gitea-1.26.0-sweep2") whose
	// exchanges follow the first file's.
	Parts []string

	index struct { // Replay's, made on first use
		once  sync.Once
		spec  *Spec
		byKey map[string][]*Exchange
		err   error
	}
}

// Recordings are the recorded sweeps, Forgejo's first, oldest first.
func Recordings() ([]*Recording, error) {
	var out []*Recording
	for _, name := range []string{"forgejo-13.0.5", "forgejo-15.0.3", "gitea-1.26.0"} {
		r, err := LoadRecording(name)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

var originPattern = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)

// PartialRecordings are sweeps of some tools only, against a forge no
// full sweep recorded: the replay drives just the tools each swept
// (Recording.Tools). The Forgejo 10 development snapshot built here
// (recorded/README.md) is one; it is no Forgejo release.
func PartialRecordings() ([]*Recording, error) {
	var out []*Recording
	for _, name := range []string{"forgejo-10.0.0-dev-456d05998231+gitea-1.22.0"} {
		r, err := LoadRecording(name)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// LoadRecording reads recorded/<name>.jsonl and, after it, its later
// sweeps of the same forge, recorded/<name>-sweep*.jsonl in name order
// (recorded/README.md): one recording of one forge version, each later
// sweep's origin rewritten to the first's and its seq numbers its own.
func LoadRecording(name string) (*Recording, error) {
	raw, err := recordedFiles.ReadFile("recorded/" + name + ".jsonl")
	if err != nil {
		return nil, fmt.Errorf("no recording %q: %w", name, err)
	}
	r, err := ParseRecording(name, raw)
	if err != nil {
		return nil, err
	}
	parts, err := fs.Glob(recordedFiles, "recorded/"+name+"-sweep*.jsonl")
	if err != nil {
		return nil, err
	}
	sort.Strings(parts)
	for _, p := range parts {
		raw, err := recordedFiles.ReadFile(p)
		if err != nil {
			return nil, err
		}
		part := strings.TrimSuffix(path.Base(p), ".jsonl")
		if origin := originPattern.Find(raw); origin != nil {
			raw = bytes.ReplaceAll(raw, origin, []byte(r.Origin))
		}
		forge := r.Forge
		if err := r.add(part, raw); err != nil {
			return nil, err
		}
		if r.Forge != forge {
			return nil, fmt.Errorf("%s answered as %s, not %s like %s", part, r.Forge, forge, name)
		}
		r.Parts = append(r.Parts, part)
	}
	return r, nil
}

// ParseRecording reads one file of exchanges in the recorded format (a
// test's own fixture, such as operation/actions/testdata's); it must hold
// a /api/v1/version answer and an absolute URL, whose origin a replay
// rewrites.
func ParseRecording(name string, raw []byte) (*Recording, error) {
	r := &Recording{Name: name, Origin: string(originPattern.Find(raw))}
	if err := r.add(name, raw); err != nil {
		return nil, err
	}
	if r.Forge.Flavour == "" || r.Origin == "" {
		return nil, fmt.Errorf("%s: no /api/v1/version answer or no absolute URL", name)
	}
	return r, nil
}

// add appends the exchanges of one recorded file; a seq another file of
// the recording used is an error (Seq names one exchange).
func (r *Recording) add(file string, raw []byte) error {
	seen := map[int]bool{}
	for _, e := range r.Exchanges {
		seen[e.Seq] = true
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 1<<20), 8<<20)
	for line := 1; sc.Scan(); line++ {
		var e Exchange
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return fmt.Errorf("%s line %d: %w", file, line, err)
		}
		if seen[e.Seq] {
			return fmt.Errorf("%s line %d: seq %d again", file, line, e.Seq)
		}
		seen[e.Seq] = true
		r.Exchanges = append(r.Exchanges, e)
		if e.Route() == "/api/v1/version" && e.Status == 200 {
			var v struct {
				Version string `json:"version"`
			}
			if json.Unmarshal(e.Response.JSON, &v) == nil {
				r.Forge = forgejo.ParseForge(v.Version)
			}
		}
	}
	return sc.Err()
}

// Seq returns the exchange numbered seq (README's sequence numbers).
func (r *Recording) Seq(seq int) *Exchange {
	for i := range r.Exchanges {
		if r.Exchanges[i].Seq == seq {
			return &r.Exchanges[i]
		}
	}
	return nil
}

// Tools returns the names of the tools the sweep called, in order.
func (r *Recording) Tools() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range r.Exchanges {
		if e.IsTool() && !seen[e.Tool] {
			seen[e.Tool] = true
			out = append(out, e.Tool)
		}
	}
	return out
}

// Spec returns the described API of the recorded forge's version or, for
// a version no description is of, the nearest later described version of
// the same flavour: its routes are matched by that version's templates.
func (r *Recording) Spec() (*Spec, error) {
	all, err := LoadDescribed()
	if err != nil {
		return nil, err
	}
	var later *Spec
	for _, s := range all {
		if s.Forge() == r.Forge {
			return s, nil
		}
		if s.Flavour != string(r.Forge.Flavour) {
			continue
		}
		if c, ok := forgejo.CompareVersions(s.Version, r.Forge.Version); ok && c > 0 {
			if later == nil {
				later = s
			} else if c, ok := forgejo.CompareVersions(s.Version, later.Version); ok && c < 0 {
				later = s
			}
		}
	}
	if later != nil {
		return later, nil
	}
	return nil, fmt.Errorf("%s: no API description of %s or a later %s", r.Name, r.Forge, r.Forge.Flavour)
}
