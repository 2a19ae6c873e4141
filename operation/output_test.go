package operation_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// withoutOutput are the tools that declare no outputSchema, and why: MCP
// 2025-11-25 wants an object at the root of structuredContent, and a
// download is JSON followed by the bytes (a blob, maybe an image); or the
// schema would not fit the default selection's budget.
var withoutOutput = map[string]string{
	"download_issue_attachment":   "mixed content: JSON, then the bytes",
	"download_comment_attachment": "mixed content: JSON, then the bytes",
	"download_release_attachment": "mixed content: JSON, then the bytes",
	"download_artifact":           "mixed content: JSON, then the zip's bytes",
	"download_repo_file":          "mixed content: JSON, then the bytes",
	"list_my_issues":              "in the default selection, whose tools/list budget its 700-byte schema would break",
	"get_issue_timeline":          "Unadvertised: in the default selection, whose tools/list budget (as clients receive it) list_my_issues filled",
	"call_tool":                   "the result of the tool it calls, whatever its shape",
}

// TestTitlesAndOutputSchemas: every tool has a human title, and every tool
// whose result is one JSON object declares an object outputSchema that
// generates without error.
func TestTitlesAndOutputSchemas(t *testing.T) {
	titles := map[string]string{}
	for _, d := range operation.All() {
		assert.Regexp(t, `^[A-Z][^.]*[^. ]$`, d.Title, "%s: a title, capitalised, no full stop", d.Name)
		if other, dup := titles[d.Title]; dup {
			t.Errorf("%s and %s share the title %q", d.Name, other, d.Title)
		}
		titles[d.Title] = d.Name
		schema, err := d.OutputSchema()
		require.NoError(t, err)
		if why, ok := withoutOutput[d.Name]; ok {
			advertised, err := d.AdvertisedOutputSchema()
			require.NoError(t, err)
			assert.Nil(t, advertised, "%s advertises no outputSchema (%s)", d.Name, why)
			continue
		}
		require.NotNil(t, schema, "%s declares no Output", d.Name)
		var s map[string]any
		require.NoError(t, json.Unmarshal(schema, &s))
		assert.Equal(t, "object", s["type"], d.Name)
		advertised, err := d.AdvertisedOutputSchema()
		require.NoError(t, err)
		mt, err := json.Marshal(d.MCPTool())
		require.NoError(t, err)
		assert.Contains(t, string(mt), `"outputSchema":`+string(advertised), d.Name)
		assert.Contains(t, string(mt), `"title":"`+d.Title+`"`, d.Name)
	}
}

// TestOutputSchemasArePortable: no schema node of any tool, advertised or
// full, input or output, has a type union such as ["array","null"] (the
// MCP Inspector's --strict check and single-type dialects refuse them), and
// each tool's zero Output (every list nil, every optional pointer nil), sent
// as a handler sends it, validates against its full schema: null never
// reaches a client where the schema says one type.
func TestOutputSchemasArePortable(t *testing.T) {
	for _, d := range operation.All() {
		mt, err := json.Marshal(d.MCPTool())
		require.NoError(t, err)
		full, err := d.OutputSchema()
		require.NoError(t, err)
		for _, doc := range [][]byte{mt, full} {
			assert.NotRegexp(t, `"type":\[`, string(doc), "%s: one type per schema node", d.Name)
		}
		if full == nil {
			continue
		}
		res, err := tool.JSON(d.Output)
		require.NoError(t, err, d.Name)
		if sc, ok := res.StructuredContent.(json.RawMessage); ok {
			assert.NoError(t, schemacheck.Validate(full, sc), "%s: %s", d.Name, sc)
		}
	}
}

// DefaultBudget is the most the default selection's tools/list may weigh.
const DefaultBudget = 40 << 10

// TestDefaultSelectionIsLean: what a client gets with no --toolsets stays
// within budget, and covers everyday work.
func TestDefaultSelectionIsLean(t *testing.T) {
	all := operation.All()
	def, err := tool.Select(all, tool.Selection{Toolsets: []string{"default"}})
	require.NoError(t, err)
	n := operation.ListBytes(def)
	t.Logf("tools/list: default %d tools, %d bytes; all %d tools, %d bytes", len(def), n, len(all), operation.ListBytes(all))
	assert.LessOrEqual(t, n, DefaultBudget, "the default selection's tools/list is over budget: move a toolset out of the default")
	assert.ElementsMatch(t, []string{"user", "code", "issue", "pull", "attachment", "meta"}, tool.DefaultToolsets(all))
	for _, name := range []string{"get_issue_by_index", "create_issue_comment", "get_pull_request_diff", "get_file_content",
		"download_issue_attachment", "get_my_user_info", "search_tools", "call_tool"} {
		_, ok := tool.Find(def, name)
		assert.True(t, ok, "%s is in the default selection", name)
	}
}
