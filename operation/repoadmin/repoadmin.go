// Package repoadmin has the tools a maintainer uses to run a repository
// rather than work in it: its settings and topics, who may reach it
// (collaborators, teams, deploy keys), which tags are protected, its
// lifecycle (delete, transfer, generate from a template) and its mirrors.
// Each area is a toolset of its own, none in the default selection.
package repoadmin

import (
	"slices"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The toolsets of this package.
var (
	SettingsToolset      = tool.Toolset{ID: "repo-settings", Description: "Repository settings (description, visibility, archive, units, merge styles) and topics"}
	AccessToolset        = tool.Toolset{ID: "repo-access", Description: "Who may reach a repository: collaborators, teams, deploy keys"}
	TagProtectionToolset = tool.Toolset{ID: "tag-protection", Description: "Tag protection rules: who may push tags matching a pattern"}
	LifecycleToolset     = tool.Toolset{ID: "repo-lifecycle", Description: "Delete, transfer, generate from a template"}
	MirrorToolset        = tool.Toolset{ID: "mirror", Description: "Push mirrors, pull-mirror sync and migrating a repository in"}
)

// Tools returns every tool of the package's toolsets.
func Tools() []tool.Def {
	return slices.Concat(settingsTools(), topicsTools(), accessTools(), deployKeyTools(), tagProtectionTools(), lifecycleTools(), mirrorTools())
}

func base() []tool.Param { return []tool.Param{tool.Owner(), tool.Repo()} }

// with is the owner and repo parameters followed by more.
func with(more ...tool.Param) []tool.Param { return append(base(), more...) }
