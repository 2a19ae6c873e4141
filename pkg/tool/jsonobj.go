package tool

import (
	"encoding/json"
	"fmt"
)

// TypeJSON is a JSON object of any members (call_tool's arguments): kept
// as given, for the tool that reads it to validate. Its schema type is
// "object"; --cli takes it as JSON text.
const TypeJSON Type = "json"

// JSONObject declares a free JSON object parameter.
func JSONObject(name, desc string, opts ...Opt) Param { return newParam(name, TypeJSON, desc, opts) }

// Object returns a free JSON object argument, nil when absent.
func (a Args) Object(name string) map[string]any { m, _ := a.m[name].(map[string]any); return m }

// coerceJSON accepts an object, or the object as JSON text (--cli flags
// are strings).
func coerceJSON(v any) (any, error) {
	if s, ok := v.(string); ok {
		var decoded map[string]any
		if err := json.Unmarshal([]byte(s), &decoded); err != nil || decoded == nil {
			return nil, fmt.Errorf("must be a JSON object, e.g. {\"owner\": \"o\"}; got a string that is not one")
		}
		return decoded, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be a JSON object, got %s", jsonKind(v))
	}
	return m, nil
}
