package tool

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// TypeMap is an object of string values (a workflow's inputs): what the
// forge's API takes, so an agent passes it as it would to the forge.
const TypeMap Type = "object"

// MaxMapEntries bounds the entries of a TypeMap argument.
const MaxMapEntries = 100

// StrMap declares an object-of-strings parameter.
func StrMap(name, desc string, opts ...Opt) Param { return newParam(name, TypeMap, desc, opts) }

// StrMap returns an object-of-strings argument, nil when absent.
func (a Args) StrMap(name string) map[string]string { m, _ := a.m[name].(map[string]string); return m }

// coerceMap checks an object of strings. Numbers and booleans become their
// JSON text (a workflow input of 3 or true means "3" or "true"). Also
// accepted: the object as a JSON text (--cli flags are strings), and a
// list of "key=value" strings, the form this parameter once took.
func (p Param) coerceMap(v any, show func(string) string) (any, error) {
	if s, ok := v.(string); ok {
		var decoded map[string]any
		if err := json.Unmarshal([]byte(s), &decoded); err != nil {
			return nil, fmt.Errorf("must be an object of strings, e.g. {\"name\": \"value\"}; got a string that is not a JSON object")
		}
		v = decoded
	}
	if list, ok := v.([]any); ok {
		m := make(map[string]any, len(list))
		for i, it := range list {
			s, _ := it.(string)
			k, val, found := strings.Cut(s, "=")
			if !found || k == "" {
				return nil, fmt.Errorf("must be an object of strings; given as a list, item %d (%q) is not key=value", i, show(s))
			}
			m[k] = val
		}
		v = m
	}
	in, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be an object of strings, e.g. {\"name\": \"value\"}, got %s", jsonKind(v))
	}
	if len(in) > MaxMapEntries {
		return nil, fmt.Errorf("has %d entries; at most %d are allowed", len(in), MaxMapEntries)
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]string, len(in))
	for _, k := range keys {
		var s string
		switch val := in[k].(type) {
		case string:
			s = val
		case float64, bool, json.Number:
			b, _ := json.Marshal(val)
			s = string(b)
		default:
			return nil, fmt.Errorf("entry %q must be a string, got %s", show(k), jsonKind(val))
		}
		if err := p.checkString(s, show); err != nil {
			return nil, fmt.Errorf("entry %q %v", show(k), err)
		}
		out[k] = s
	}
	return out, nil
}
