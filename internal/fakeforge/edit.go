package fakeforge

import (
	"net/http"
	"strings"
)

// MimicEdited makes every route of spec answer as Mimic does, after edit
// has seen (and may have changed) every object of the answer that is an
// instance of a named definition ("Issue", "Repository"…), innermost
// first. Tests use it to put a marker in the fields of their choosing, or
// to make the forge describe a public repository.
func (s *Server) MimicEdited(spec *Spec, edit func(def string, obj map[string]any)) {
	s.mimic(spec, answers{
		file: mimicFile,
		text: mimicText,
		json: func(_ *http.Request, sc *Schema) any { return spec.edited(spec.Example(sc), sc, edit) },
	})
}

// edited walks v, an Example of sc, calling edit on each object of a named
// definition.
func (s *Spec) edited(v any, sc *Schema, edit func(string, map[string]any)) any {
	def := ""
	for i := 0; sc != nil && sc.Ref != "" && i < 8; i++ {
		def = sc.Ref[strings.LastIndex(sc.Ref, "/")+1:]
		sc = s.Definitions[sc.Ref]
	}
	if sc == nil {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch p := sc.Properties[k]; {
			case p != nil:
				x[k] = s.edited(e, p, edit)
			case sc.AdditionalProperties != nil:
				x[k] = s.edited(e, sc.AdditionalProperties, edit)
			}
		}
		if def != "" {
			edit(def, x)
		}
	case []any:
		for i, e := range x {
			x[i] = s.edited(e, sc.Items, edit)
		}
	}
	return v
}
