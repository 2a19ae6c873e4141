package meta_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/meta/

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestLiveMetaTools: from the meta-tools alone an agent finds the label
// tools, creates a label and lists it on a real forge; the forge's own
// refusal comes back as the called tool's error, and a read-only
// selection's call_tool reaches the read but not the write.
func TestLiveMetaTools(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	all := operation.All()
	c := f.Client(t)
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 60 * time.Second,
		Callable: func() []tool.Def { return all }}
	search, _ := tool.Find(all, "search_tools")
	call, _ := tool.Find(all, "call_tool")
	ctx := context.Background()

	res := r.Call(ctx, search, map[string]any{"query": "create a label in a repository"})
	require.False(t, res.IsError, text(t, res))
	var found struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(text(t, res)), &found))
	require.NotEmpty(t, found.Tools)
	assert.Equal(t, "create_repo_label", found.Tools[0].Name)

	res = r.Call(ctx, call, map[string]any{"name": "create_repo_label",
		"arguments": map[string]any{"owner": owner, "repo": repo, "name": "meta-found", "color": "#00aabb"}})
	require.False(t, res.IsError, text(t, res))
	assert.Contains(t, text(t, res), `"name":"meta-found"`)

	res = r.Call(ctx, call, map[string]any{"name": "list_repo_labels", "arguments": map[string]any{"owner": owner, "repo": repo}})
	require.False(t, res.IsError, text(t, res))
	assert.Contains(t, text(t, res), `"name":"meta-found"`)

	res = r.Call(ctx, call, map[string]any{"name": "list_repo_labels", "arguments": map[string]any{"owner": owner, "repo": "no-such-repo-here"}})
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), "not found (404)")

	ro, err := tool.Select(all, tool.Selection{Toolsets: []string{"all"}, ReadOnly: true})
	require.NoError(t, err)
	r.Callable = func() []tool.Def { return ro }
	res = r.Call(ctx, call, map[string]any{"name": "create_repo_label",
		"arguments": map[string]any{"owner": owner, "repo": repo, "name": "never"}})
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), `no tool "create_repo_label" can be called here`)
	res = r.Call(ctx, call, map[string]any{"name": "list_repo_labels", "arguments": map[string]any{"owner": owner, "repo": repo}})
	require.False(t, res.IsError, text(t, res))
	assert.NotContains(t, text(t, res), `"name":"never"`)
}
