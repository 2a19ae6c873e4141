// Package meta has the two tools that make every tool the server's
// selection allows reachable from a small tools/list, on both transports
// and without a session (unlike --dynamic-toolsets): search_tools finds
// tools by words and returns their names and input schemas, call_tool
// calls one by name. What they reach is tool.CallableOf: the selection the
// server was started with, before its default narrows the list, narrowed
// again by what a request selects itself.
package meta

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the meta toolset, in the default selection.
var Toolset = tool.Toolset{ID: "meta", Description: "Find any tool the server allows by words and call it, beyond those listed", Default: true}

// Found is one tool search_tools found.
type Found struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// InputSchema is a map, not raw JSON, so that the output schema says
	// it is an object (raw JSON would claim nothing: the Inspector's
	// --strict warns of a schema with no keyword).
	InputSchema map[string]any `json:"input_schema"`
}

// Result is what search_tools answers.
type Result struct {
	Tools   []Found `json:"tools"`
	HasMore bool    `json:"has_more"`
	Note    string  `json:"note,omitempty"`
}

// Tools returns the meta toolset.
func Tools() []tool.Def {
	return []tool.Def{
		{
			Name: "search_tools", Toolset: Toolset, Title: "Search tools",
			Description: "Find more tools by words (secret, runner…): their schemas, for call_tool",
			Params:      []tool.Param{tool.Str("query", "Words, or a toolset", tool.Required(), tool.MaxLen(200))},
			Annotations: tool.Annotations{ReadOnly: true, Idempotent: true},
			Offline:     true, Output: Result{}, Handler: search,
		},
		{
			Name: "call_tool", Toolset: Toolset, Title: "Call a found tool",
			Description: "Call a tool search_tools found",
			Params: []tool.Param{
				tool.Str("name", "Tool name", tool.Required(), tool.MaxLen(100)),
				tool.JSONObject("arguments", "Its arguments"),
			},
			// What it may do is what the tool it calls does: every kind.
			Annotations: tool.Destroy(false),
			Offline:     true, LargeArgs: true,
			Forward: func(a tool.Args) (string, map[string]any) { return a.String("name"), a.Object("arguments") },
			Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
				return nil, fmt.Errorf("call_tool runs the tool it names through the server's call pipeline, which was not given it")
			},
		},
	}
}

// MaxFound is how many tools search_tools returns for words; a toolset's
// name returns all its tools.
const MaxFound = 10

func search(ctx context.Context, _ *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	query := strings.TrimSpace(a.String("query"))
	var defs, inSet []tool.Def
	for _, d := range tool.CallableOf(ctx) {
		if d.Toolset.ID == Toolset.ID {
			continue
		}
		defs = append(defs, d)
		if d.Toolset.ID == query {
			inSet = append(inSet, d)
		}
	}
	ranked, limit := inSet, len(inSet)
	if len(inSet) == 0 {
		ranked, limit = Rank(defs, query), MaxFound
	}
	out := Result{Tools: []Found{}, HasMore: len(ranked) > limit}
	for _, d := range ranked[:min(limit, len(ranked))] {
		raw, err := json.Marshal(d.MCPTool().InputSchema)
		if err != nil {
			return nil, err
		}
		var schema map[string]any
		if err := json.Unmarshal(raw, &schema); err != nil {
			return nil, err
		}
		out.Tools = append(out.Tools, Found{Name: d.Name, Kind: tool.AnnotationSummary(d.Annotations), Description: d.Description, InputSchema: schema})
	}
	switch {
	case len(out.Tools) == 0:
		out.Note = "no tool matches these words; try others, or a toolset's name: " + toolsets(defs)
	case out.HasMore:
		out.Note = fmt.Sprintf("%d more tools match: add words, or give a toolset's name", len(ranked)-limit)
	}
	return tool.JSON(out)
}

// toolsets lists the toolsets among defs, with what each is for.
func toolsets(defs []tool.Def) string {
	var parts []string
	for _, ts := range tool.ToolsetsOf(defs) {
		parts = append(parts, fmt.Sprintf("%s (%s)", ts.ID, ts.Description))
	}
	return strings.Join(parts, ", ")
}
