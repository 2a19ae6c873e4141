package tool

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Output schemas. A tool's outputSchema is generated from Def.Output by
// reflection, following encoding/json's rules, so the schema describes the
// JSON the handler really sends: json tags name the properties, a field
// without omitempty/omitzero is required, time.Time is a date-time string,
// embedded structs lend their fields. Schemas are compact (no descriptions,
// no titles): they are paid for in every tools/list, and the property names
// say what they hold.
//
// Every node has one type, never a union such as ["array","null"]: clients
// that map tool schemas onto a single-type dialect (Gemini's function
// declarations; the MCP Inspector's --strict check) reject unions. So null
// is never sent: JSON writes a nil slice or map as [] or {} (nonull.go),
// and a pointer field that could be nil must be omitempty, or the
// generator refuses the type.
//
// The generator is our own rather than a library's: what is needed is
// encoding/json's view of a type and nothing else (no tags of another
// vocabulary, no $ref, no descriptions), in a few dozen lines, where the
// libraries add 2020-12 $defs/$id and descriptions that cost bytes.

// Shape describes an object result built as a map in the handler
// ({"team_id":3,"user":"x","member":true}): each key is a property,
// required, whose schema is that of its value's type (Shape{"id":
// int64(0), "unread": false}).
type Shape map[string]any

// AnyOf is the output of a tool that answers with one of several shapes
// (a merge that reports either the pull request or only its number).
func AnyOf(outputs ...any) any { return anyOf(outputs) }

type anyOf []any

// DeletedOutput is the output of a delete tool: the shape Deleted returns
// for key, whose value has the type of zero.
func DeletedOutput(key string, zero any) Shape { return Shape{"deleted": true, key: zero} }

// OutputSchema returns d's outputSchema as compact JSON, nil when d
// declares none (Output nil: a result that is not one JSON object).
func (d Def) OutputSchema() (json.RawMessage, error) {
	s, err := d.outputSchema()
	if s == nil || err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// AdvertisedOutputSchema is OutputSchema as tools/list sends it: without
// its "required" lists and "format" keywords, which cost about 110 bytes a
// tool in every agent's context (more than the default selection's 40 KB
// budget allowed) while property names and types are what an agent reads.
// Tests validate results against the full OutputSchema, which admits fewer
// documents, so a result that passes there passes what clients see.
func (d Def) AdvertisedOutputSchema() (json.RawMessage, error) {
	s, err := d.outputSchema()
	if s == nil || err != nil {
		return nil, err
	}
	return json.Marshal(lean(s))
}

// outputSchema is the full schema of d's Output, nil when there is none.
func (d Def) outputSchema() (map[string]any, error) {
	if d.Output == nil {
		return nil, nil
	}
	s, err := SchemaOf(d.Output)
	if err != nil {
		return nil, fmt.Errorf("%s: output schema: %w", d.Name, err)
	}
	if s["type"] != "object" {
		// MCP 2025-11-25 requires an object at the root of outputSchema
		// and structuredContent.
		return nil, fmt.Errorf("%s: output schema: the result must be a JSON object, not %v", d.Name, s["type"])
	}
	return s, nil
}

// lean drops "required" and "format" from a schema, at every depth. A
// property that happens to be named "required" or "format" stays: the
// walk skips the names under "properties".
func lean(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, sub := range x {
			switch k {
			case "required", "format":
				delete(x, k)
			case "properties":
				if props, ok := sub.(map[string]any); ok {
					for name, p := range props {
						props[name] = lean(p)
					}
				}
			default:
				x[k] = lean(sub)
			}
		}
	case []any:
		for i := range x {
			x[i] = lean(x[i])
		}
	}
	return v
}

// SchemaOf returns the JSON Schema of the JSON encoding of v.
func SchemaOf(v any) (map[string]any, error) {
	g := &schemaGen{seen: map[reflect.Type]bool{}}
	switch x := v.(type) {
	case Shape:
		return g.shape(x)
	case anyOf:
		var alts []any
		for _, o := range x {
			s, err := SchemaOf(o)
			if err != nil {
				return nil, err
			}
			alts = append(alts, s)
		}
		return map[string]any{"type": "object", "anyOf": alts}, nil
	}
	return g.of(reflect.TypeOf(v))
}

type schemaGen struct {
	seen map[reflect.Type]bool // types being expanded: a cycle ends in {}
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
)

func (g *schemaGen) shape(s Shape) (map[string]any, error) {
	props := make(map[string]any, len(s))
	required := make([]string, 0, len(s))
	for k, v := range s {
		var (
			ps  map[string]any
			err error
		)
		if sub, ok := v.(Shape); ok {
			ps, err = g.shape(sub)
		} else {
			ps, err = g.of(reflect.TypeOf(v))
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		props[k] = ps
		required = append(required, k)
	}
	sort.Strings(required)
	return map[string]any{"type": "object", "properties": props, "required": required}, nil
}

// of returns the schema of a value of type t as encoding/json writes it.
func (g *schemaGen) of(t reflect.Type) (map[string]any, error) {
	if t == nil {
		return map[string]any{}, nil // interface value: anything
	}
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}, nil
	case t == rawMessageType:
		return map[string]any{}, nil
	case t.Kind() != reflect.Pointer && (t.Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(jsonMarshalerType)):
		return map[string]any{}, nil // encodes itself: no claim about its shape
	case t.Kind() != reflect.Pointer && (t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)):
		return map[string]any{"type": "string"}, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return map[string]any{"type": "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	case reflect.Pointer:
		// A nil pointer would be null: fields refuse that (object), and
		// a pointer at the root or in a list is the value it points to.
		return g.of(t.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string"}, nil // base64
		}
		return g.array(t)
	case reflect.Array:
		return g.array(t)
	case reflect.Map:
		switch t.Key().Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			if !t.Key().Implements(textMarshalerType) {
				return nil, fmt.Errorf("map key type %s does not encode to JSON", t.Key())
			}
		}
		s := map[string]any{"type": "object"}
		elem, err := g.of(t.Elem())
		if err != nil {
			return nil, err
		}
		if len(elem) > 0 {
			s["additionalProperties"] = elem
		}
		return s, nil
	case reflect.Struct:
		return g.object(t)
	}
	return nil, fmt.Errorf("type %s does not encode to JSON", t)
}

func (g *schemaGen) array(t reflect.Type) (map[string]any, error) {
	items, err := g.of(t.Elem())
	if err != nil {
		return nil, err
	}
	s := map[string]any{"type": "array"}
	if len(items) > 0 {
		s["items"] = items
	}
	return s, nil
}

// field is one JSON property of a struct, found at depth (0 for the
// struct's own fields, more for promoted ones).
type field struct {
	name     string
	typ      reflect.Type
	omit     bool // omitempty/omitzero, or promoted through a pointer
	asString bool // the ",string" option
	depth    int
	tagged   bool
	md       string // its md tag: where the text is markdown (hidden.go)
}

func (g *schemaGen) object(t reflect.Type) (map[string]any, error) {
	if g.seen[t] {
		return map[string]any{}, nil
	}
	g.seen[t] = true
	defer delete(g.seen, t)
	var fields []field
	collectFields(t, 0, false, &fields)
	props := map[string]any{}
	var required []string
	for _, f := range dominant(fields) {
		var (
			s   map[string]any
			err error
		)
		if f.typ.Kind() == reflect.Pointer && !f.omit && !f.asString {
			return nil, fmt.Errorf("%s.%s: a nil pointer encodes as null, which a single-type schema cannot admit: tag it omitempty", t, f.name)
		}
		if f.asString {
			s = map[string]any{"type": "string"}
		} else if s, err = g.of(f.typ); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t, f.name, err)
		}
		if !f.omit {
			required = append(required, f.name)
		}
		props[f.name] = s
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		sort.Strings(required)
		out["required"] = required
	}
	return out, nil
}

// collectFields lists the JSON fields of struct t the way encoding/json
// finds them, promoted fields of embedded structs included.
func collectFields(t reflect.Type, depth int, viaPointer bool, out *[]field) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := sf.Type
		if sf.Anonymous && name == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				collectFields(et, depth+1, viaPointer || ft.Kind() == reflect.Pointer, out)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		f := field{name: name, typ: ft, depth: depth, tagged: name != "", md: sf.Tag.Get("md")}
		if f.name == "" {
			f.name = sf.Name
		}
		f.omit = viaPointer || strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
		if strings.Contains(","+opts+",", ",string,") {
			switch ft.Kind() {
			case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
				reflect.Float32, reflect.Float64:
				f.asString = true
			}
		}
		*out = append(*out, f)
	}
}

// dominant keeps, for each name, the field encoding/json encodes: the
// shallowest, a tagged one winning a tie; a tie left over drops the name.
func dominant(fields []field) []field {
	byName := map[string][]field{}
	var order []string
	for _, f := range fields {
		if _, ok := byName[f.name]; !ok {
			order = append(order, f.name)
		}
		byName[f.name] = append(byName[f.name], f)
	}
	var out []field
	for _, n := range order {
		fs := byName[n]
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].depth < fs[j].depth })
		best := fs[:1]
		for _, f := range fs[1:] {
			if f.depth == best[0].depth {
				best = append(best, f)
			}
		}
		if len(best) > 1 {
			var tagged []field
			for _, f := range best {
				if f.tagged {
					tagged = append(tagged, f)
				}
			}
			if len(tagged) != 1 {
				continue
			}
			best = tagged
		}
		out = append(out, best[0])
	}
	return out
}
