package mcpserver

import (
	"context"

	"github.com/mark3labs/mcp-go/server"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/complete"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/prompt"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/resource"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// addSurface offers what MCP has besides tools: the forgejo:// resource
// templates (read through r, like tool calls), the prompts, and
// completions of their arguments for the identity of each request. It
// only adds to s and hooks; each part follows the tools offered (defs)
// and, per request, the tools the request is narrowed to (tool.Allowed).
func addSurface(s *server.MCPServer, hooks *server.Hooks, defs []tool.Def, r *tool.Runner) {
	reader := resource.NewReader(defs, r)
	reader.Register(s, hooks)
	prompts := prompt.Register(s, hooks, prompt.All(), defs)
	prompts.Fence = r.Fence
	c := complete.New(complete.Options{Client: r.Client, Admit: r.Admit, Fence: r.Fence, Visible: func(ctx context.Context, isPrompt bool, ref string) bool {
		if isPrompt {
			return prompts.Visible(ctx, ref)
		}
		return reader.Visible(ctx, ref)
	}})
	server.WithCompletions()(s)
	server.WithPromptCompletionProvider(c)(s)
	server.WithResourceCompletionProvider(c)(s)
}
