package httpserver

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/trust"
)

// Per-request trust headers. Like the selection headers they only narrow
// what the server allows: X-MCP-Repos adds a scope that every call must
// also be inside (the server's --repos still holds), and X-MCP-Lockdown
// can switch lockdown on, never off.
const (
	HeaderRepos    = "X-MCP-Repos"
	HeaderLockdown = "X-MCP-Lockdown"
)

// withTrustHeaders returns ctx narrowed by the request's trust headers
// (checkSelectionHeaders has refused repeats and blanks).
func withTrustHeaders(ctx context.Context, h http.Header) (context.Context, error) {
	if v := h.Get(HeaderRepos); v != "" {
		scope, err := trust.ParseScope(v, HeaderRepos)
		if err != nil {
			return nil, err
		}
		ctx = trust.WithScope(ctx, scope)
	}
	if vs := h.Values(HeaderLockdown); len(vs) > 0 {
		on, err := strconv.ParseBool(strings.TrimSpace(vs[0]))
		if err != nil {
			return nil, fmt.Errorf("%s must be true or false, not %q", HeaderLockdown, vs[0])
		}
		if on {
			// false leaves the server's setting: a request cannot
			// switch off what the server switched on.
			ctx = trust.WithLockdown(ctx)
		}
	}
	return ctx, nil
}
