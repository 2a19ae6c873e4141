package tool

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
)

// Args are a call's arguments after validation against the definition:
// every value present has its parameter's Go type (string, int64, bool,
// []string, or []Args for an object list) and defaults are filled in.
type Args struct {
	m map[string]any
}

// NewArgs wraps already-typed values; for tests and internal callers.
func NewArgs(m map[string]any) Args { return Args{m: m} }

// Has reports whether the argument was given or has a default.
func (a Args) Has(name string) bool { _, ok := a.m[name]; return ok }

// String returns a string argument, "" when absent.
func (a Args) String(name string) string { s, _ := a.m[name].(string); return s }

// Int returns an integer argument, 0 when absent.
func (a Args) Int(name string) int64 { i, _ := a.m[name].(int64); return i }

// Bool returns a boolean argument, false when absent.
func (a Args) Bool(name string) bool { b, _ := a.m[name].(bool); return b }

// Strings returns a list argument, nil when absent.
func (a Args) Strings(name string) []string { s, _ := a.m[name].([]string); return s }

// Given returns the named arguments the call has, keyed by name, as the
// body of an edit: only the fields the agent gave reach the forge, so
// nothing else changes. Lists are copied, so a body never aliases the
// call's arguments.
func (a Args) Given(names ...string) map[string]any {
	body := make(map[string]any, len(names))
	for _, n := range names {
		v, ok := a.m[n]
		if !ok {
			continue
		}
		if l, isList := v.([]string); isList {
			v = append([]string{}, l...)
		}
		body[n] = v
	}
	return body
}

// InputError is an argument that does not fit the tool's parameters.
type InputError struct {
	Tool string
	Msg  string
}

func (e *InputError) Error() string {
	return fmt.Sprintf("invalid arguments for %s: %s", e.Tool, e.Msg)
}

// Parse validates raw arguments (as decoded from JSON) against d's
// parameters: unknown names, missing required values, wrong types, values
// out of range or not allowed are refused with a message naming the
// parameter and what it accepts. A hidden alias (Def.Aliases) is read as
// its parameter.
func (d Def) Parse(raw any) (Args, error) { return d.parse(raw, nil) }

// parse is Parse with redact applied to every argument value or name an
// error echoes, before it is clipped: a token pasted into an argument is
// then never echoed, not even the part of it that clipping would keep.
func (d Def) parse(raw any, redact func(string) string) (Args, error) {
	show := func(s string) string {
		if redact != nil {
			s = redact(s)
		}
		return forgejo.Clip(s)
	}
	in, ok := raw.(map[string]any)
	if raw != nil && !ok {
		return Args{}, d.inputErr("arguments must be a JSON object, got %s", jsonKind(raw))
	}
	in, err := d.resolveAliases(in)
	if err != nil {
		return Args{}, err
	}
	out := make(map[string]any, len(d.Params))
	var unknown []string
	for name := range in {
		if d.param(name) == nil {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return Args{}, d.inputErr("unknown argument %s; this tool takes: %s", quoteAll(unknown, show), strings.Join(d.ParamNames(), ", "))
	}
	for _, p := range d.Params {
		v, present := in[p.Name]
		if !present || v == nil {
			if p.Required {
				if (p.Name == "owner" || p.Name == "repo") && d.TakesURL() {
					return Args{}, d.inputErr("missing required argument %q (%s), or url, the repository's web address", p.Name, p.Description)
				}
				return Args{}, d.inputErr("missing required argument %q (%s)", p.Name, p.Description)
			}
			if p.Default != nil {
				out[p.Name] = p.Default
			}
			continue
		}
		val, err := p.coerce(v, show)
		if err != nil {
			return Args{}, d.inputErr("%s", p.argError(err))
		}
		out[p.Name] = val
	}
	return Args{m: out}, nil
}

// resolveAliases returns in with each hidden alias renamed to its
// parameter, in a copy (the caller's map is not changed). An alias given
// together with its parameter is refused: which one was meant is unknown.
func (d Def) resolveAliases(in map[string]any) (map[string]any, error) {
	if len(d.Aliases) == 0 || len(in) == 0 {
		return in, nil
	}
	var out map[string]any
	for name, v := range in {
		canonical, ok := d.Aliases[name]
		if !ok || d.param(name) != nil {
			continue
		}
		if _, both := in[canonical]; both {
			return nil, d.inputErr("%q and %q name the same argument; give only %q", name, canonical, canonical)
		}
		if out == nil {
			out = make(map[string]any, len(in))
			for k, v := range in {
				out[k] = v
			}
		}
		delete(out, name)
		out[canonical] = v
	}
	if out == nil {
		return in, nil
	}
	return out, nil
}

func (d Def) inputErr(format string, args ...any) error {
	return &InputError{Tool: d.Name, Msg: fmt.Sprintf(format, args...)}
}

func (d Def) param(name string) *Param {
	for i := range d.Params {
		if d.Params[i].Name == name {
			return &d.Params[i]
		}
	}
	return nil
}

// ParamNames lists the parameter names in declaration order.
func (d Def) ParamNames() []string {
	names := make([]string, len(d.Params))
	for i, p := range d.Params {
		names[i] = p.Name
	}
	return names
}

// coerce checks one value against p and returns it as p's Go type.
// show prepares an argument value for an error message.
func (p Param) coerce(v any, show func(string) string) (any, error) {
	switch p.Type {
	case TypeString:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("must be a string, got %s", jsonKind(v))
		}
		return s, p.checkString(s, show)
	case TypeInteger:
		i, err := toInt(v, show)
		if err != nil {
			return nil, err
		}
		if p.Min != nil && i < *p.Min {
			return nil, fmt.Errorf("must be at least %d, got %d", *p.Min, i)
		}
		if p.Max != nil && i > *p.Max {
			return nil, fmt.Errorf("must be at most %d, got %d", *p.Max, i)
		}
		return i, nil
	case TypeBoolean:
		switch b := v.(type) {
		case bool:
			return b, nil
		case string:
			if pb, err := strconv.ParseBool(b); err == nil {
				return pb, nil
			}
		}
		return nil, fmt.Errorf("must be true or false, got %s", jsonKind(v))
	case TypeList:
		items, ok := v.([]any)
		if !ok {
			if ss, ok := v.([]string); ok {
				items = make([]any, len(ss))
				for i, s := range ss {
					items[i] = s
				}
			} else {
				return nil, fmt.Errorf("must be a list of strings, got %s", jsonKind(v))
			}
		}
		out := make([]string, 0, len(items))
		for i, it := range items {
			s, ok := it.(string)
			if !ok {
				return nil, fmt.Errorf("item %d must be a string, got %s", i, jsonKind(it))
			}
			if err := p.checkString(s, show); err != nil {
				return nil, fmt.Errorf("item %d %v", i, err)
			}
			out = append(out, s)
		}
		return out, nil
	case TypeObjects:
		return p.coerceObjects(v, show)
	case TypeMap:
		return p.coerceMap(v, show)
	case TypeJSON:
		return coerceJSON(v)
	}
	return nil, fmt.Errorf("has an unsupported type %q", p.Type)
}

func (p Param) checkString(s string, show func(string) string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("must be valid UTF-8")
	}
	if strings.ContainsRune(s, 0) {
		return fmt.Errorf("must not contain NUL characters")
	}
	if p.Required && strings.TrimSpace(s) == "" {
		return fmt.Errorf("must not be empty")
	}
	if p.MaxLength > 0 && len(s) > p.MaxLength {
		return fmt.Errorf("is %d bytes long; at most %d are allowed", len(s), p.MaxLength)
	}
	if len(p.Enum) > 0 && !contains(p.Enum, s) {
		return fmt.Errorf("must be one of %s, got %q", strings.Join(p.Enum, ", "), show(s))
	}
	if p.Pattern != nil && s != "" {
		if !p.Pattern.MatchString(s) || s == "." || s == ".." {
			return fmt.Errorf("must contain %s, got %q", p.PatternHint, show(s))
		}
	}
	return nil
}

// toInt accepts a JSON number that is a whole number, or a decimal string
// (agents sometimes quote numbers).
func toInt(v any, show func(string) string) (int64, error) {
	switch n := v.(type) {
	case float64:
		if n != math.Trunc(n) || math.IsInf(n, 0) || math.Abs(n) > 1<<53 {
			return 0, fmt.Errorf("must be a whole number, got %v", n)
		}
		return int64(n), nil
	case int:
		return int64(n), nil
	case int64:
		return n, nil
	case json.Number:
		return parseIntString(n.String(), show)
	case string:
		return parseIntString(n, show)
	}
	return 0, fmt.Errorf("must be a whole number, got %s", jsonKind(v))
}

func parseIntString(s string, show func(string) string) (int64, error) {
	i, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("must be a whole number, got %q", show(s))
	}
	return i, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, int, int64, json.Number:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteAll(ss []string, show func(string) string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(show(s))
	}
	return strings.Join(q, ", ")
}
