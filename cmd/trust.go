package cmd

import (
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/complete"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// completeOptions are the shell completer's options for r: its identity
// and its repository scope (--repos), so a scoped shell is offered only
// what a scoped call could reach.
func completeOptions(r *tool.Runner) complete.Options {
	return complete.Options{Client: r.Client, Fence: r.Fence}
}
