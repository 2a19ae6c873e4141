package workflow_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/workflow"
)

const release = `name: Release
on:
  push:
    tags: ['v*']
  workflow_dispatch:
    inputs:
      level:
        description: Log level
        required: true
        type: choice
        options: [debug, info]
      dry_run:
        type: boolean
        default: false
      count:
        type: number
        required: true
        default: "3"
      note:
        description: "Free text"
jobs:
  x:
    runs-on: docker
    steps: [{run: echo}]
`

func TestParse(t *testing.T) {
	tests := []struct {
		name         string
		yaml         string
		dispatchable bool
		inputs       []workflow.Input
		wantErr      string
	}{
		{"inputs of every type", release, true, []workflow.Input{
			{Name: "level", Description: "Log level", Type: "choice", Required: true, Options: []string{"debug", "info"}},
			{Name: "dry_run", Type: "boolean", Default: "false"},
			{Name: "count", Type: "number", Required: true, Default: "3"},
			{Name: "note", Description: "Free text", Type: "string"},
		}, ""},
		{"on as one word", "on: workflow_dispatch\njobs: {}\n", true, nil, ""},
		{"on as a list", "on: [push, workflow_dispatch]\n", true, nil, ""},
		{"workflow_dispatch with nothing", "on:\n  workflow_dispatch:\n  push:\n", true, nil, ""},
		{"not dispatchable", "on:\n  push:\n    branches: [main]\n", false, nil, ""},
		{"no on at all", "jobs: {}\n", false, nil, ""},
		{"a YAML 1.1 writer's on", "true:\n  workflow_dispatch:\n    inputs:\n      a: {}\n", true, []workflow.Input{{Name: "a", Type: "string"}}, ""},
		{"an alias is not followed", "x: &i {a: {type: boolean}}\non:\n  workflow_dispatch:\n    inputs: *i\n", true, nil, ""},
		{"empty", "", false, nil, "is empty"},
		{"not a mapping", "- a\n- b\n", false, nil, "not a YAML mapping"},
		{"broken", "on: [\n", false, nil, "not valid YAML"},
		{"too large", strings.Repeat("#", workflow.MaxBytes+1), false, nil, "over 256 KiB"},
		{"too many inputs", "on:\n  workflow_dispatch:\n    inputs:\n" + strings.Repeat("", 0) + manyInputs(workflow.MaxInputs+1), false, nil, "over the 100 this server checks"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := workflow.Parse([]byte(tc.yaml))
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.dispatchable, w.Dispatchable)
			assert.Equal(t, tc.inputs, w.Inputs)
		})
	}
}

func manyInputs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("      i" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ": {}\n")
	}
	return b.String()
}

func TestCheck(t *testing.T) {
	w, err := workflow.Parse([]byte(release))
	require.NoError(t, err)
	assert.Equal(t, "Release", w.Name)
	for _, tc := range []struct {
		name    string
		given   map[string]string
		wantErr []string
	}{
		{"valid", map[string]string{"level": "info", "dry_run": "true", "count": "2.5"}, nil},
		{"defaults fill the rest", map[string]string{"level": "debug"}, nil},
		{"every problem at once", map[string]string{"levl": "x", "dry_run": "yes", "count": "many"}, []string{
			`"levl" is not an input of this workflow`, `"dry_run" is a boolean: true or false, not "yes"`,
			`"count" is a number, not "many"`, `"level" is required`,
			`its inputs: "level" (choice: "debug", "info"; required), "dry_run" (boolean; default "false")`}},
		{"a choice not among the options", map[string]string{"level": "trace"}, []string{`"level" is one of "debug", "info", not "trace"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := w.Check(tc.given)
			if tc.wantErr == nil {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			for _, want := range tc.wantErr {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
}

// TestBoundedByShape: a file of many aliases to one large node (the
// "billion laughs" shape) is read in one pass over its nodes.
func TestBoundedByShape(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [" + strings.Repeat("x,", 500) + "x]\n")
	prev := "a"
	for i := 0; i < 9; i++ {
		name := string(rune('b' + i))
		b.WriteString(name + ": &" + name + " [" + strings.Repeat("*"+prev+",", 9) + "*" + prev + "]\n")
		prev = name
	}
	b.WriteString("on:\n  workflow_dispatch:\n    inputs:\n      x: *" + prev + "\n")
	w, err := workflow.Parse([]byte(b.String()))
	require.NoError(t, err)
	assert.Equal(t, []workflow.Input{{Name: "x", Type: "string"}}, w.Inputs)
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(release))
	f.Add([]byte("on: [push, workflow_dispatch]\n"))
	f.Add([]byte("x: &i {a: {type: boolean}}\non:\n  workflow_dispatch:\n    inputs: *i\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := workflow.Parse(data)
		if err != nil {
			return
		}
		assert.LessOrEqual(t, len(w.Inputs), workflow.MaxInputs)
		_ = w.Check(map[string]string{"level": "info"})
		_ = w.Describe()
	})
}
