package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Dynamic toolsets (--dynamic-toolsets, stdio): the server starts with a
// few toolsets and two tools of its own, list_toolsets and enable_toolset;
// enabling one adds its tools and tells the client with
// notifications/tools/list_changed, so an agent pays for the tools it uses.

// DynamicToolset holds the two tools that manage the others.
var DynamicToolset = tool.Toolset{ID: "dynamic", Description: "List the toolsets and enable one (--dynamic-toolsets)"}

// ToolsetInfo is one toolset as list_toolsets shows it.
type ToolsetInfo struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Tools       int    `json:"tools"`
	Enabled     bool   `json:"enabled"`
}

// dynamic is the state of one server's toolsets.
type dynamic struct {
	mu      sync.Mutex
	offered []tool.Def
	enabled map[string]bool
	srv     *server.MCPServer
	runner  *tool.Runner
}

// NewDynamic returns a server offering the tools of the initial toolsets
// among offered, and list_toolsets and enable_toolset, which reach the
// rest of offered.
func NewDynamic(offered []tool.Def, initial []string, r *tool.Runner) *server.MCPServer {
	d := &dynamic{offered: offered, enabled: map[string]bool{}, runner: r}
	var start []tool.Def
	for _, id := range initial {
		d.enabled[id] = true
	}
	for _, def := range offered {
		if d.enabled[def.Toolset.ID] {
			start = append(start, def)
		}
	}
	d.srv = build(slices.Concat(start, d.tools()), offered, r, d.notEnabled, server.WithToolCapabilities(true))
	return d.srv
}

// notEnabled makes the error for a call to a tool whose toolset is not
// enabled yet say how to enable it (the lookup still fails: the name
// gains a space).
func (d *dynamic) notEnabled(_ context.Context, _ any, req *mcp.CallToolRequest) {
	if req == nil || d.srv.GetTool(req.Params.Name) != nil {
		return
	}
	if def, ok := tool.Find(d.offered, req.Params.Name); ok {
		req.Params.Name = fmt.Sprintf("%s (enable_toolset %q first)", def.Name, def.Toolset.ID)
	}
}

func (d *dynamic) tools() []tool.Def {
	return []tool.Def{
		{
			Name: "list_toolsets", Title: "List toolsets", Toolset: DynamicToolset, Offline: true,
			Description: "List the toolsets this server can offer and which are enabled",
			Annotations: tool.Annotations{ReadOnly: true, Idempotent: true},
			Output:      tool.Shape{"toolsets": []ToolsetInfo{}},
			Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
				return tool.JSON(map[string]any{"toolsets": d.list()})
			},
		},
		{
			Name: "enable_toolset", Title: "Enable a toolset", Toolset: DynamicToolset, Offline: true,
			Description: "Add a toolset's tools to this session (see list_toolsets)",
			Params:      []tool.Param{tool.Str("toolset", "Toolset ID", tool.Required(), tool.MaxLen(64))},
			Annotations: tool.Annotations{Idempotent: true},
			Output:      tool.Shape{"toolset": "", "added": []string{}},
			Handler: func(_ context.Context, _ *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
				added, err := d.enable(a.String("toolset"))
				if err != nil {
					return nil, err
				}
				return tool.JSON(map[string]any{"toolset": a.String("toolset"), "added": added})
			},
		},
	}
}

func (d *dynamic) list() []ToolsetInfo {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []ToolsetInfo
	for _, ts := range tool.ToolsetsOf(d.offered) {
		n := 0
		for _, def := range d.offered {
			if def.Toolset.ID == ts.ID {
				n++
			}
		}
		out = append(out, ToolsetInfo{ID: ts.ID, Description: ts.Description, Tools: n, Enabled: d.enabled[ts.ID]})
	}
	return out
}

// enable adds the tools of toolset id, once; it returns their names.
func (d *dynamic) enable(id string) ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var add []tool.Def
	for _, def := range d.offered {
		if def.Toolset.ID == id {
			add = append(add, def)
		}
	}
	if len(add) == 0 {
		return nil, fmt.Errorf("no toolset %q; toolsets: %s (list_toolsets describes them)", forgejo.Clip(id), strings.Join(tool.Toolsets(d.offered), ", "))
	}
	names := make([]string, len(add))
	for i, def := range add {
		names[i] = def.Name
	}
	if d.enabled[id] {
		return names, nil
	}
	d.enabled[id] = true
	// AddTools sends notifications/tools/list_changed to the client.
	tool.Register(d.srv, add, d.runner)
	return names, nil
}
