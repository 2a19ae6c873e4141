package mcpserver

import (
	"github.com/mark3labs/mcp-go/server"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/complete"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/prompt"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// addSurface offers what MCP has besides tools: the forgejo:// resource
// templates (read through r, like tool calls), the prompts, and
// completions of their arguments for the identity of each request. It
// only adds to s and hooks; each part follows the tools offered (defs).
func addSurface(s *server.MCPServer, hooks *server.Hooks, defs []tool.Def, r *tool.Runner) {
	resource.NewReader(defs, r).Register(s, hooks)
	prompt.Register(s, hooks, prompt.All(), defs)
	c := complete.New(r.Client)
	server.WithCompletions()(s)
	server.WithPromptCompletionProvider(c)(s)
	server.WithResourceCompletionProvider(c)(s)
}
