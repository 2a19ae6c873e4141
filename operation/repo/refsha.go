package repo

import (
	"context"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// RefSHA is the commit SHA a branch, tag or SHA names in the call's
// repository ("" for the default branch), with errors that say which of
// them is missing: for tools of other packages that read a tree at a ref.
func RefSHA(ctx context.Context, c *forgejo.Client, a tool.Args, ref string) (string, error) {
	return refSegment(ctx, c, a, ref)
}
