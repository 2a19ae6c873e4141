// Package version holds the build's version string.
package version

// Version is the forgejo-mcp release this binary was built from. Release
// builds override it with -ldflags "-X codeberg.org/forgejo-mcp/forgejo-mcp/pkg/version.Version=v1.2.3".
var Version = "0.1.0-dev"

// UserAgent is the default User-Agent sent to the forge.
func UserAgent() string { return "forgejo-mcp/" + Version }
