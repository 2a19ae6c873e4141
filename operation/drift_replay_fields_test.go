package operation_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// What the replay drift test (drift_replay_test.go) compares: the fields a
// result keeps against those its recorded answers sent, and the members a
// tool's own types read against those the forges sent.

// lostFields are the names a tool's result is meant to carry (a property
// of its outputSchema) that the objects its 2xx answers were about had
// non-empty (answeredObjects) and the result has nowhere non-empty.
// Compact results drop other fields on purpose; one their schema has (a
// list sharing get's shape, without bodies) is declared in replayDrops.
// A renamed field (the forge's "index", the result's "number") is not
// compared here; the shaped drift test (TestResultsUnderForgejoShapes)
// covers those. checked counts the names compared: sent by the forge and
// kept by the schema.
func lostFields(schema []byte, r replayRun) (lost []string, checked int) {
	var sc any
	if schema == nil {
		return nil, 0
	}
	if json.Unmarshal(schema, &sc) != nil {
		return []string{"(outputSchema is not JSON)"}, 0
	}
	kept := map[string]bool{}
	schemaProperties(sc, kept)
	// A name counts as sent when every answer that has it has it
	// non-empty: a tool that reads an object and writes it back shows the
	// written one (an emptied field is the forge's, not a loss).
	sent, emptied := map[string]bool{}, map[string]bool{}
	for _, a := range r.Answers {
		v, ok := a.Exchange.JSON()
		if !ok || a.Exchange.Status/100 != 2 || a.Exchange.Route() == "/api/v1/version" {
			continue
		}
		full, present := map[string]bool{}, map[string]bool{}
		for _, obj := range answeredObjects(v) {
			for k, e := range obj {
				present[k] = true
				if !emptyDeep(e) {
					full[k] = true
				}
			}
		}
		for name := range present {
			if full[name] {
				sent[name] = true
			} else {
				emptied[name] = true
			}
		}
	}
	got := map[string]bool{}
	if v, ok := resultValue(r.Result); ok {
		nonEmptyNames(v, got, map[string]bool{})
	}
	for name := range sent {
		if !kept[name] || emptied[name] {
			continue
		}
		checked++
		if !got[name] {
			lost = append(lost, name)
		}
	}
	sort.Strings(lost)
	return lost, checked
}

// schemaProperties adds every property name a JSON schema declares, at any
// depth, to out.
func schemaProperties(v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		if props, ok := x["properties"].(map[string]any); ok {
			for k := range props {
				out[k] = true
			}
		}
		for _, e := range x {
			schemaProperties(e, out)
		}
	case []any:
		for _, e := range x {
			schemaProperties(e, out)
		}
	}
}

// answeredObjects are the objects an answer is about: the object itself,
// a list's elements, or the elements of an envelope's list (an object
// holding no text of its own: {"total_count": 1, "workflow_runs": […]}).
// Objects nested in them (an issue's repository, a user's organisation)
// are not: the same names there ("description", "html_url") mean other
// things, and compact results name their parts differently.
func answeredObjects(v any) []map[string]any {
	var out []map[string]any
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
	case map[string]any:
		envelope := true
		for _, e := range x {
			if _, text := e.(string); text {
				envelope = false
			}
		}
		if !envelope {
			return []map[string]any{x}
		}
		for _, e := range x {
			if list, ok := e.([]any); ok {
				out = append(out, answeredObjects(list)...)
			}
		}
		if len(out) == 0 {
			out = append(out, x)
		}
	}
	return out
}

// nonEmptyNames adds the name of every member, at any depth, to present,
// and to full where it holds a non-empty value (not null, "", 0, false, a
// zero time, [] or {}).
func nonEmptyNames(v any, full, present map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			present[k] = true
			if !emptyDeep(e) {
				full[k] = true
			}
			nonEmptyNames(e, full, present)
		}
	case []any:
		for _, e := range x {
			nonEmptyNames(e, full, present)
		}
	}
}

// zeroTimes are how the forges send a time that never was: Go's zero
// time, and Forgejo's 0 Unix time for a run that has not started.
var zeroTimes = map[string]bool{"0001-01-01T00:00:00Z": true, "1970-01-01T00:00:00Z": true}

func emptyDeep(v any) bool {
	switch x := v.(type) {
	case bool:
		return !x
	case string:
		return x == "" || zeroTimes[x]
	case map[string]any:
		return len(x) == 0
	}
	return empty(v)
}

// resultValue is a result's JSON: its structured content, or its first
// text.
func resultValue(res *mcp.CallToolResult) (any, bool) {
	var v any
	if sc, ok := res.StructuredContent.(json.RawMessage); ok {
		return v, json.Unmarshal(sc, &v) == nil
	}
	return v, json.Unmarshal([]byte(textOf(res)), &v) == nil
}

// readMembers maps each JSON member a raw request's decoding type reads
// ("GET /repos/{}/{}/actions/runs/{} rawRun.started_at", the route as
// the recorded version's description names it) to whether its recorded 2xx
// answer lacked it. Only the tools' own types are walked: SDK types read
// every field the SDK knows, not what a tool uses. Members match case-
// insensitively, as encoding/json does.
func readMembers(spec *fakeforge.Spec, r replayRun) map[string]bool {
	out := map[string]bool{}
	for _, a := range r.Answers {
		typ := r.Decoded[a.Method+" "+a.Path]
		v, ok := a.Exchange.JSON()
		if typ == nil || !ok || a.Exchange.Status/100 != 2 {
			continue
		}
		p := strings.TrimPrefix(a.Exchange.Route(), "/api/v1")
		tpl, ok := spec.Match(a.Method, p)
		if !ok {
			tpl = p
		}
		route := a.Method + " " + fakeforge.Normalize(tpl)
		walkMembers(typ, v, typeName(typ), 0, func(member string, missing bool) {
			k := route + " " + member
			out[k] = out[k] || missing
		})
	}
	return out
}

func typeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Name() == "" {
		return "{}"
	}
	return t.Name()
}

const modulePath = "codeberg.org/forgejo-mcp/forgejo-mcp/"

func walkMembers(t reflect.Type, v any, at string, depth int, seen func(member string, missing bool)) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if depth > 8 || t == timeType || t == rawMessageType || reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	if t.PkgPath() != "" && !strings.HasPrefix(t.PkgPath(), modulePath) {
		return // an SDK type
	}
	switch x := v.(type) {
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for _, e := range x {
				walkMembers(t.Elem(), e, at+"[]", depth+1, seen)
			}
		}
	case map[string]any:
		if t.Kind() != reflect.Struct {
			return
		}
		for _, f := range jsonFields(t) {
			e, ok := memberFold(x, f.Name)
			seen(at+"."+f.Name, !ok)
			if ok {
				walkMembers(f.Type, e, at+"."+f.Name, depth+1, seen)
			}
		}
	}
}

// memberFold finds a member as encoding/json does: its exact name first,
// then any case.
func memberFold(m map[string]any, name string) (any, bool) {
	if v, ok := m[name]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}
