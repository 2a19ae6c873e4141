package fakeforge

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// The API descriptions of both flavours, trimmed to routes, response
// schemas and definitions. Regenerate them with
//
//	go run ./internal/fakeforge/gen -forgejo ../shared/forgejo/swagger.v1.json -gitea $FORGEJO_TEST_URL/swagger.v1.json
//
// (make fixtures); a live test checks gitea.json against the live forge.
//
//go:embed specs/*.json
var specFiles embed.FS

// Spec is one flavour's API description, trimmed to what the fake and the
// drift tests read.
type Spec struct {
	Flavour string `json:"flavour"`
	// Version is what the fake answers at /version in this flavour's mode.
	Version string `json:"version"`
	// Routes maps "METHOD /path/{template}" (below /api/v1) to its answer.
	Routes      map[string]*Route  `json:"routes"`
	Definitions map[string]*Schema `json:"definitions"`
}

// Route is one operation: its first 2xx status, that answer's schema (nil
// when it has no body) and the operation's tags.
type Route struct {
	Status int      `json:"status"`
	Schema *Schema  `json:"schema,omitempty"`
	Tags   []string `json:"tags,omitempty"`
}

// Schema is the part of a Swagger schema the fake and the tests read.
type Schema struct {
	Ref                  string             `json:"$ref,omitempty"` // a definition's name
	Type                 string             `json:"type,omitempty"`
	Format               string             `json:"format,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	Properties           map[string]*Schema `json:"properties,omitempty"`
	AdditionalProperties *Schema            `json:"additionalProperties,omitempty"`
	// Nullable marks a text or number the forge sends as null when unset
	// (a Go *string or *time.Time), which Swagger 2 cannot say; amended
	// from the recorded answers (amend.go).
	Nullable bool `json:"nullable,omitempty"`
}

// LoadSpec returns the embedded description of flavour "forgejo" or "gitea".
func LoadSpec(flavour string) (*Spec, error) {
	b, err := specFiles.ReadFile("specs/" + flavour + ".json")
	if err != nil {
		return nil, fmt.Errorf("no API description for %q: %w", flavour, err)
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("reading the %s API description: %w", flavour, err)
	}
	return &s, nil
}

// Resolve follows a schema's $ref.
func (s *Spec) Resolve(sc *Schema) *Schema {
	for i := 0; sc != nil && sc.Ref != "" && i < 8; i++ {
		sc = s.Definitions[sc.Ref]
	}
	return sc
}

// MayBeNull reports whether the forge may send null for a member of
// schema sc: an object, a map, an array or any value (a Go pointer, map,
// slice or interface, which encoding/json writes as null when unset), or a
// member amended Nullable.
func (s *Spec) MayBeNull(sc *Schema) bool {
	if sc.Nullable {
		return true
	}
	r := s.Resolve(sc)
	free := r != nil && r.Type == "" && r.Ref == "" // any value (a Go interface{})
	return r != nil && (free || r.Type == "array" || r.Type == "object" || len(r.Properties) > 0 || r.AdditionalProperties != nil)
}

// Key is a route's key in Routes: "GET /repos/{owner}/{repo}".
func Key(method, template string) string { return method + " " + template }

// Normalize drops the parameter names of a path template (see
// forgejo.NormalizeRoute).
func Normalize(template string) string { return forgejo.NormalizeRoute(template) }

// Match finds the route template an API request (method, escaped path
// below /api/v1) hits: the one with the most literal segments among those
// that match, as routers prefer; a trailing file path or ref takes the
// rest of a longer path. ok is false when none does.
func (s *Spec) Match(method, path string) (template string, ok bool) {
	got := strings.Split(strings.Trim(path, "/"), "/")
	best := -1
	// Of equally literal templates the first in sorted order wins, found
	// in one pass rather than by sorting the routes on every call (the
	// drift tests match thousands of requests).
	for k := range s.Routes {
		m, tpl, _ := strings.Cut(k, " ")
		if m != method {
			continue
		}
		if lit, ok := matchTemplate(tpl, got); ok && (lit > best || lit == best && tpl < template) {
			best, template = lit, tpl
		}
	}
	return template, best >= 0
}

// greedy are the trailing parameters that may hold slashes.
var greedy = map[string]bool{"{filepath}": true, "{ref}": true}

// matchTemplate walks tpl's segments in place (no split: the drift tests
// match every request against every route of eight descriptions) and
// stops at the first that got cannot fill.
func matchTemplate(tpl string, got []string) (literals int, ok bool) {
	rest := strings.Trim(tpl, "/")
	n := strings.Count(rest, "/") + 1
	if len(got) < n {
		return 0, false
	}
	var w string
	for i := 0; i < n; i++ {
		w, rest, _ = strings.Cut(rest, "/")
		param := strings.HasPrefix(w, "{")
		switch {
		case !param && got[i] != w:
			return 0, false
		case !param:
			literals += 2
		case got[i] == "", strings.Contains(w, "}.{") && !strings.Contains(got[i], "."):
			return 0, false
		case strings.Contains(w, "}.{"):
			literals++ // {index}.{diffType} is more specific than {index}
		}
	}
	if len(got) > n && !greedy[w] {
		return 0, false
	}
	return literals, true
}

// Has reports whether the spec has method+template, comparing templates
// without their parameter names.
func (s *Spec) Has(method, template string) (own string, ok bool) {
	n := Normalize(template)
	for k := range s.Routes {
		m, tpl, _ := strings.Cut(k, " ")
		if m == method && Normalize(tpl) == n {
			return tpl, true
		}
	}
	return "", false
}

// LoadDescribed returns the description of every forge in
// forgejo.Described, in that order: the versions whose routes the
// compatibility table is built from, which are every description in
// specs/ (LoadSpecs).
func LoadDescribed() ([]*Spec, error) {
	all, err := LoadSpecs()
	if err != nil {
		return nil, err
	}
	described := forgejo.Described()
	for i, s := range all {
		if i >= len(described) || s.Forge() != described[i] {
			return nil, fmt.Errorf("specs/ has %s, which forgejo.Described does not list in that place: run make routes", s.Forge())
		}
	}
	if len(all) != len(described) {
		return nil, fmt.Errorf("forgejo.Described lists %d forges, specs/ describes %d: run make fixtures", len(described), len(all))
	}
	return all, nil
}

// Forge is the flavour and version the spec describes.
func (s *Spec) Forge() forgejo.Forge {
	return forgejo.Forge{Flavour: forgejo.Flavour(s.Flavour), Version: s.Version}
}
