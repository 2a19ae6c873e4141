package admin

import (
	"context"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actionsconfig"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/webhook"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Tools returns the site administration tools: users, organisations,
// e-mails, cron tasks, unadopted repositories, every repository's
// workflow runs and jobs, and the site's webhooks and runners (the webhook and runner tools' own handlers, on the
// site's routes). Every one marks its failure AdminOnly, so a 403 says that
// the token's user must be a site administrator.
func Tools() []tool.Def {
	return adminOnly(slices.Concat(userTools(), siteTools(),
		webhook.SiteTools(Toolset), actionsconfig.SiteRunnerTools(Toolset), actionTools()))
}

// adminOnly wraps each tool's handler so that its failure is marked as a
// site administration route's (forgejo.AdminOnly).
func adminOnly(defs []tool.Def) []tool.Def {
	for i := range defs {
		h := defs[i].Handler
		defs[i].Handler = func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
			res, err := h(ctx, c, a)
			return res, forgejo.AdminOnly(err)
		}
	}
	return defs
}
