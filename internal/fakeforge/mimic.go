package fakeforge

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
)

// Mimic makes every route of spec answer on s (routes registered with
// Handle or JSON still win): /version with spec.Version, a JSON route with
// a body built from spec's definitions by Example, a text or binary route
// with a few bytes, and anything else with the forge's 404. Tests then see
// the field names of that flavour (Forgejo's or Gitea's) everywhere.
func (s *Server) Mimic(spec *Spec) {
	s.mimic(spec, answers{
		file: mimicFile,
		text: mimicText,
		json: func(_ *http.Request, sc *Schema) any { return spec.Example(sc) },
	})
}

// answers are what a mimicking fake sends beyond the routing they share:
// a path outside the API, a text or file route (tpl is its template), and
// the body of a JSON route of schema sc.
type answers struct {
	file func(w http.ResponseWriter, r *http.Request)
	text func(w http.ResponseWriter, r *http.Request, tpl string, status int)
	json func(r *http.Request, sc *Schema) any
}

// mimic routes every request as spec's forge would: /version, the 404 of
// a route spec lacks, a route's first success status, and a for the
// answer's content.
func (s *Server) mimic(spec *Spec, a answers) {
	s.Handle("/", func(w http.ResponseWriter, r *http.Request) {
		p, ok := strings.CutPrefix(r.URL.EscapedPath(), "/api/v1")
		if !ok {
			a.file(w, r)
			return
		}
		if p == "/version" {
			WriteJSON(w, http.StatusOK, map[string]string{"version": spec.Version})
			return
		}
		tpl, ok := spec.Match(r.Method, p)
		if !ok {
			WriteJSON(w, http.StatusNotFound, map[string]string{"message": "not found"})
			return
		}
		route := spec.Routes[Key(r.Method, tpl)]
		status := route.Status
		if status == 0 || status/100 == 3 {
			status = http.StatusOK
		}
		switch sc := spec.Resolve(route.Schema); {
		case sc == nil && status == http.StatusOK, sc != nil && sc.Type == "string":
			a.text(w, r, tpl, status)
		case sc != nil && sc.Type == "file": // a file's bytes (raw, media)
			a.file(w, r)
		case sc == nil:
			w.WriteHeader(status)
		default:
			v := a.json(r, route.Schema)
			if raw, ok := v.(json.RawMessage); ok { // encoded already
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				_, _ = w.Write(raw)
				return
			}
			WriteJSON(w, status, v)
		}
	})
}

// Example values: every generated field is set, so a tool result with an
// empty field read a name the flavour does not send.
const (
	ExampleTime = "2026-01-02T03:04:05Z"
	ExampleInt  = 3
)

// Example builds a JSON value for sc with every field set: a string
// property holds its own name ("title" → "title-v"), integers are
// ExampleInt, booleans true (but expired), times ExampleTime, arrays one
// element.
// A definition that contains itself is expanded once inside itself and
// then cut with null: a fork's parent repository, whose own parent is
// null, as the forges send it.
func (s *Spec) Example(sc *Schema) any { return s.example(sc, "v", nil) }

// exampleVisits is how often Example expands a definition on one path.
const exampleVisits = 2

// deref follows sc's $ref to its definition, adding it to seen (the
// definitions being expanded); ok is false for one expanded visits times
// on this path already (a definition that contains itself) or past eight
// levels.
func (s *Spec) deref(sc *Schema, seen []string, visits int) (def *Schema, more []string, ok bool) {
	n := 0
	for _, d := range seen {
		if d == sc.Ref {
			n++
		}
	}
	if n >= visits || len(seen) > 8 {
		return nil, nil, false
	}
	return s.Definitions[sc.Ref], append(seen, sc.Ref), true
}

func (s *Spec) example(sc *Schema, name string, seen []string) any {
	if sc == nil {
		return nil
	}
	if sc.Ref != "" {
		def, seen, ok := s.deref(sc, seen, exampleVisits)
		if !ok {
			return nil
		}
		return s.example(def, name, seen)
	}
	switch sc.Type {
	case "integer":
		return ExampleInt
	case "number":
		return 1.5
	case "boolean":
		// An expired artifact has no files to fetch: the one flag that
		// would stop a tool before its next request.
		return name != "expired"
	case "array":
		if v := s.example(sc.Items, name, seen); v != nil {
			return []any{v}
		}
		return []any{}
	case "string":
		return exampleString(sc, name)
	}
	if len(sc.Properties) == 0 && sc.AdditionalProperties != nil {
		if name == "config" {
			// A webhook's config: a free map in both descriptions, holding
			// what both forges send.
			return map[string]any{"url": "http://hook.example/url", "content_type": "json"}
		}
		return map[string]any{"key": s.example(sc.AdditionalProperties, "key", seen)}
	}
	obj := map[string]any{}
	for k, p := range sc.Properties {
		obj[k] = s.example(p, k, seen) // null where a definition is cut
	}
	return obj
}

func exampleString(sc *Schema, name string) string {
	switch {
	case sc.Format == "date-time":
		return ExampleTime
	case sc.Format == "date":
		return ExampleTime[:10]
	case name == "content":
		return base64.StdEncoding.EncodeToString([]byte("content-v"))
	case name == "encoding":
		return "base64"
	case name == "status":
		// A real status word: Forgejo's Actions status is one word that
		// tools split into status and conclusion.
		return "success"
	case strings.HasSuffix(name, "url"):
		return "http://forge.example/" + name
	}
	return name + "-v"
}

// MimicNulls makes every route of spec answer as Mimic does, but with null
// in every member the forge may send as null (Spec.MayBeNull): an unset
// time, a missing milestone, a nil list. Tools driven against it show that
// they take the nulls the real forges send where Mimic sets everything.
func (s *Server) MimicNulls(spec *Spec) {
	s.mimic(spec, answers{
		file: mimicFile,
		text: mimicText,
		json: func(_ *http.Request, sc *Schema) any { return spec.nullOut(spec.Example(sc), sc) },
	})
}

// nullOut sets to null every member of v (an Example of sc) that may be
// null.
func (s *Spec) nullOut(v any, sc *Schema) any {
	r := s.Resolve(sc)
	if r == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := r.Properties[k]
			switch {
			case p == nil && r.AdditionalProperties != nil:
				x[k] = s.nullOut(e, r.AdditionalProperties)
			case p == nil:
			case s.MayBeNull(p):
				x[k] = nil
			default:
				x[k] = s.nullOut(e, p)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = s.nullOut(e, r.Items)
		}
	}
	return v
}

// mimicFile answers a binary route with a few bytes (Mimic, MimicNulls).
func mimicFile(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write([]byte("file bytes"))
}

// mimicText answers a text route with a line naming it (Mimic, MimicNulls).
func mimicText(w http.ResponseWriter, _ *http.Request, tpl string, status int) {
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(status)
	_, _ = w.Write([]byte("text of " + tpl))
}
