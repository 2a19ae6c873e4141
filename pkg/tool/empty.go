package tool

import (
	"fmt"
	"strings"
)

// SelectionWords name the knobs of a Selection where it came from: flags
// (--toolsets …) or HTTP headers (X-MCP-Toolsets …).
type SelectionWords struct {
	Toolsets, Tools, Exclude, ReadOnly string
}

// EmptyReason says why s keeps no tool of all, naming the knob that left
// the last ones out, or "" when s keeps some. Each knob only narrows, so a
// combination that keeps nothing is almost always a mistake (read-only
// with only writing tools named) that should be said, not served as a
// server with no tools.
func EmptyReason(all []Def, s Selection, w SelectionWords) string {
	if kept, err := Select(all, s); err != nil || len(kept) > 0 {
		return ""
	}
	named := w.Toolsets
	if len(s.Tools) > 0 {
		named = w.Tools
	}
	picked, _ := Select(all, Selection{Toolsets: s.Toolsets, Tools: s.Tools})
	if len(picked) == 0 {
		return fmt.Sprintf("the %s and %s given select no tool", w.Toolsets, w.Tools)
	}
	unexcluded, _ := Select(all, Selection{Toolsets: s.Toolsets, Tools: s.Tools, Exclude: s.Exclude})
	if len(unexcluded) == 0 {
		return fmt.Sprintf("%s leaves out every tool %s selects", w.Exclude, named)
	}
	names := make([]string, 0, 4)
	for _, d := range unexcluded[:min(len(unexcluded), 3)] {
		names = append(names, d.Name)
	}
	if len(unexcluded) > 3 {
		names = append(names, "…")
	}
	return fmt.Sprintf("%s leaves out every tool %s selects: they all write to the forge (%s)", w.ReadOnly, named, strings.Join(names, ", "))
}
