package tool_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

type inner struct {
	A string `json:"a"`
}

type Embedded struct {
	Promoted int    `json:"promoted"`
	Shadowed string `json:"shadowed"`
}

type sample struct {
	Embedded
	*inner   `json:"-"`
	Name     string            `json:"name"`
	Count    int64             `json:"count,omitempty"`
	When     time.Time         `json:"when"`
	Maybe    *time.Time        `json:"maybe,omitempty"`
	Ptr      *inner            `json:"ptr,omitempty"`
	Inners   []*inner          `json:"inners"`
	Tags     []string          `json:"tags"`
	Kept     []string          `json:"kept,omitempty"`
	Labels   map[string]string `json:"labels"`
	Any      any               `json:"any"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	Quoted   int               `json:"quoted,string"`
	Shadowed bool              `json:"shadowed"`
	Skipped  string            `json:"-"`
	Bytes    []byte            `json:"bytes,omitempty"`
	unexp    int
	Untagged float64
}

// TestSchemaOf checks the generator against encoding/json's rules, and
// that real encodings of the type validate against what it generates
// (with a validator nobody here wrote).
func TestSchemaOf(t *testing.T) {
	s, err := tool.SchemaOf(sample{})
	require.NoError(t, err)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{
		"promoted":{"type":"integer"},
		"shadowed":{"type":"boolean"},
		"name":{"type":"string"},
		"count":{"type":"integer"},
		"when":{"type":"string","format":"date-time"},
		"maybe":{"type":"string","format":"date-time"},
		"ptr":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},
		"inners":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}},
		"tags":{"type":"array","items":{"type":"string"}},
		"kept":{"type":"array","items":{"type":"string"}},
		"labels":{"type":"object","additionalProperties":{"type":"string"}},
		"any":{},
		"raw":{},
		"quoted":{"type":"string"},
		"bytes":{"type":"string"},
		"Untagged":{"type":"number"}},
		"required":["Untagged","any","inners","labels","name","promoted","quoted","shadowed","tags","when"]}`, string(b))
	now := time.Now()
	for _, v := range []sample{{}, {Name: "x", Count: 3, Maybe: &now, Ptr: &inner{A: "a"}, Inners: []*inner{{A: "b"}}, Tags: []string{"t"},
		Kept: []string{"k"}, Labels: map[string]string{"k": "v"}, Any: []int{1}, Raw: json.RawMessage(`{"z":1}`), Bytes: []byte("hi")}} {
		res, err := tool.JSON(v) // as a handler sends it: nil lists and maps as [] and {}
		require.NoError(t, err)
		enc := res.StructuredContent.(json.RawMessage)
		assert.NoError(t, schemacheck.Validate(b, enc), string(enc))
	}
	assert.NotContains(t, string(b), `"null"`, "one type per node: no union with null")
	assert.Error(t, schemacheck.Validate(b, []byte(`{"name":1}`)), "a wrong type fails")
}

func TestOutputSchemaShapes(t *testing.T) {
	tests := []struct {
		name   string
		output any
		good   []string
		bad    []string
		err    string
	}{
		{name: "list page", output: tool.ListPage[inner]{},
			good: []string{`{"items":[{"a":"x"}],"page":1,"has_more":false}`},
			bad:  []string{`{"items":[{}],"page":1,"has_more":false}`, `{"page":1}`}},
		{name: "deleted", output: tool.DeletedOutput("id", int64(0)),
			good: []string{`{"deleted":true,"id":3}`}, bad: []string{`{"deleted":true,"id":"3"}`, `{"deleted":true}`}},
		{name: "shape", output: tool.Shape{"marked": 0, "labels": []inner{}},
			good: []string{`{"marked":2,"labels":[{"a":"b"}]}`}, bad: []string{`{"marked":2}`}},
		{name: "any of", output: tool.AnyOf(inner{}, tool.Shape{"number": int64(0), "merged": true}),
			good: []string{`{"a":"x"}`, `{"number":1,"merged":true}`}, bad: []string{`{"number":1}`}},
		{name: "array root", output: []inner{}, err: "must be a JSON object"},
		{name: "channel", output: struct{ C chan int }{}, err: "does not encode"},
		{name: "nil pointer", output: struct {
			P *inner `json:"p"`
		}{}, err: "a nil pointer encodes as null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			schema, err := tool.Def{Name: "t", Output: tt.output}.OutputSchema()
			if tt.err != "" {
				require.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			for _, g := range tt.good {
				assert.NoError(t, schemacheck.Validate(schema, []byte(g)), g)
			}
			for _, b := range tt.bad {
				assert.Error(t, schemacheck.Validate(schema, []byte(b)), b)
			}
		})
	}
	none, err := tool.Def{Name: "t"}.OutputSchema()
	require.NoError(t, err)
	assert.Nil(t, none, "no Output, no schema")
}

// TestStructuredContent: a JSON object result is also structuredContent,
// for tools that declare an Output only, never on an error; an array is
// text alone.
func TestStructuredContent(t *testing.T) {
	obj := func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return tool.JSON(map[string]int{"n": 1})
	}
	arr := func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		return tool.JSON([]int{1})
	}
	fail := func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
		res, _ := tool.JSON(map[string]int{"n": 1})
		res.IsError = true
		return res, nil
	}
	tests := []struct {
		name string
		def  tool.Def
		want string // structuredContent as JSON, "" for none
	}{
		{"object with output", tool.Def{Name: "a", Offline: true, Output: tool.Shape{"n": 0}, Handler: obj}, `{"n":1}`},
		{"object without output", tool.Def{Name: "b", Offline: true, Handler: obj}, ""},
		{"array", tool.Def{Name: "c", Offline: true, Output: tool.Shape{"n": 0}, Handler: arr}, ""},
		{"error", tool.Def{Name: "d", Offline: true, Output: tool.Shape{"n": 0}, Handler: fail}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := (&tool.Runner{}).Call(context.Background(), tt.def, nil)
			if tt.want == "" {
				assert.Nil(t, res.StructuredContent)
				return
			}
			b, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(b))
			assert.JSONEq(t, tt.want, res.Content[0].(mcp.TextContent).Text)
		})
	}
}

// TestAdvertisedOutputSchema: tools/list carries the schema without
// "required" and "format" at any depth, and keeps properties of those
// names; the full schema keeps both.
func TestAdvertisedOutputSchema(t *testing.T) {
	type item struct {
		When     time.Time `json:"when"`
		Format   string    `json:"format"`
		Required bool      `json:"required"`
	}
	d := tool.Def{Name: "t", Output: tool.ListPage[item]{}}
	full, err := d.OutputSchema()
	require.NoError(t, err)
	assert.Contains(t, string(full), `"required":[`)
	assert.Contains(t, string(full), `"format":"date-time"`)
	lean, err := d.AdvertisedOutputSchema()
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{
		"has_more":{"type":"boolean"},"page":{"type":"integer"},
		"items":{"type":"array","items":{"type":"object","properties":{
			"when":{"type":"string"},"format":{"type":"string"},"required":{"type":"boolean"}}}}}}`, string(lean))
	none, err := tool.Def{Name: "t"}.AdvertisedOutputSchema()
	require.NoError(t, err)
	assert.Nil(t, none)
}
