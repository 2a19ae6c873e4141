package operation_test

import (
	"slices"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/admin"
)

// adminUnswept are the site administration tools of issue 29, which no
// recording has yet (scripts/record-sweep records them), but for those
// covered: refused by the route gate on that recording's forge.
func adminUnswept(covered ...string) []string {
	var out []string
	for _, d := range admin.Tools() {
		if !slices.Contains(covered, d.Name) {
			out = append(out, d.Name)
		}
	}
	return out
}
