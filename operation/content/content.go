// Package content has the repository content tools beyond reading one
// file and writing whole files: a unified diff applied as one commit, a
// bounded search of a repository's files for text, and a file's raw
// bytes with Git LFS objects resolved.
package content

import (
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Toolset is the content toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "content", Description: "Repository content: apply a diff as one commit, search files for text, raw and LFS bytes"}

// Tools returns the content toolset.
func Tools() []tool.Def {
	return []tool.Def{patchTool(), searchTool(), downloadTool()}
}
