package tool_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// reviewDef has an object list shaped like create_pull_review's comments.
func reviewDef() tool.Def {
	return tool.Def{Name: "review", Params: []tool.Param{
		tool.Str("body", "Body"),
		tool.Objects("comments", "Line comments", []tool.Param{
			tool.Str("path", "File path", tool.Required()),
			tool.Int("new_line", "Line in the new file", tool.AtLeast(1)),
			tool.Int("old_line", "Line in the old file", tool.AtLeast(1)),
			tool.Str("body", "Comment", tool.Required()),
			tool.Str("side", "Side", tool.OneOf("left", "right"), tool.Default("right")),
		}, tool.MaxItems(3), tool.ItemAliases(map[string]string{"new_position": "new_line"}),
			tool.ItemCheck(func(it tool.Args) error {
				if it.Has("new_line") == it.Has("old_line") {
					return errors.New("give exactly one of new_line and old_line")
				}
				return nil
			})),
	}}
}

func item(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestObjectsParse(t *testing.T) {
	ok := item("path", "a.go", "new_line", float64(3), "body", "nit")
	tests := []struct {
		name     string
		comments any
		wantErr  string
	}{
		{"one item", []any{ok}, ""},
		{"empty list", []any{}, ""},
		{"JSON text", `[{"path":"a.go","old_line":2,"body":"x"}]`, ""},
		{"alias", []any{item("path", "a.go", "new_position", 4, "body", "x")}, ""},
		{"missing field", []any{ok, ok, item("new_line", 1, "body", "x")}, "comments[2].path is required (File path)"},
		{"wrong field type", []any{item("path", "a.go", "new_line", "three", "body", "x")}, `comments[0].new_line must be a whole number, got "three"`},
		{"range", []any{item("path", "a.go", "new_line", 0, "body", "x")}, "comments[0].new_line must be at least 1, got 0"},
		{"enum", []any{item("path", "a.go", "new_line", 1, "body", "x", "side", "up")}, "comments[0].side must be one of left, right"},
		{"empty required", []any{item("path", " ", "new_line", 1, "body", "x")}, "comments[0].path must not be empty"},
		{"unknown field", []any{item("path", "a.go", "line", 1, "body", "x")}, `comments[0]: unknown field "line"; items take {path, new_line?, old_line?, body, side?}`},
		{"cross-field rule", []any{ok, item("path", "a.go", "new_line", 1, "old_line", 1, "body", "x")}, "comments[1]: give exactly one of new_line and old_line"},
		{"neither line", []any{item("path", "a.go", "body", "x")}, "comments[0]: give exactly one of new_line and old_line"},
		{"alias and field", []any{item("path", "a.go", "new_position", 1, "new_line", 1, "body", "x")}, `comments[0]: "new_position" and "new_line" name the same field`},
		{"not an object", []any{"a.go:3 nit"}, "comments[0] must be an object with {path, new_line?, old_line?, body, side?}, got a string"},
		{"too many", []any{ok, ok, ok, ok}, "comments has 4 items; at most 3 are allowed per call"},
		{"not a list", item("path", "a.go"), `argument "comments" must be a list of objects, got an object`},
		{"text not JSON", "a.go:3 nit", `argument "comments" must be a list of objects (a JSON array), got a string that is not JSON`},
		{"JSON text not a list", `{"path":"a.go"}`, `argument "comments" must be a list of objects, got an object`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := reviewDef().Parse(map[string]any{"comments": tc.comments})
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "invalid arguments for review: "+tc.wantErr)
				return
			}
			require.NoError(t, err)
			for _, it := range a.Objects("comments") {
				assert.Equal(t, "right", it.String("side"), "defaults are filled in items")
				assert.NotEmpty(t, it.String("path"))
			}
		})
	}
}

func TestObjectsTypedValues(t *testing.T) {
	in := []any{item("path", "a.go", "new_position", float64(4), "body", "x")}
	raw := map[string]any{"comments": in}
	a, err := reviewDef().Parse(raw)
	require.NoError(t, err)
	items := a.Objects("comments")
	require.Len(t, items, 1)
	assert.Equal(t, int64(4), items[0].Int("new_line"), "the alias is read as its field, as an int64")
	assert.False(t, items[0].Has("old_line"))
	assert.Equal(t, "a.go", items[0].String("path"))
	assert.Contains(t, in[0], "new_position", "the caller's item is not changed")
	assert.Nil(t, a.Objects("absent"))
}

func TestObjectsRequiredNeedsItems(t *testing.T) {
	d := tool.Def{Name: "change", Params: []tool.Param{
		tool.Objects("files", "Files", []tool.Param{tool.Str("path", "Path", tool.Required())}, tool.Required()),
	}}
	_, err := d.Parse(map[string]any{"files": []any{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "files must have at least one item")
	_, err = d.Parse(map[string]any{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `missing required argument "files"`)
}

func TestObjectsSchema(t *testing.T) {
	d := reviewDef()
	b, err := json.Marshal(d.MCPTool().InputSchema)
	require.NoError(t, err)
	var schema struct {
		Properties map[string]struct {
			Type     string `json:"type"`
			MaxItems int    `json:"maxItems"`
			Items    struct {
				Type       string                    `json:"type"`
				Properties map[string]map[string]any `json:"properties"`
				Required   []string                  `json:"required"`
				Additional *bool                     `json:"additionalProperties"`
			} `json:"items"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(b, &schema))
	c := schema.Properties["comments"]
	assert.Equal(t, "array", c.Type)
	assert.Equal(t, 3, c.MaxItems)
	assert.Equal(t, "object", c.Items.Type)
	assert.Equal(t, []string{"path", "body"}, c.Items.Required)
	assert.Nil(t, c.Items.Additional, "unknown fields are refused by Parse; the schema stays small")
	assert.Equal(t, "integer", c.Items.Properties["new_line"]["type"])
	assert.Equal(t, []any{"left", "right"}, c.Items.Properties["side"]["enum"])
	assert.NotContains(t, string(b), "new_position", "aliases are not advertised")
}

func TestObjectsSummary(t *testing.T) {
	s := tool.ParamSummary(reviewDef().Params[1])
	assert.Contains(t, s, "list of {path, new_line?, old_line?, body, side?}, at most 3")
	assert.Contains(t, s, "use --args")
}

func TestObjectsDefaultBound(t *testing.T) {
	d := tool.Def{Name: "many", Params: []tool.Param{
		tool.Objects("xs", "Xs", []tool.Param{tool.Int("n", "N")}),
	}}
	list := make([]any, tool.DefaultMaxItems+1)
	for i := range list {
		list[i] = item("n", i)
	}
	_, err := d.Parse(map[string]any{"xs": list})
	require.Error(t, err)
	assert.True(t, strings.HasSuffix(err.Error(), fmt.Sprintf("at most %d are allowed per call", tool.DefaultMaxItems)))
}

// FuzzObjects: any JSON given as an object list is refused with the tool's
// prefix, or yields at most MaxItems items whose fields have their types,
// constraints and defaults, and that pass the item rule.
func FuzzObjects(f *testing.F) {
	for _, s := range []string{
		`[]`, `[{"path":"a","new_line":1,"body":"b"}]`, `"[{\"path\":\"a\",\"old_line\":2,\"body\":\"b\"}]"`,
		`[{"path":"a","new_line":1,"old_line":1,"body":"b"}]`, `[{"path":"a","new_position":"3","body":"b"}]`,
		`[1]`, `[[]]`, `[null]`, `{"path":"a"}`, `[{"path":"a","new_line":1,"body":"b","side":"left","x":1}]`,
		`[{"path":"","new_line":1e308,"body":"b"}]`, `"not json"`, `[{},{},{},{}]`,
	} {
		f.Add([]byte(s))
	}
	d := reviewDef()
	f.Fuzz(func(t *testing.T, data []byte) {
		var raw any
		if json.Unmarshal(data, &raw) != nil {
			return
		}
		a, err := d.Parse(map[string]any{"comments": raw})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "invalid arguments for review: ") {
				t.Fatalf("error without the tool's prefix: %v", err)
			}
			return
		}
		items := a.Objects("comments")
		if len(items) > 3 {
			t.Fatalf("%d items accepted, at most 3 allowed", len(items))
		}
		for _, it := range items {
			if strings.TrimSpace(it.String("path")) == "" || it.String("body") == "" {
				t.Fatalf("required field missing in %v", it)
			}
			if it.Has("new_line") == it.Has("old_line") {
				t.Fatalf("the item rule did not hold: %v", it)
			}
			if it.Has("new_line") && it.Int("new_line") < 1 || it.Has("old_line") && it.Int("old_line") < 1 {
				t.Fatalf("a line below 1 was accepted: %v", it)
			}
			if s := it.String("side"); s != "left" && s != "right" {
				t.Fatalf("side %q outside its enum", s)
			}
		}
	})
}
