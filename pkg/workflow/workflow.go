// Package workflow reads what the tools need from an Actions workflow
// file written by someone else: its name, whether a person can dispatch
// it, and the inputs of its workflow_dispatch trigger, so a dispatch is
// checked before it is sent. Forgejo has no API that says either, so the
// file itself is read.
//
// The reader is bounded by the shape of its input, not only its bytes: a
// file over MaxBytes is refused before it is parsed, the parser builds
// one node tree (go.yaml.in/yaml/v3, which the module already had through
// testify; it caps nesting depth and never expands an alias while
// building nodes), and only the few nodes on the path
// on → workflow_dispatch → inputs are visited, aliases not followed.
package workflow

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Bounds of one workflow file: the forges' own workflow files are a few
// KiB; what is past these is not a workflow a person wrote by hand.
const (
	MaxBytes  = 256 << 10
	MaxInputs = 100
	// MaxOptions bounds a choice input's options.
	MaxOptions = 500
	// maxText bounds a description, a default and an option, in bytes.
	maxText = 1024
)

// ErrTooLarge is a file over MaxBytes.
var ErrTooLarge = fmt.Errorf("the workflow file is over %d KiB", MaxBytes>>10)

// Workflow is what a dispatch needs of a workflow file.
type Workflow struct {
	Name string
	// Dispatchable reports whether on: names workflow_dispatch.
	Dispatchable bool
	Inputs       []Input
}

// Input is one input of the workflow_dispatch trigger.
type Input struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty" trust:"text"`
	Type        string   `json:"type,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Default     string   `json:"default,omitempty"`
	Options     []string `json:"options,omitempty"`
}

// Parse reads a workflow file.
func Parse(data []byte) (*Workflow, error) {
	if len(data) > MaxBytes {
		return nil, ErrTooLarge
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the workflow file is empty")
		}
		return nil, fmt.Errorf("the workflow file is not valid YAML: %s", clip(err.Error()))
	}
	root := body(&doc)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, errors.New("the workflow file is not a YAML mapping")
	}
	w := &Workflow{}
	if n := get(root, "name"); n != nil && n.Kind == yaml.ScalarNode {
		w.Name = clip(n.Value)
	}
	on := get(root, "on")
	if on == nil {
		// YAML 1.1 readers turn the key on into true; a file written for
		// one may say it so.
		on = get(root, "true")
	}
	switch {
	case on == nil:
	case on.Kind == yaml.ScalarNode:
		w.Dispatchable = on.Value == "workflow_dispatch"
	case on.Kind == yaml.SequenceNode:
		for _, e := range on.Content {
			if e.Kind == yaml.ScalarNode && e.Value == "workflow_dispatch" {
				w.Dispatchable = true
			}
		}
	case on.Kind == yaml.MappingNode:
		wd, found := lookup(on, "workflow_dispatch")
		w.Dispatchable = found
		if wd != nil && wd.Kind == yaml.MappingNode {
			in, err := inputs(get(wd, "inputs"))
			if err != nil {
				return nil, err
			}
			w.Inputs = in
		}
	}
	return w, nil
}

// inputs reads the inputs mapping (nil when there is none).
func inputs(m *yaml.Node) ([]Input, error) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	if len(m.Content)/2 > MaxInputs {
		return nil, fmt.Errorf("the workflow_dispatch trigger has %d inputs, over the %d this server checks", len(m.Content)/2, MaxInputs)
	}
	var out []Input
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], body(m.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			continue
		}
		in := Input{Name: clip(k.Value), Type: "string"}
		if v != nil && v.Kind == yaml.MappingNode {
			in.Description = clip(scalar(get(v, "description")))
			if t := scalar(get(v, "type")); t != "" {
				in.Type = clip(t)
			}
			in.Required = scalar(get(v, "required")) == "true"
			in.Default = clip(scalar(get(v, "default")))
			if o := get(v, "options"); o != nil && o.Kind == yaml.SequenceNode {
				if len(o.Content) > MaxOptions {
					return nil, fmt.Errorf("input %s has %d options, over the %d this server checks", in.Name, len(o.Content), MaxOptions)
				}
				for _, e := range o.Content {
					if e.Kind == yaml.ScalarNode {
						in.Options = append(in.Options, clip(e.Value))
					}
				}
			}
		}
		out = append(out, in)
	}
	return out, nil
}

// body is a document's root, or n itself; an alias is not followed.
func body(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil
		}
		return n.Content[0]
	}
	return n
}

// lookup returns the value of key in mapping m, and whether the key is
// there (its value may be null: "workflow_dispatch:" alone).
func lookup(m *yaml.Node, key string) (*yaml.Node, bool) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			v := m.Content[i+1]
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				return nil, true
			}
			return v, true
		}
	}
	return nil, false
}

func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	v, _ := lookup(m, key)
	return v
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// clip bounds one text taken from the file.
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// Check compares the inputs a dispatch would send with the workflow's:
// each must be one it declares, a boolean true or false, a number a
// number, a choice one of its options, and every required input without
// a default must be given. It returns every problem at once, in words an
// agent can act on, and nil when there is none.
func (w *Workflow) Check(given map[string]string) error {
	var problems []string
	known := map[string]*Input{}
	for i := range w.Inputs {
		known[w.Inputs[i].Name] = &w.Inputs[i]
	}
	for _, name := range slices.Sorted(maps.Keys(given)) {
		in, ok := known[name]
		if !ok {
			problems = append(problems, fmt.Sprintf("%q is not an input of this workflow", name))
			continue
		}
		if p := in.problem(given[name]); p != "" {
			problems = append(problems, p)
		}
	}
	for _, in := range w.Inputs {
		if _, ok := given[in.Name]; !ok && in.Required && in.Default == "" {
			problems = append(problems, fmt.Sprintf("%q is required", in.Name))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s; its inputs: %s", strings.Join(problems, "; "), w.Describe())
}

func (in *Input) problem(v string) string {
	switch in.Type {
	case "boolean":
		if v != "true" && v != "false" {
			return fmt.Sprintf("%q is a boolean: true or false, not %q", in.Name, clip(v))
		}
	case "number":
		var f float64
		if _, err := fmt.Sscan(v, &f); err != nil || strings.TrimSpace(v) != v || v == "" {
			return fmt.Sprintf("%q is a number, not %q", in.Name, clip(v))
		}
	case "choice":
		for _, o := range in.Options {
			if o == v {
				return ""
			}
		}
		return fmt.Sprintf("%q is one of %s, not %q", in.Name, strings.Join(quoted(in.Options), ", "), clip(v))
	}
	return ""
}

// Describe lists the inputs in one line, every text from the file
// quoted: `"level" (choice: "debug", "info"; required), "dry_run"
// (boolean; default "false")`.
func (w *Workflow) Describe() string {
	if len(w.Inputs) == 0 {
		return "none"
	}
	var parts []string
	for _, in := range w.Inputs {
		var d []string
		t := fmt.Sprintf("%q", in.Type)
		if in.Type == "string" || in.Type == "boolean" || in.Type == "number" || in.Type == "choice" || in.Type == "environment" {
			t = in.Type
		}
		if len(in.Options) > 0 {
			t += ": " + strings.Join(quoted(in.Options), ", ")
		}
		d = append(d, t)
		if in.Required {
			d = append(d, "required")
		}
		if in.Default != "" {
			d = append(d, fmt.Sprintf("default %q", in.Default))
		}
		parts = append(parts, fmt.Sprintf("%q (%s)", in.Name, strings.Join(d, "; ")))
	}
	return strings.Join(parts, ", ")
}

func quoted(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}
