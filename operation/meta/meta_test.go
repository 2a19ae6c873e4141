package meta_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/schemacheck"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/meta"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotEmpty(t, res.Content)
	tc, ok := res.Content[0].(mcp.TextContent)
	require.True(t, ok)
	return tc.Text
}

// runner is a Runner on f whose meta-tools reach callable.
func runner(f *fakeforge.Server, callable []tool.Def) *tool.Runner {
	c := f.Client()
	return &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 5 * time.Second,
		Callable: func() []tool.Def { return callable }}
}

func names(defs []tool.Def) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}

// TestRank: the words an agent would use find the tool it means first,
// whatever their form (plural, synonym, prefix).
func TestRank(t *testing.T) {
	all := operation.All()
	for _, c := range []struct{ query, first string }{
		{"create pull request", "create_pull_request"},
		{"open a new PR", "create_pull_request"},
		{"delete webhook", "delete_repo_hook"},
		{"remove a hook from a repository", "delete_repo_hook"},
		{"workflow runs", "list_workflow_runs"},
		{"job logs", "get_action_job_logs"},
		{"branch protection rules", "list_branch_protections"},
		{"read a wiki page", "get_wiki_page"},
		{"get_release_by_tag", "get_release_by_tag"},
		{"releas", "list_releases"},
	} {
		ranked := meta.Rank(all, c.query)
		require.NotEmpty(t, ranked, c.query)
		assert.Equal(t, c.first, ranked[0].Name, "%q ranks %v", c.query, names(ranked[:min(5, len(ranked))]))
	}
	assert.Empty(t, meta.Rank(all, "zebra quantum"))
	assert.Len(t, meta.Rank(all, ""), len(all), "no words match every tool")
}

func TestWords(t *testing.T) {
	assert.Equal(t, []string{"delete", "repo", "secret"}, meta.Words("Remove the repository's secrets"))
	assert.Equal(t, []string{"create", "pull", "org", "variable"}, meta.Words("add PR, organization env"))
	assert.Equal(t, []string{"dispatch", "workflow", "runner"}, meta.Words("trigger pipelines runners"))
}

// TestSearchTools: the answer names tools with the input schema a call
// needs, ten at most with a note saying how many more match, a whole
// toolset by its name, and a note naming the toolsets when nothing
// matches; it never finds itself or call_tool, nor a tool the request
// cannot call.
func TestSearchTools(t *testing.T) {
	f := fakeforge.New(t)
	all := operation.All()
	d, ok := tool.Find(all, "search_tools")
	require.True(t, ok)
	search := func(r *tool.Runner, ctx context.Context, q string) meta.Result {
		t.Helper()
		res := r.Call(ctx, d, map[string]any{"query": q})
		require.False(t, res.IsError, text(t, res))
		schemacheck.Result(t, d, res)
		var out meta.Result
		require.NoError(t, json.Unmarshal([]byte(text(t, res)), &out))
		return out
	}
	r := runner(f, all)
	ctx := context.Background()

	got := search(r, ctx, "webhook")
	var hooks []string
	for _, x := range all {
		if x.Toolset.ID == "webhook" {
			hooks = append(hooks, x.Name)
		}
	}
	require.NotEmpty(t, hooks)
	var found []string
	for _, x := range got.Tools {
		found = append(found, x.Name)
	}
	assert.Equal(t, hooks, found, "a toolset's name gives all its tools")
	assert.False(t, got.HasMore)

	got = search(r, ctx, "delete repo hook")
	require.NotEmpty(t, got.Tools)
	first := got.Tools[0]
	assert.Equal(t, "delete_repo_hook", first.Name)
	assert.Equal(t, "destructive, idempotent", first.Kind)
	want, _ := tool.Find(all, "delete_repo_hook")
	schema, err := json.Marshal(want.MCPTool().InputSchema)
	require.NoError(t, err)
	gotSchema, err := json.Marshal(first.InputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, string(schema), string(gotSchema), "the input schema as tools/list would give it")

	got = search(r, ctx, "list")
	assert.Len(t, got.Tools, meta.MaxFound)
	assert.True(t, got.HasMore)
	assert.Regexp(t, `^\d+ more tools match: add words, or give a toolset's name$`, got.Note)

	got = search(r, ctx, "zebra quantum")
	assert.Empty(t, got.Tools)
	assert.Contains(t, got.Note, "no tool matches these words; try others, or a toolset's name: ")
	assert.Contains(t, got.Note, "webhook (")
	assert.NotContains(t, got.Note, "meta (", "the meta toolset is not among those it finds")

	for _, x := range search(r, ctx, "tool call search").Tools {
		assert.NotEqual(t, "meta", x.Kind)
		assert.NotContains(t, []string{"search_tools", "call_tool"}, x.Name)
	}

	// A request that narrows what it reaches finds only those tools.
	narrow := tool.WithCallable(ctx, map[string]bool{"get_repo_hook": true})
	got = search(r, narrow, "hook")
	require.Len(t, got.Tools, 1)
	assert.Equal(t, "get_repo_hook", got.Tools[0].Name)
	assert.Empty(t, search(r, narrow, "delete").Tools)
}

// TestCallToolReachesAnyTool: call_tool runs a tool outside the default
// selection against the forge, with that tool's validation and errors.
func TestCallToolReachesAnyTool(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/hooks/7", func(w http.ResponseWriter, _ *http.Request) {
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": 7, "type": "forgejo", "active": true,
			"config": map[string]any{"url": "https://ci.example/hook", "content_type": "json"}, "events": []string{"push"}})
	})
	all := operation.All()
	call, ok := tool.Find(all, "call_tool")
	require.True(t, ok)
	r := runner(f, all)
	res := r.Call(context.Background(), call, map[string]any{"name": "get_repo_hook",
		"arguments": map[string]any{"owner": "o", "repo": "r", "hook_id": 7.0}})
	require.False(t, res.IsError, text(t, res))
	var hook struct {
		ID  int64  `json:"id"`
		URL string `json:"url"`
	}
	require.NoError(t, json.Unmarshal([]byte(text(t, res)), &hook), text(t, res))
	assert.Equal(t, int64(7), hook.ID)
	assert.Equal(t, "https://ci.example/hook", hook.URL)
	hookDef, _ := tool.Find(all, "get_repo_hook")
	schemacheck.Result(t, hookDef, res)

	res = r.Call(context.Background(), call, map[string]any{"name": "get_repo_hook", "arguments": map[string]any{"owner": "o"}})
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), "invalid arguments for get_repo_hook: missing required argument")

	res = r.Call(context.Background(), call, map[string]any{"name": "get_repo_hok"})
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), `(did you mean "get_repo_hook"?)`)
}
