package tool

import (
	"fmt"
	"sort"
	"strings"
)

// Toolset is a group of tools a user can offer or leave out as one
// (--toolsets). Each operation package declares its toolset once and every
// one of its definitions refers to that value.
type Toolset struct {
	ID          string // what --toolsets takes: "issue", "branch-protection"
	Description string // one line, for --toolsets help and the README
	// Default toolsets are offered when no --toolsets is given.
	Default bool
}

// String is the toolset's ID.
func (t Toolset) String() string { return t.ID }

// Selection narrows an inventory; it mirrors --toolsets, --tools,
// --exclude-tools and --read-only. Each field can only remove tools.
type Selection struct {
	Toolsets []string // keep these toolsets; empty or "all" keeps every one
	Tools    []string // keep only these tools; empty keeps every one
	Exclude  []string // drop these tools
	ReadOnly bool     // keep only read-only tools
}

// Select returns the tools of all that s keeps, in the inventory's order.
// An unknown toolset or tool name is an error naming what exists, so a typo
// does not silently leave a client without tools.
func Select(all []Def, s Selection) ([]Def, error) {
	toolsets := setOf(s.Toolsets)
	if toolsets["all"] {
		toolsets = nil
	}
	known := map[string]bool{}
	names := map[string]bool{}
	for _, d := range all {
		known[d.Toolset.ID] = true
		names[d.Name] = true
	}
	for ts := range toolsets {
		if !known[ts] {
			return nil, fmt.Errorf("unknown toolset %q; toolsets: all, %s", ts, strings.Join(Toolsets(all), ", "))
		}
	}
	for _, list := range [][]string{s.Tools, s.Exclude} {
		for _, n := range list {
			if !names[n] {
				return nil, fmt.Errorf("unknown tool %q; run --cli list for the tool names", n)
			}
		}
	}
	keep, drop := setOf(s.Tools), setOf(s.Exclude)
	var out []Def
	for _, d := range all {
		switch {
		case len(toolsets) > 0 && !toolsets[d.Toolset.ID]:
		case len(keep) > 0 && !keep[d.Name]:
		case drop[d.Name]:
		case s.ReadOnly && !d.Annotations.ReadOnly:
		default:
			out = append(out, d)
		}
	}
	return out, nil
}

// Find returns the definition named name.
func Find(all []Def, name string) (Def, bool) {
	for _, d := range all {
		if d.Name == name {
			return d, true
		}
	}
	return Def{}, false
}

// Toolsets lists the toolset IDs of all, sorted.
func Toolsets(all []Def) []string {
	var out []string
	for _, ts := range ToolsetsOf(all) {
		out = append(out, ts.ID)
	}
	sort.Strings(out)
	return out
}

// ToolsetsOf lists the toolsets of all, once each, in inventory order.
func ToolsetsOf(all []Def) []Toolset {
	seen := map[string]bool{}
	var out []Toolset
	for _, d := range all {
		if !seen[d.Toolset.ID] {
			seen[d.Toolset.ID] = true
			out = append(out, d.Toolset)
		}
	}
	return out
}

// SplitList parses a comma-separated flag or header value, ignoring blanks.
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func setOf(list []string) map[string]bool {
	if len(list) == 0 {
		return nil
	}
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}
