// Package version has the tool that reports this server's own version.
package version

import (
	"context"
	"runtime"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	v "codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version"
)

// Toolset is the version toolset; every tool of this package is in it.
var Toolset = tool.Toolset{ID: "version", Description: "This server's own version"}

// Tools returns the version toolset.
func Tools() []tool.Def {
	return []tool.Def{{
		Name: "get_forgejo_mcp_server_version", Toolset: Toolset,
		Title: "Get the server's version", Output: tool.Shape{"version": "", "go": ""},
		Description: "Get the version of this forgejo-mcp server",
		Annotations: tool.Annotations{ReadOnly: true, Idempotent: true},
		Offline:     true,
		Handler: func(context.Context, *forgejo.Client, tool.Args) (*mcp.CallToolResult, error) {
			return tool.JSON(map[string]string{"version": v.Version, "go": runtime.Version()})
		},
	}}
}
