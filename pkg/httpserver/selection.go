package httpserver

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Per-request tool selection headers. They mirror --toolsets, --tools,
// --exclude-tools and --read-only, and apply on top of them: a header picks
// among the tools the server offers and can never add one.
const (
	HeaderToolsets     = "X-MCP-Toolsets"
	HeaderTools        = "X-MCP-Tools"
	HeaderExcludeTools = "X-MCP-Exclude-Tools"
	HeaderReadonly     = "X-MCP-Readonly"
)

// selector narrows the server's tools by request headers.
type selector struct {
	defs     []tool.Def
	toolsets map[string]bool
	names    map[string]bool
}

func newSelector(defs []tool.Def) *selector {
	s := &selector{defs: defs, toolsets: map[string]bool{}, names: map[string]bool{}}
	for _, d := range defs {
		s.toolsets[d.Toolset.ID] = true
		s.names[d.Name] = true
	}
	return s
}

// allowed returns the names of the tools the request may see and call, or
// nil when it sends no selection header (everything the server offers).
// A name the server does not offer is an error rather than ignored, so a
// typo in a client's configuration shows up instead of silently hiding
// tools; the message does not reveal tools the server left out.
func (s *selector) allowed(h http.Header) (map[string]bool, error) {
	toolsets, tools, exclude := headerList(h, HeaderToolsets), headerList(h, HeaderTools), headerList(h, HeaderExcludeTools)
	ro, roSet := h.Get(HeaderReadonly), len(h.Values(HeaderReadonly)) > 0
	if toolsets == nil && tools == nil && exclude == nil && !roSet {
		return nil, nil
	}
	sel := tool.Selection{Toolsets: toolsets, Tools: tools, Exclude: exclude}
	if roSet {
		b, err := strconv.ParseBool(strings.TrimSpace(ro))
		if err != nil {
			return nil, fmt.Errorf("%s must be true or false, not %q", HeaderReadonly, ro)
		}
		sel.ReadOnly = b
	}
	for _, ts := range toolsets {
		if ts != "all" && !s.toolsets[ts] {
			return nil, fmt.Errorf("%s: this server offers no toolset %q; it offers: all, %s", HeaderToolsets, ts, strings.Join(tool.Toolsets(s.defs), ", "))
		}
	}
	for _, named := range []struct {
		header string
		list   []string
	}{{HeaderTools, tools}, {HeaderExcludeTools, exclude}} {
		for _, n := range named.list {
			if !s.names[n] {
				return nil, fmt.Errorf("%s: this server offers no tool %q; tools/list without selection headers shows what it offers", named.header, n)
			}
		}
	}
	defs, err := tool.Select(s.defs, sel)
	if err != nil {
		return nil, err // unreachable: every name was checked above
	}
	allow := make(map[string]bool, len(defs))
	for _, d := range defs {
		allow[d.Name] = true
	}
	return allow, nil
}

// headerList joins every value of a comma-separated header; nil when the
// header is absent or blank.
func headerList(h http.Header, name string) []string {
	var out []string
	for _, v := range h.Values(name) {
		out = append(out, tool.SplitList(v)...)
	}
	return out
}

type allowKey struct{}

func withAllowed(ctx context.Context, allow map[string]bool) context.Context {
	if allow == nil {
		return ctx
	}
	return context.WithValue(ctx, allowKey{}, allow)
}

// filterTools is the mcp-go tool filter: mcp-go applies it to tools/list
// and, with the one requested tool, to tools/call, so a tool hidden by a
// header can be neither listed nor called.
func filterTools(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
	allow, ok := ctx.Value(allowKey{}).(map[string]bool)
	if !ok {
		return tools
	}
	out := make([]mcp.Tool, 0, len(allow))
	for _, t := range tools {
		if allow[t.Name] {
			out = append(out, t)
		}
	}
	return out
}
