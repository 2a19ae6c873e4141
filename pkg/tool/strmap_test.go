package tool_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestStrMapParse(t *testing.T) {
	d := tool.Def{Name: "dispatch", Params: []tool.Param{tool.StrMap("inputs", "Inputs", tool.MaxLen(10))}}
	many := map[string]any{}
	for i := range tool.MaxMapEntries + 1 {
		many[strings.Repeat("k", i+1)] = "v"
	}
	tests := []struct {
		name    string
		in      any
		want    map[string]string
		wantErr string
	}{
		{"object", map[string]any{"a": "1", "b": ""}, map[string]string{"a": "1", "b": ""}, ""},
		{"scalars as JSON text", map[string]any{"n": 2.5, "t": false}, map[string]string{"n": "2.5", "t": "false"}, ""},
		{"JSON text", `{"a":"x"}`, map[string]string{"a": "x"}, ""},
		{"key=value list", []any{"a=b=c"}, map[string]string{"a": "b=c"}, ""},
		{"empty object", map[string]any{}, map[string]string{}, ""},
		{"text not JSON", "a=b", nil, `argument "inputs" must be an object of strings, e.g. {"name": "value"}; got a string that is not a JSON object`},
		{"list item without =", []any{"a", "b=c"}, nil, `item 0 ("a") is not key=value`},
		{"list item not a string", []any{3.0}, nil, `item 0 ("") is not key=value`},
		{"null value", map[string]any{"a": nil}, nil, `entry "a" must be a string, got null`},
		{"list value", map[string]any{"a": []any{"x"}}, nil, `entry "a" must be a string, got a list`},
		{"value too long", map[string]any{"a": strings.Repeat("x", 11)}, nil, `entry "a" is 11 bytes long; at most 10 are allowed`},
		{"NUL", map[string]any{"a": "x\x00"}, nil, `entry "a" must not contain NUL characters`},
		{"too many", many, nil, "has 101 entries; at most 100 are allowed"},
		{"a number", 3.0, nil, "must be an object of strings"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := d.Parse(map[string]any{"inputs": tc.in})
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, a.StrMap("inputs"))
		})
	}
}

func TestStrMapSchema(t *testing.T) {
	d := tool.Def{Name: "dispatch", Description: "d", Params: []tool.Param{tool.StrMap("inputs", "Inputs")}}
	b, err := json.Marshal(d.MCPTool().InputSchema)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"inputs":{"description":"Inputs","type":"object"}`)
	assert.Contains(t, tool.ParamSummary(d.Params[0]), `--inputs '{"name":"value"}'`)
}
