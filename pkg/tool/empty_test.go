package tool

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEmptyReason(t *testing.T) {
	ts := Toolset{ID: "issue"}
	all := []Def{
		{Name: "get_issue", Toolset: ts, Annotations: Read()},
		{Name: "create_issue", Toolset: ts, Annotations: Write(false)},
		{Name: "edit_issue", Toolset: ts, Annotations: Write(true)},
	}
	w := SelectionWords{"--toolsets", "--tools", "--exclude-tools", "--read-only"}
	tests := []struct {
		sel  Selection
		want string
	}{
		{Selection{ReadOnly: true}, ""},
		{Selection{Tools: []string{"create_issue"}}, ""},
		{Selection{Tools: []string{"create_issue"}, ReadOnly: true}, "--read-only leaves out every tool --tools selects: they all write to the forge (create_issue)"},
		{Selection{Tools: []string{"create_issue", "edit_issue"}, Exclude: []string{"create_issue"}, ReadOnly: true}, "--read-only leaves out every tool --tools selects: they all write to the forge (edit_issue)"},
		{Selection{Toolsets: []string{"issue"}, Exclude: []string{"get_issue", "create_issue", "edit_issue"}}, "--exclude-tools leaves out every tool --toolsets selects"},
		{Selection{Toolsets: []string{"-issue"}}, "the --toolsets and --tools given select no tool"},
		{Selection{Tools: []string{"nope"}}, ""}, // an unknown name is Select's error, said there
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, EmptyReason(all, tt.sel, w), "%+v", tt.sel)
	}
}
