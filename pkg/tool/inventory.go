package tool

import (
	"fmt"
	"maps"
	"slices"
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
	// Explicit toolsets are selected only by name: "all", an empty
	// selection and "-x" lists leave them out, so a powerful toolset (site
	// administration) is never offered by a selection that did not ask
	// for it. A tool of one named in --tools is kept.
	Explicit bool
}

// String is the toolset's ID.
func (t Toolset) String() string { return t.ID }

// Selection narrows an inventory; it mirrors --toolsets, --tools,
// --exclude-tools and --read-only. Each field can only remove tools.
//
// Toolsets is a list of words: a toolset ID, "all" (every toolset but the
// Explicit ones),
// "default" (the toolsets marked Default), "+ID" (add a toolset) or "-ID"
// (leave one out); a list of only +/- words starts from the default
// selection, so "+wiki" and "default,+wiki" are the same.
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
	toolsets, err := resolveToolsets(all, s.Toolsets)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, d := range all {
		names[d.Name] = true
	}
	for _, list := range [][]string{s.Tools, s.Exclude} {
		for _, n := range list {
			if !names[n] {
				return nil, fmt.Errorf("unknown tool %q%s; run --cli list for the tool names", n, hint(n, slices.Collect(maps.Keys(names))))
			}
		}
	}
	keep, drop := setOf(s.Tools), setOf(s.Exclude)
	named := namedToolsets(s.Toolsets)
	var out []Def
	for _, d := range all {
		switch {
		case d.Toolset.Explicit && !named[d.Toolset.ID] && !keep[d.Name]:
		case len(toolsets) > 0 && !toolsets[d.Toolset.ID]:
		case len(keep) > 0 && !keep[d.Name]:
		case drop[d.Name]:
		case s.ReadOnly && !d.Annotations.ReadOnly && d.Forward == nil:
		default:
			if s.ReadOnly && d.Forward != nil {
				// It reaches only the read-only tools the same
				// selection keeps, so it only reads.
				d.Annotations = Annotations{ReadOnly: true, Idempotent: true, OpenWorld: true}
			}
			out = append(out, d)
		}
	}
	return out, nil
}

// namedToolsets is the set of toolset IDs words add by name (ID or +ID),
// which is how an Explicit toolset is selected.
func namedToolsets(words []string) map[string]bool {
	named := map[string]bool{}
	for _, w := range words {
		if id, ok := strings.CutPrefix(w, "+"); ok {
			named[id] = true
		} else if !strings.HasPrefix(w, "-") {
			named[w] = true
		}
	}
	return named
}

// resolveToolsets turns the words of Selection.Toolsets into the set of
// toolset IDs to keep; nil keeps every one.
func resolveToolsets(all []Def, words []string) (map[string]bool, error) {
	if len(words) == 0 {
		return nil, nil
	}
	known := map[string]bool{}
	defaults := map[string]bool{}
	for _, ts := range ToolsetsOf(all) {
		known[ts.ID] = true
		if ts.Default {
			defaults[ts.ID] = true
		}
	}
	keep := map[string]bool{}
	onlyDelta := true
	for _, w := range words {
		if !strings.HasPrefix(w, "+") && !strings.HasPrefix(w, "-") {
			onlyDelta = false
		}
	}
	if onlyDelta {
		maps.Copy(keep, defaults)
	}
	for _, w := range words {
		id, op := w, byte(0)
		if w[0] == '+' || w[0] == '-' {
			id, op = w[1:], w[0]
		}
		var ids []string
		switch {
		case id == "all":
			ids = slices.Collect(maps.Keys(known))
		case id == "default":
			ids = slices.Collect(maps.Keys(defaults))
		case known[id]:
			ids = []string{id}
		default:
			return nil, fmt.Errorf("unknown toolset %q%s; toolsets: all, default, %s (+name adds one to the default, -name leaves one out)", w, hint(w, toolsetWords(all, op)), strings.Join(Toolsets(all), ", "))
		}
		for _, i := range ids {
			keep[i] = op != '-'
		}
	}
	maps.DeleteFunc(keep, func(_ string, v bool) bool { return !v })
	if len(keep) == len(known) {
		return nil, nil
	}
	if len(keep) == 0 {
		keep[""] = true // nothing: no tool has an empty toolset
	}
	return keep, nil
}

// hint is "; did you mean %q?" for the name in names closest to name, or
// "".
func hint(name string, names []string) string {
	sort.Strings(names) // a tie goes to the same name every time
	if s := Suggest(name, names); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// toolsetWords are the words --toolsets takes, with op (+ or -) before
// each when it is not 0.
func toolsetWords(all []Def, op byte) []string {
	words := append([]string{"all", "default"}, Toolsets(all)...)
	if op != 0 {
		for i, w := range words {
			words[i] = string(op) + w
		}
	}
	return words
}

// DefaultToolsets lists the IDs of the toolsets of all marked Default, in
// inventory order.
func DefaultToolsets(all []Def) []string {
	var out []string
	for _, ts := range ToolsetsOf(all) {
		if ts.Default {
			out = append(out, ts.ID)
		}
	}
	return out
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
