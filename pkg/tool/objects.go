package tool

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// TypeObjects is a list of objects whose fields are typed parameters
// (Param.Items): review comments, file changes. Its JSON schema is an
// array of objects; --cli takes it through --args or as a JSON text.
const TypeObjects Type = "objects"

// ItemSpec describes the items of a TypeObjects parameter.
type ItemSpec struct {
	// Fields are each item's fields, validated as parameters are
	// (required, types, ranges, enums, patterns); unknown fields are
	// refused.
	Fields []Param
	// MaxItems bounds the list's length.
	MaxItems int
	// Check, when set, validates one item after its fields, for a rule
	// across fields ("exactly one of new_line and old_line"); its error
	// is reported as the item's.
	Check func(item Args) error
	// Aliases maps another spelling of a field to the field's name.
	Aliases map[string]string
}

// DefaultMaxItems bounds an object list that names no bound.
const DefaultMaxItems = 100

// Objects declares a list-of-objects parameter whose items have fields;
// ItemCheck, MaxItems and ItemAliases refine it.
func Objects(name, desc string, fields []Param, opts ...Opt) Param {
	p := Param{Name: name, Type: TypeObjects, Description: desc,
		Items: &ItemSpec{Fields: fields, MaxItems: DefaultMaxItems}}
	for _, o := range opts {
		o(&p)
	}
	return p
}

// MaxItems bounds an object list's length.
func MaxItems(n int) Opt {
	return func(p *Param) { p.Items = p.Items.with(func(s *ItemSpec) { s.MaxItems = n }) }
}

// ItemCheck adds a rule across an item's fields.
func ItemCheck(check func(item Args) error) Opt {
	return func(p *Param) { p.Items = p.Items.with(func(s *ItemSpec) { s.Check = check }) }
}

// ItemAliases accepts other spellings of item fields (alias → field).
func ItemAliases(aliases map[string]string) Opt {
	return func(p *Param) { p.Items = p.Items.with(func(s *ItemSpec) { s.Aliases = aliases }) }
}

// with returns a changed copy of s, so Params sharing a spec stay apart.
func (s *ItemSpec) with(f func(*ItemSpec)) *ItemSpec {
	c := ItemSpec{MaxItems: DefaultMaxItems}
	if s != nil {
		c = *s
	}
	f(&c)
	return &c
}

// Objects returns an object-list argument, one Args per item (fields
// typed, defaults filled), nil when absent.
func (a Args) Objects(name string) []Args { o, _ := a.m[name].([]Args); return o }

// ItemError is an invalid item of an object list. Its message names the
// item and field the way an agent would write them: "comments[2].path".
type ItemError struct{ Msg string }

func (e *ItemError) Error() string { return e.Msg }

// argError is the message for an invalid value of p: an item error as it
// is, anything else prefixed with the argument's name.
func (p Param) argError(err error) string {
	var ie *ItemError
	if errors.As(err, &ie) {
		return ie.Msg
	}
	return fmt.Sprintf("argument %q %s", p.Name, err)
}

// coerceObjects checks an object list against p.Items. A JSON text holding
// the list is accepted too: clients and scripts written for servers that
// took such lists as strings send one, and --cli flags are strings.
func (p Param) coerceObjects(v any, show func(string) string) (any, error) {
	spec := p.Items
	if spec == nil {
		return nil, fmt.Errorf("has no item fields declared")
	}
	if s, ok := v.(string); ok {
		var decoded any
		if err := json.Unmarshal([]byte(s), &decoded); err != nil {
			return nil, fmt.Errorf("must be a list of objects (a JSON array), got a string that is not JSON")
		}
		v = decoded
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("must be a list of objects, got %s", jsonKind(v))
	}
	if spec.MaxItems > 0 && len(list) > spec.MaxItems {
		return nil, &ItemError{fmt.Sprintf("%s has %d items; at most %d are allowed per call", p.Name, len(list), spec.MaxItems)}
	}
	if p.Required && len(list) == 0 {
		return nil, &ItemError{fmt.Sprintf("%s must have at least one item", p.Name)}
	}
	out := make([]Args, 0, len(list))
	for i, it := range list {
		item, err := spec.parseItem(it, show)
		if err != nil {
			return nil, &ItemError{fmt.Sprintf("%s[%d]%s", p.Name, i, err)}
		}
		out = append(out, item)
	}
	return out, nil
}

// parseItem validates one item; its errors start with what follows the
// item's name: ".path is required", " must be an object".
func (s *ItemSpec) parseItem(it any, show func(string) string) (Args, error) {
	in, ok := it.(map[string]any)
	if !ok {
		return Args{}, fmt.Errorf(" must be an object with %s, got %s", s.fieldList(), jsonKind(it))
	}
	var unknown []string
	for name := range in {
		if s.field(name) == nil && s.Aliases[name] == "" {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return Args{}, fmt.Errorf(": unknown field %s; items take %s", quoteAll(unknown, show), s.fieldList())
	}
	if len(s.Aliases) > 0 { // renamed in a copy: the caller's map stays as it is
		renamed := make(map[string]any, len(in))
		for k, v := range in {
			if name := s.Aliases[k]; name != "" && s.field(k) == nil {
				if _, both := in[name]; both {
					return Args{}, fmt.Errorf(": %q and %q name the same field; give only %q", k, name, name)
				}
				k = name
			}
			renamed[k] = v
		}
		in = renamed
	}
	out := make(map[string]any, len(s.Fields))
	for _, f := range s.Fields {
		v, present := in[f.Name]
		if !present || v == nil {
			if f.Required {
				return Args{}, fmt.Errorf(".%s is required (%s)", f.Name, f.Description)
			}
			if f.Default != nil {
				out[f.Name] = f.Default
			}
			continue
		}
		val, err := f.coerce(v, show)
		if err != nil {
			return Args{}, fmt.Errorf(".%s %v", f.Name, err)
		}
		out[f.Name] = val
	}
	item := Args{m: out}
	if s.Check != nil {
		if err := s.Check(item); err != nil {
			return Args{}, fmt.Errorf(": %v", err)
		}
	}
	return item, nil
}

func (s *ItemSpec) field(name string) *Param {
	for i := range s.Fields {
		if s.Fields[i].Name == name {
			return &s.Fields[i]
		}
	}
	return nil
}

// fieldList is "path, body, new_line?, old_line?": the fields, optional
// ones marked.
func (s *ItemSpec) fieldList() string {
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
		if !f.Required {
			names[i] += "?"
		}
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// objectsSchema is the JSON schema of a TypeObjects parameter.
func (p Param) objectsSchema() map[string]any {
	props := make(map[string]any, len(p.Items.Fields))
	var required []string
	for _, f := range p.Items.Fields {
		props[f.Name] = f.schema()
		if f.Required {
			required = append(required, f.Name)
		}
	}
	// Unknown item fields are refused, but additionalProperties is left
	// out, as its bytes would be paid for in every session.
	item := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		item["required"] = required
	}
	s := map[string]any{"type": "array", "description": p.Description, "items": item}
	if p.Items.MaxItems > 0 {
		s["maxItems"] = p.Items.MaxItems
	}
	return s
}

// objectsSummary is how --help describes an object list: its item fields
// and that the command line passes it as JSON.
func (p Param) objectsSummary() string {
	return fmt.Sprintf("list of %s, at most %d, as JSON: use --args, or --%s '[…]'",
		p.Items.fieldList(), p.Items.MaxItems, strings.ReplaceAll(p.Name, "_", "-"))
}
