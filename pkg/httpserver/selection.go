package httpserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

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
	initial  []string // toolsets of a request without X-MCP-Toolsets
}

func newSelector(defs []tool.Def, initial []string) *selector {
	s := &selector{defs: defs, toolsets: map[string]bool{}, names: map[string]bool{}, initial: initial}
	for _, d := range defs {
		s.toolsets[d.Toolset.ID] = true
		s.names[d.Name] = true
	}
	return s
}

// allowed returns the names of the tools the request may see and call, or
// nil when it sends no selection header (everything the server offers),
// and those the meta-tools may reach for it (tool.WithCallable): the same
// selection without the server's default toolsets, which narrow only what
// is listed. A name the server does not offer is an error rather than
// ignored, so a typo in a client's configuration shows up instead of
// silently hiding tools; the message does not reveal tools the server left
// out.
func (s *selector) allowed(h http.Header) (allow, callable map[string]bool, err error) {
	if err := checkSelectionHeaders(h); err != nil {
		return nil, nil, err
	}
	toolsets, tools := headerList(h, HeaderToolsets), headerList(h, HeaderTools)
	named := toolsets != nil || tools != nil
	if !named {
		// Naming tools reaches them whatever their toolset.
		toolsets = s.initial
	}
	if allow, err = s.narrow(h, toolsets, tools); err != nil || named {
		return allow, allow, err
	}
	callable, err = s.narrow(h, nil, nil)
	return allow, callable, err
}

// narrow returns the names of the tools the request's headers keep,
// with toolsets and tools in place of its own lists; nil when nothing
// narrows.
func (s *selector) narrow(h http.Header, toolsets, tools []string) (map[string]bool, error) {
	exclude := headerList(h, HeaderExcludeTools)
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
		if id := strings.TrimLeft(ts, "+-"); id != "all" && id != "default" && !s.toolsets[id] {
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
	if len(defs) == 0 {
		// A header cannot warn: a request left with nothing is refused
		// with the reason rather than served an empty list.
		return nil, fmt.Errorf("the selection headers leave no tool: %s", tool.EmptyReason(s.defs, sel, headerWords))
	}
	allow := make(map[string]bool, len(defs))
	for _, d := range defs {
		allow[d.Name] = true
	}
	return allow, nil
}

// readOnly reports whether the request narrows itself to read-only tools
// (a header allowed has already accepted).
func (s *selector) readOnly(h http.Header) bool {
	b, err := strconv.ParseBool(strings.TrimSpace(h.Get(HeaderReadonly)))
	return err == nil && b
}

// headerWords name the selection's knobs as a request sets them.
var headerWords = tool.SelectionWords{Toolsets: HeaderToolsets, Tools: HeaderTools, Exclude: HeaderExcludeTools, ReadOnly: HeaderReadonly + ": true"}

// selectionHeaders are the known X-MCP-* headers by canonical key.
var selectionHeaders = map[string]string{
	http.CanonicalHeaderKey(HeaderToolsets):     HeaderToolsets,
	http.CanonicalHeaderKey(HeaderTools):        HeaderTools,
	http.CanonicalHeaderKey(HeaderExcludeTools): HeaderExcludeTools,
	http.CanonicalHeaderKey(HeaderReadonly):     HeaderReadonly,
	http.CanonicalHeaderKey(HeaderRepos):        HeaderRepos,
	http.CanonicalHeaderKey(HeaderLockdown):     HeaderLockdown,
	http.CanonicalHeaderKey(HeaderInlineCap):    HeaderInlineCap,
}

// checkSelectionHeaders refuses an X-MCP-* header that is given more than
// once, and one this server does not know. Repeats are refused rather than
// merged because no merge is right for every header and every proxy:
// "X-MCP-Readonly: false" then "true" must not read as false, and a
// second X-MCP-Tools line must not widen the first. Header names are
// case-insensitive, so "x-mcp-readonly" repeats "X-MCP-Readonly". A list
// header's value is one comma-separated list, which is its syntax; a
// comma in X-MCP-Readonly is a repeat joined by a proxy. An unknown
// X-MCP-* header is most likely a misspelt narrowing one
// (X-MCP-Read-Only), which must not be silently ignored.
func checkSelectionHeaders(h http.Header) error {
	for key, values := range h {
		if !strings.HasPrefix(key, "X-Mcp-") {
			continue
		}
		name, known := selectionHeaders[key]
		switch {
		case !known:
			return fmt.Errorf("unknown header %s: this server reads only %s, %s, %s, %s, %s, %s and %s", key, HeaderToolsets, HeaderTools, HeaderExcludeTools, HeaderReadonly, HeaderRepos, HeaderLockdown, HeaderInlineCap)
		case len(values) > 1:
			return fmt.Errorf("%s is given %d times; send it once (a repeated selection header is refused, never merged)", name, len(values))
		case (name == HeaderReadonly || name == HeaderLockdown) && strings.Contains(values[0], ","):
			return fmt.Errorf("%s is given more than once (%q); send it once, true or false", name, values[0])
		case name == HeaderInlineCap:
			// A number, checked by inlineCap.
		case name != HeaderReadonly && name != HeaderLockdown && len(tool.SplitList(values[0])) == 0:
			// Blank is not "no narrowing": most likely a client setting
			// whose variable was empty, which must not widen the request.
			return fmt.Errorf("%s is blank: name at least one, or leave the header out", name)
		}
	}
	return nil
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
