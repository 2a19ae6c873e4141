// Package schemacheck validates tool results against the outputSchema their
// tool advertises, with a JSON Schema validator nobody on this project wrote
// (santhosh-tekuri/jsonschema, draft 2020-12, formats asserted), so a schema
// generated wrongly and a result that drifted from its type both fail.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Validate checks structured (the JSON of a structuredContent) against
// schema (an outputSchema).
func Validate(schema, structured []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return fmt.Errorf("schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("output.json", doc); err != nil {
		return err
	}
	sch, err := c.Compile("output.json")
	if err != nil {
		return fmt.Errorf("schema does not compile: %w", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(structured))
	if err != nil {
		return fmt.Errorf("structuredContent is not JSON: %w", err)
	}
	return sch.Validate(v)
}

// Result checks a result of d as a client sees it: a successful call of a
// tool with an outputSchema carries structuredContent valid against it,
// and its first text content is the same JSON (for clients that read only
// text); a tool without one carries no structuredContent.
func Result(t testing.TB, d tool.Def, res *mcp.CallToolResult) {
	t.Helper()
	schema, err := d.OutputSchema()
	require.NoError(t, err, "%s: output schema", d.Name)
	if res.IsError || schema == nil || d.Unadvertised {
		require.Nil(t, res.StructuredContent, "%s: structuredContent without an outputSchema, or on an error", d.Name)
	}
	if res.IsError || schema == nil {
		return
	}
	if d.Unadvertised {
		// No schema in tools/list, so no structuredContent: the text is
		// still the JSON its Output types.
		require.NotEmpty(t, res.Content)
		text, ok := res.Content[0].(mcp.TextContent)
		require.True(t, ok, "%s: first content is text", d.Name)
		require.NoError(t, Validate(schema, []byte(text.Text)), "%s: text %s does not match its Output's schema %s", d.Name, clip([]byte(text.Text)), schema)
		return
	}
	require.NotNil(t, res.StructuredContent, "%s declares an outputSchema: its result must carry structuredContent", d.Name)
	structured, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, Validate(schema, structured), "%s: structuredContent %s does not match its outputSchema %s", d.Name, clip(structured), schema)
	require.NotEmpty(t, res.Content)
	text, ok := res.Content[0].(mcp.TextContent)
	require.True(t, ok, "%s: first content is text", d.Name)
	require.JSONEq(t, text.Text, string(structured), "%s: the text is the structured JSON", d.Name)
}

func clip(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}
