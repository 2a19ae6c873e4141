package operation_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// shapeDiff is a field a decoding type reads that one flavour's response
// definition has and the other's lacks.
type shapeDiff struct {
	Definition, Field string
	InForgejo         bool
}

// declared finds the table entry for a difference.
func (d shapeDiff) declared() (forgejo.FieldDiff, bool) {
	for _, f := range forgejo.Fields() {
		if f.Definition != d.Definition {
			continue
		}
		if d.InForgejo && f.Forgejo == d.Field || !d.InForgejo && f.Gitea == d.Field {
			return f, true
		}
	}
	return forgejo.FieldDiff{}, false
}

func (d shapeDiff) String() string {
	side := "Gitea"
	if d.InForgejo {
		side = "Forgejo"
	}
	return fmt.Sprintf("%s.%s (%s only)", d.Definition, d.Field, side)
}

// decodingType is the Go type a call's answer is decoded into: the raw
// call's own, or for an SDK call the SDK type of Forgejo's response
// definition (the SDK follows Forgejo's names).
func decodingType(sp specs, c call) (reflect.Type, string, bool) {
	if c.Raw {
		return c.Decoded, "", c.Decoded != nil
	}
	r := sp.forgejo.Routes[fakeforge.Key(c.Method, c.Forgejo)]
	if r == nil || r.Schema == nil {
		return nil, "", false
	}
	sc, list := r.Schema, false
	if sc.Type == "array" && sc.Items != nil {
		sc, list = sc.Items, true
	}
	if sc.Ref == "" {
		return nil, "", false
	}
	t, ok := sdkTypes[sc.Ref]
	if ok && list {
		t = reflect.SliceOf(t)
	}
	return t, sc.Ref, ok
}

func schemaOf(spec *fakeforge.Spec, method, tpl string) *fakeforge.Schema {
	if r := spec.Routes[fakeforge.Key(method, tpl)]; r != nil {
		return r.Schema
	}
	return nil
}

// walker compares a decoding type's JSON fields with both definitions.
type walker struct {
	sp    specs
	seen  map[string]bool
	diffs map[shapeDiff]bool
}

var (
	timeType        = reflect.TypeFor[time.Time]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

func defName(f, g *fakeforge.Schema, parent string) string {
	fn, gn := "", ""
	if f != nil {
		fn = f.Ref
	}
	if g != nil {
		gn = g.Ref
	}
	switch {
	case fn == gn && fn != "":
		return fn
	case fn != "" && gn != "":
		return fn + "/" + gn
	case fn != "":
		return fn
	case gn != "":
		return gn
	}
	return parent
}

func (w *walker) walk(t reflect.Type, f, g *fakeforge.Schema, parent string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == timeType || t == rawMessageType {
		return
	}
	def := defName(f, g, parent)
	f, g = w.sp.forgejo.Resolve(f), w.sp.gitea.Resolve(g)
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		w.walk(t.Elem(), items(f), items(g), def)
		return
	case reflect.Struct:
	default:
		return
	}
	key := fmt.Sprintf("%s|%p|%p", t, f, g)
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	fBare, gBare := f != nil && f.Type == "array", g != nil && g.Type == "array"
	for _, fld := range jsonFields(t) {
		ft := fld.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if (fBare || gBare) && ft.Kind() == reflect.Slice {
			// An envelope type that also reads a bare array into this field
			// (its UnmarshalJSON): the array's items are the elements.
			fc, gc := prop(f, fld.Name), prop(g, fld.Name)
			if fBare {
				fc = f
			}
			if gBare {
				gc = g
			}
			w.note(def, fld.Name, fBare || fc != nil, gBare || gc != nil)
			w.walk(ft, fc, gc, def+"."+fld.Name)
			continue
		}
		fc, gc := prop(f, fld.Name), prop(g, fld.Name)
		w.note(def, fld.Name, fc != nil, gc != nil)
		if (fc == nil) == (gc == nil) {
			// A one-sided field is declared as a whole; its members are not
			// compared with nothing.
			w.walk(fld.Type, fc, gc, def+"."+fld.Name)
		}
	}
}

func (w *walker) note(def, field string, inF, inG bool) {
	if inF != inG {
		w.diffs[shapeDiff{Definition: def, Field: field, InForgejo: inF}] = true
	}
}

func items(s *fakeforge.Schema) *fakeforge.Schema {
	if s != nil && s.Type == "array" {
		return s.Items
	}
	return nil
}

func prop(s *fakeforge.Schema, name string) *fakeforge.Schema {
	if s == nil {
		return nil
	}
	return s.Properties[name]
}

type jsonField struct {
	Name string
	Type reflect.Type
}

// jsonFields lists the JSON members a struct type decodes, embedded
// structs flattened as encoding/json does.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, jsonFields(et)...)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{Name: name, Type: f.Type})
	}
	return out
}

// responseShapesMatchOrAreDeclared checks, for every tool, the JSON
// fields its decoding types read against the response definition of each
// route it calls in Gitea's description and in each described Forgejo's
// (13.0.5 and 15.0.3 as released, the 10 development build, the 17
// snapshot): a field only one flavour, or one Forgejo version, has must be
// declared in forgejo.Fields() with how the tool handles it.
func responseShapesMatchOrAreDeclared(t *testing.T, dv driven) {
	perTool := map[string]map[shapeDiff]bool{}
	used := map[forgejo.FieldDiff]bool{}
	for _, fj := range dv.specs.described {
		if fj.Forge().Flavour != forgejo.Forgejo {
			continue
		}
		sp := specs{forgejo: fj, gitea: dv.specs.gitea}
		for _, c := range dv.calls() {
			own := c.In[fj.Forge().String()]
			if own == "" || c.Gitea == "" {
				continue // a one-flavour route: its shape has nothing to compare
			}
			typ, def, ok := decodingType(dv.specs, c)
			if !ok {
				if def != "" {
					t.Errorf("%s: %s %s answers %s: add its SDK type to sdkTypes", c.Tool, c.Method, c.Forgejo, def)
				}
				continue
			}
			w := &walker{sp: sp, seen: map[string]bool{}, diffs: map[shapeDiff]bool{}}
			f, g := schemaOf(fj, c.Method, own), schemaOf(dv.specs.gitea, c.Method, c.Gitea)
			if f == nil && g == nil {
				continue
			}
			w.walk(typ, f, g, c.Method+" "+own)
			for d := range w.diffs {
				if perTool[c.Tool] == nil {
					perTool[c.Tool] = map[shapeDiff]bool{}
				}
				perTool[c.Tool][d] = true
			}
		}
	}
	var names []string
	for n := range perTool {
		names = append(names, n)
	}
	sort.Strings(names)
	total := map[shapeDiff]bool{}
	for _, n := range names {
		var lines []string
		for d := range perTool[n] {
			total[d] = true
			fd, ok := d.declared()
			if !assert.True(t, ok, "%s reads %s: declare it in forgejo.Fields()", n, d) {
				continue
			}
			used[fd] = true
			lines = append(lines, fmt.Sprintf("%s: %s", d, fd.Handling))
		}
		sort.Strings(lines)
		t.Logf("%s: %d fields differ\n  %s", n, len(perTool[n]), strings.Join(lines, "\n  "))
	}
	t.Logf("%d tools read %d fields that differ", len(names), len(total))
	for _, fd := range forgejo.Fields() {
		if !strings.HasPrefix(fd.Definition, "query of ") {
			assert.True(t, used[fd], "forgejo.Fields() declares %s %q/%q, which no tool reads any more", fd.Definition, fd.Forgejo, fd.Gitea)
		}
	}
}
