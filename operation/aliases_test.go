package operation_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// aliasValue is a valid value for p.
func aliasValue(p tool.Param) any {
	switch p.Type {
	case tool.TypeInteger:
		v := int64(5)
		if p.Min != nil && *p.Min > v {
			v = *p.Min
		}
		return float64(v)
	case tool.TypeBoolean:
		return true
	case tool.TypeList:
		return []any{"x"}
	}
	if len(p.Enum) > 0 {
		return p.Enum[len(p.Enum)-1]
	}
	if p.Pattern != nil {
		return "x"
	}
	if p.Name == "target_url" {
		return "http://127.0.0.1:9/hook"
	}
	return "docs/a.md"
}

// requiredArgs are values for d's required parameters but skip.
func requiredArgs(d tool.Def, skip string) map[string]any {
	args := map[string]any{}
	for _, p := range d.Params {
		if p.Required && p.Name != skip {
			args[p.Name] = aliasValue(p)
		}
	}
	if _, ok := args["content"]; ok {
		args["content"] = "aGVsbG8="
	}
	return args
}

// TestAliasTable reads the compatibility table: every alias names a real
// tool and a real parameter of it, and is not itself a parameter there.
func TestAliasTable(t *testing.T) {
	table := operation.Aliases()
	require.NotEmpty(t, table)
	all := operation.All()
	for name, aliases := range table {
		d, ok := tool.Find(all, name)
		if !assert.True(t, ok, "the alias table names tool %s, which does not exist", name) {
			continue
		}
		assert.Equal(t, aliases, d.Aliases, "%s carries its aliases", name)
		names := map[string]bool{}
		for _, p := range d.Params {
			names[p.Name] = true
		}
		for alias, param := range aliases {
			assert.True(t, names[param], "%s: alias %s stands for %s, which the tool does not have", name, alias, param)
			assert.False(t, names[alias], "%s: alias %s is a parameter of its own", name, alias)
		}
	}
	for _, d := range all {
		if table[d.Name] == nil {
			assert.Empty(t, d.Aliases, "%s has aliases outside the table", d.Name)
		}
	}
}

// TestAliasBehavesLikeItsParameter: for every entry, a call with the
// alias parses to exactly the arguments of the call with the parameter,
// both at once are refused, and the caller's map is left unchanged.
func TestAliasBehavesLikeItsParameter(t *testing.T) {
	all := operation.All()
	for name, aliases := range operation.Aliases() {
		d, _ := tool.Find(all, name)
		for alias, param := range aliases {
			t.Run(name+"/"+alias, func(t *testing.T) {
				var p tool.Param
				for _, q := range d.Params {
					if q.Name == param {
						p = q
					}
				}
				canonical := requiredArgs(d, param)
				canonical[param] = aliasValue(p)
				want, err := d.Parse(canonical)
				require.NoError(t, err)

				viaAlias := requiredArgs(d, param)
				viaAlias[alias] = aliasValue(p)
				got, err := d.Parse(viaAlias)
				require.NoError(t, err)
				assert.Equal(t, want, got)
				assert.Contains(t, viaAlias, alias, "the caller's arguments are not rewritten")

				viaAlias[param] = aliasValue(p)
				_, err = d.Parse(viaAlias)
				require.Error(t, err)
				assert.Contains(t, err.Error(), `name the same argument; give only "`+param+`"`)
			})
		}
	}
}

// TestAliasesAreNotAdvertised: no schema, and so neither tools/list nor
// the snapshot or README generated from it, shows an alias.
func TestAliasesAreNotAdvertised(t *testing.T) {
	for _, d := range operation.All() {
		props := d.MCPTool().InputSchema.Properties
		for alias := range d.Aliases {
			assert.NotContains(t, props, alias, "%s advertises alias %s", d.Name, alias)
		}
		// The input side: an output property may share an alias's name
		// (a webhook's "id").
		mt := d.MCPTool()
		mt.RawOutputSchema = nil
		b, err := json.Marshal(mt)
		require.NoError(t, err)
		for alias := range d.Aliases {
			assert.NotContains(t, string(b), `"`+alias+`"`, "%s", d.Name)
		}
	}
}
