package tool

import (
	"reflect"
	"strings"
)

// Results never carry null where a list or an object belongs. encoding/json
// writes a nil slice or map as null, and admitting null in an outputSchema
// takes a type union (["array","null"]) that single-type schema dialects
// reject (see schema.go). A handler often has a nil slice for "none" (no
// labels, no assignees, a forge that sent null), so JSON replaces them
// rather than every handler remembering to: an agent reads [] either way.

// withoutNil returns v with every nil slice and map that encoding/json
// would write (a field without omitempty/omitzero, a list element, a map
// value) replaced by an empty one, and changed reporting whether anything
// was. v itself is never modified: what holds a replacement is copied.
// Types that encode themselves (time.Time, json.RawMessage) are left
// alone.
func withoutNil(v reflect.Value) (out reflect.Value, changed bool) {
	if !v.IsValid() || encodesItself(v.Type()) {
		return v, false
	}
	switch v.Kind() {
	case reflect.Slice:
		if v.IsNil() {
			return reflect.MakeSlice(v.Type(), 0, 0), true
		}
		if !mayHoldNil(v.Type().Elem()) {
			return v, false
		}
		for i := range v.Len() {
			e, ok := withoutNil(v.Index(i))
			if !ok {
				continue
			}
			if !changed {
				out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				reflect.Copy(out, v)
				changed = true
			}
			out.Index(i).Set(e)
		}
	case reflect.Map:
		if v.IsNil() {
			return reflect.MakeMap(v.Type()), true
		}
		if !mayHoldNil(v.Type().Elem()) {
			return v, false
		}
		it := v.MapRange()
		for it.Next() {
			e, ok := withoutNil(it.Value())
			if !ok {
				continue
			}
			if !changed {
				out = reflect.MakeMapWithSize(v.Type(), v.Len())
				for c := v.MapRange(); c.Next(); {
					out.SetMapIndex(c.Key(), c.Value())
				}
				changed = true
			}
			out.SetMapIndex(it.Key(), e)
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e, ok := withoutNil(v.Elem())
		if !ok {
			return v, false
		}
		if v.Kind() == reflect.Pointer {
			out = reflect.New(e.Type())
			out.Elem().Set(e)
		} else {
			out = reflect.New(v.Type()).Elem()
			out.Set(e)
		}
		return out, true
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" || !sf.IsExported() || !mayHoldNil(sf.Type) {
				continue
			}
			if k := sf.Type.Kind(); (k == reflect.Slice || k == reflect.Map) && omits(tag) {
				continue // nil is left out, not written as null
			}
			e, ok := withoutNil(v.Field(i))
			if !ok {
				continue
			}
			if !changed {
				out = reflect.New(t).Elem()
				out.Set(v)
				changed = true
			}
			out.Field(i).Set(e)
		}
	}
	if !changed {
		return v, false
	}
	return out, true
}

// omits reports whether a json tag leaves an empty value out.
func omits(tag string) bool {
	_, opts, _ := strings.Cut(tag, ",")
	opts = "," + opts + ","
	return strings.Contains(opts, ",omitempty,") || strings.Contains(opts, ",omitzero,")
}

// mayHoldNil reports whether a value of type t can be or contain a nil
// slice or map.
func mayHoldNil(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface, reflect.Struct:
		return !encodesItself(t)
	}
	return false
}

// encodesItself reports whether encoding/json leaves t's encoding to t.
func encodesItself(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
		return false
	}
	return t.Implements(jsonMarshalerType) || reflect.PointerTo(t).Implements(jsonMarshalerType) ||
		t.Implements(textMarshalerType) || reflect.PointerTo(t).Implements(textMarshalerType)
}
