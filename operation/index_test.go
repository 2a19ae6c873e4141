package operation_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestIndexFile: index_gen.go is what make docs generates from the
// inventory.
func TestIndexFile(t *testing.T) {
	want, err := operation.IndexFile()
	require.NoError(t, err)
	got, err := os.ReadFile("index_gen.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "operation/index_gen.go is stale: run make docs")
}

// TestFind: the one-part lookup finds every tool of the inventory, the
// same definition (parameters, aliases, annotations) as All has, and
// nothing for a name no tool has.
func TestFind(t *testing.T) {
	shape := func(d tool.Def) string {
		var params []string
		for _, p := range d.Params {
			params = append(params, p.Name+" "+string(p.Type)+": "+tool.ParamSummary(p))
		}
		b, err := json.Marshal(struct {
			Name, Title, Toolset, Description string
			Params                            []string
			Annotations                       tool.Annotations
			Aliases                           map[string]string
			Offline, LargeArgs                bool
			CLIFile                           string
		}{d.Name, d.Title, d.Toolset.ID, d.Description, params, d.Annotations, d.Aliases, d.Offline, d.LargeArgs, d.CLIFile})
		require.NoError(t, err)
		return string(b)
	}
	for _, want := range operation.All() {
		got, ok := operation.Find(want.Name)
		if assert.True(t, ok, want.Name) {
			assert.Equal(t, shape(want), shape(got))
			assert.NotNil(t, got.Handler, want.Name)
		}
	}
	for _, name := range []string{"", "list", "get_issue", "GET_ISSUE_BY_INDEX"} {
		_, ok := operation.Find(name)
		assert.False(t, ok, name)
	}
}
