// Package operation gathers every domain's tool definitions into the one
// inventory the server, the CLI and the generated docs read.
package operation

import (
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/attachment"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/branchprotection"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/org"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/release"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/search"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/tracking"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/user"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/version"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/webhook"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/wiki"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// All returns every tool, grouped by toolset, with its hidden parameter
// aliases (aliases.go).
func All() []tool.Def {
	var all []tool.Def
	for _, tools := range [][]tool.Def{
		version.Tools(),
		user.Tools(),
		repo.Tools(),
		issue.Tools(),
		pull.Tools(),
		attachment.Tools(),
		release.Tools(),
		attachment.ReleaseTools(release.Toolset),
		wiki.Tools(),
		org.Tools(),
		search.Tools(),
		tracking.Tools(),
		branchprotection.Tools(),
		actions.Tools(),
		webhook.Tools(),
	} {
		all = append(all, tools...)
	}
	return withAliases(all)
}
