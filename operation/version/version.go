// Package version has the tool that reports this server's own version and
// the flavour and version of the forge it talks to.
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

// Version is the tool's result. Forge is the forge's flavour (Forgejo or
// Gitea) and version when a forge is configured and answered; ForgeError
// says why not otherwise.
type Version struct {
	Version    string         `json:"version"`
	Go         string         `json:"go"`
	Forge      *forgejo.Forge `json:"forge,omitempty"`
	ForgeError string         `json:"forge_error,omitempty"`
}

// Tools returns the version toolset.
func Tools() []tool.Def {
	return []tool.Def{{
		Name: "get_forgejo_mcp_server_version", Toolset: Toolset,
		Title:       "Get the server's and the forge's versions",
		Description: "Get this server's version and the forge's flavour (Forgejo or Gitea) and version",
		Annotations: tool.Read(),
		Offline:     true,
		Output:      Version{},
		Handler:     version,
	}}
}

func version(ctx context.Context, c *forgejo.Client, _ tool.Args) (*mcp.CallToolResult, error) {
	out := Version{Version: v.Version, Go: runtime.Version()}
	if c == nil {
		out.ForgeError = "no forge configured"
		return tool.JSON(out)
	}
	if f, err := c.Forge(ctx); err != nil {
		out.ForgeError = c.Redact(err.Error())
	} else {
		out.Forge = &f
	}
	return tool.JSON(out)
}
