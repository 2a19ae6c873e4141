package repo

import (
	"slices"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// codeTools returns the tools that read and write a repository's code
// and its history: the repository itself, commits, comparisons, trees,
// tags, branches, commit statuses and collaborators.
func codeTools() []tool.Def {
	return slices.Concat(repoTools(), commitTools(), tagTools(), statusTools(),
		[]tool.Def{compareTool(), treeTool(), deleteBranchTool(), collaboratorsTool(), assigneesTool()})
}
