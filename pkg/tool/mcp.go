package tool

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// MCPTool returns the MCP description of d: its JSON Schema (properties in
// declaration order, additionalProperties false) and its annotations.
func (d Def) MCPTool() mcp.Tool {
	props := make(map[string]any, len(d.Params))
	var required []string
	for _, p := range d.Params {
		props[p.Name] = p.schema()
		if p.Required {
			required = append(required, p.Name)
		}
	}
	a := d.Annotations
	// A schema that cannot be generated is left out here and fails
	// TestOutputSchemas, so tools/list never breaks on it.
	out, _ := d.AdvertisedOutputSchema()
	return mcp.Tool{
		Name:            d.Name,
		Title:           d.Title,
		Description:     d.Description,
		RawOutputSchema: out,
		InputSchema: mcp.ToolInputSchema{
			Type:                 "object",
			Properties:           props,
			Required:             required,
			AdditionalProperties: false,
			PropertyOrder:        d.ParamNames(),
		},
		Annotations: a.hints(),
	}
}

// hints are the annotations as sent: a hint whose value is the spec's
// default (readOnlyHint and idempotentHint false, openWorldHint true) is
// left out, since every byte of tools/list lands in the agent's context,
// and so is idempotentHint on a read-only tool, where the specification
// says it has no meaning (a read changes nothing, however often it runs).
// destructiveHint is always sent: its default, true, would be wrong for
// most tools, and a client that ignores defaults must not assume it.
func (a Annotations) hints() mcp.ToolAnnotation {
	h := mcp.ToolAnnotation{DestructiveHint: &a.Destructive}
	if a.ReadOnly {
		h.ReadOnlyHint = &a.ReadOnly
	}
	if a.Idempotent && !a.ReadOnly {
		h.IdempotentHint = &a.Idempotent
	}
	if !a.OpenWorld {
		h.OpenWorldHint = &a.OpenWorld
	}
	return h
}

func (p Param) schema() map[string]any {
	if p.Type == TypeObjects {
		return p.objectsSchema()
	}
	s := map[string]any{"type": string(p.Type), "description": p.Description}
	if p.Type == TypeJSON {
		s["type"] = "object"
	}
	if p.Type == TypeList {
		s["items"] = map[string]any{"type": "string"}
	}
	if p.Default != nil {
		s["default"] = p.Default
	}
	// A required integer's minimum of 1 (an ID, an issue number) stays
	// server-side like patterns: every such value starts at 1, and 0 gets
	// a clear refusal naming the parameter.
	if p.Min != nil && !(p.Required && p.Type == TypeInteger && *p.Min == 1) {
		s["minimum"] = *p.Min
	}
	if p.Max != nil {
		s["maximum"] = *p.Max
	}
	if p.MaxLength > 0 && p.Type == TypeString && p.Pattern == nil {
		s["maxLength"] = p.MaxLength
	}
	if len(p.Enum) > 0 {
		s["enum"] = p.Enum
	}
	// Pattern stays server-side: the error text explains it in words, and
	// every byte of schema is paid for in every agent session.
	return s
}

// Register adds defs to s; every call goes through r.
func Register(s *server.MCPServer, defs []Def, r *Runner) {
	tools := make([]server.ServerTool, 0, len(defs))
	for _, d := range defs {
		tools = append(tools, server.ServerTool{
			Tool: d.MCPTool(),
			Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return r.Call(withProgress(ctx, req), d, req.Params.Arguments), nil
			},
		})
	}
	s.AddTools(tools...)
}
