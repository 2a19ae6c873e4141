package tool_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

type WithLists struct {
	Labels []string          `json:"labels"`
	Kept   []string          `json:"kept,omitempty"`
	Zero   []string          `json:"zero,omitzero"`
	Meta   map[string]string `json:"meta"`
	When   time.Time         `json:"when"`
	Raw    json.RawMessage   `json:"raw"`
	Child  *WithLists        `json:"child,omitempty"`
	hidden []string
}

type embeds struct {
	WithLists
	Name string `json:"name"`
}

// TestJSONWritesNoNull: a nil slice or map a result would carry as null
// (at any depth: fields, list items, map values, behind pointers and
// interfaces) is written empty, what omitempty leaves out stays out,
// self-encoding types are untouched, and the handler's value is not
// modified.
func TestJSONWritesNoNull(t *testing.T) {
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	const empty = `"labels":[],"meta":{},"when":"2026-01-02T03:04:05Z","raw":null`
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"fields", WithLists{When: when}, `{` + empty + `}`},
		{"set values stay", WithLists{Labels: []string{"a"}, Kept: []string{"k"}, Meta: map[string]string{"k": "v"}, When: when},
			`{"labels":["a"],"kept":["k"],"meta":{"k":"v"},"when":"2026-01-02T03:04:05Z","raw":null}`},
		{"behind a pointer", WithLists{When: when, Labels: []string{"x"}, Meta: map[string]string{}, Child: &WithLists{When: when}},
			`{"labels":["x"],"meta":{},"when":"2026-01-02T03:04:05Z","raw":null,"child":{` + empty + `}}`},
		{"list items", tool.ListPage[WithLists]{Items: []WithLists{{When: when}}},
			`{"items":[{` + empty + `}],"page":0,"has_more":false}`},
		{"nil list page", tool.ListPage[string]{}, `{"items":[],"page":0,"has_more":false}`},
		{"map values", map[string]any{"assignees": []string(nil), "n": 1, "nested": map[string]any{"l": []int(nil)}},
			`{"assignees":[],"n":1,"nested":{"l":[]}}`},
		{"shape", tool.Shape{"labels": []string(nil)}, `{"labels":[]}`},
		{"embedded", embeds{WithLists: WithLists{When: when}, Name: "n"}, `{` + empty + `,"name":"n"}`},
		{"nothing nil", map[string]int{"null": 1}, `{"null":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tool.JSON(tt.v)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(res.StructuredContent.(json.RawMessage)))
		})
	}

	child := &WithLists{}
	orig := WithLists{Child: child}
	m := map[string]any{"l": []string(nil)}
	_, err := tool.JSON(orig)
	require.NoError(t, err)
	_, err = tool.JSON(m)
	require.NoError(t, err)
	assert.Nil(t, orig.Labels, "the handler's value is not modified")
	assert.Nil(t, child.Labels, "nor what it points to")
	assert.Nil(t, m["l"], "nor its map")
}
