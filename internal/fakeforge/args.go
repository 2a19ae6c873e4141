package fakeforge

import (
	"encoding/base64"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// ValidArgs synthesises a valid value for every parameter of d, each
// checked against the parameter's own validation, so a test can drive any
// tool of the inventory, a new one included, without knowing it.
func ValidArgs(t *testing.T, d tool.Def) map[string]any {
	t.Helper()
	args := map[string]any{}
	for _, p := range d.Params {
		var candidates []any
		switch {
		case p.Type == tool.TypeList && len(p.Enum) > 0:
			candidates = []any{[]any{p.Enum[0]}}
		case len(p.Enum) > 0:
			candidates = []any{p.Enum[0]}
		case p.Type == tool.TypeInteger:
			v := int64(1)
			if p.Min != nil && *p.Min > v {
				v = *p.Min
			}
			candidates = []any{float64(v)}
		case p.Type == tool.TypeBoolean:
			candidates = []any{true}
		case p.Type == tool.TypeList:
			candidates = []any{[]any{"x"}}
		case p.Type == tool.TypeObjects:
			candidates = []any{[]any{validItem(t, d, p)}}
		case p.Type == tool.TypeMap:
			candidates = []any{map[string]any{"x": "o1"}}
		case p.Type == tool.TypeJSON:
			candidates = []any{map[string]any{}}
		default:
			candidates = []any{base64.StdEncoding.EncodeToString([]byte("hello")), "o1", "main", "docs/readme.md", "hello.txt", "x", "2026-01-02",
				"0123456789abcdef0123456789abcdef01234567"}
			if p.Name == d.CLIFile || p.Name == "content" {
				candidates = candidates[:1]
			} else {
				candidates = candidates[1:]
			}
		}
		one := tool.Def{Name: d.Name, Params: []tool.Param{p}}
		found := false
		for _, c := range candidates {
			if _, err := one.Parse(map[string]any{p.Name: c}); err == nil {
				args[p.Name] = c
				found = true
				break
			}
		}
		require.True(t, found, "no valid value for %s.%s", d.Name, p.Name)
	}
	_, err := d.Parse(args)
	require.NoError(t, err, "synthesised arguments of %s", d.Name)
	return args
}

// validItem synthesises one valid item of an object list: a value for
// every field, then without one or two optional fields or without all of
// them until the item passes the list's own checks (exactly one of two
// fields; a field only one operation takes).
func validItem(t *testing.T, d tool.Def, p tool.Param) map[string]any {
	t.Helper()
	all := ValidArgs(t, tool.Def{Name: d.Name + "." + p.Name, Params: p.Items.Fields})
	one := tool.Def{Name: d.Name, Params: []tool.Param{p}}
	tries := []map[string]any{all}
	required := map[string]any{}
	var optional []string
	for _, f := range p.Items.Fields {
		if f.Required {
			required[f.Name] = all[f.Name]
		} else {
			optional = append(optional, f.Name)
		}
	}
	without := func(names ...string) map[string]any {
		out := map[string]any{}
		for k, v := range all {
			if !slices.Contains(names, k) {
				out[k] = v
			}
		}
		return out
	}
	for i, a := range optional {
		tries = append(tries, without(a))
		for _, b := range optional[i+1:] {
			tries = append(tries, without(a, b))
		}
	}
	for _, item := range append(tries, required) {
		if _, err := one.Parse(map[string]any{p.Name: []any{item}}); err == nil {
			return item
		}
	}
	require.Fail(t, "no valid item", "for %s.%s", d.Name, p.Name)
	return nil
}
