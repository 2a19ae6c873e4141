package tool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// echoArgs is a tool with params that answers with the arguments it got.
func echoArgs(name string, params ...tool.Param) tool.Def {
	return tool.Def{Name: name, Params: params, Annotations: tool.Read(),
		Handler: func(_ context.Context, _ *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
			return tool.JSON(a.Given(params[0].Name, "repo", "index", "ref", "path", "sha", "run_id", "job_id", "comment_id", "tag"))
		}}
}

// TestURLArgument: every tool taking owner and repo takes url, a page of
// the configured forge, in their place; what the page names fills the
// tool's parameters, and a page of another forge, or one naming what the
// tool does not take, is refused before the handler runs.
func TestURLArgument(t *testing.T) {
	f := fakeforge.New(t)
	r := runnerFor(f)
	issue := echoArgs("get_issue", tool.Owner(), tool.Repo(), tool.Index())
	file := echoArgs("get_file", tool.Owner(), tool.Repo(), tool.Str("ref", "Ref"), tool.Str("path", "Path", tool.Required()))
	repo := echoArgs("get_repo", tool.Owner(), tool.Repo())
	run := echoArgs("get_run", tool.Owner(), tool.Repo(), tool.ID("run_id", "Run"))
	comment := echoArgs("get_comment", tool.Owner(), tool.Repo(), tool.CommentID())
	hook := echoArgs("create_hook", tool.Owner(), tool.Repo(), tool.Str("target_url", "Target"))
	hook.Aliases = map[string]string{"url": "target_url"}
	tests := []struct {
		name string
		def  tool.Def
		args map[string]any
		want map[string]any
		err  string
	}{
		{"issue", issue, map[string]any{"url": f.URL + "/alice/demo/issues/3"}, map[string]any{"owner": "alice", "repo": "demo", "index": 3.0}, ""},
		{"issue, comment anchor ignored", issue, map[string]any{"url": f.URL + "/alice/demo/issues/3#issuecomment-9"}, map[string]any{"owner": "alice", "repo": "demo", "index": 3.0}, ""},
		{"agreeing argument", issue, map[string]any{"url": f.URL + "/alice/demo/pulls/3", "index": 3}, map[string]any{"owner": "alice", "repo": "demo", "index": 3.0}, ""},
		{"file", file, map[string]any{"url": f.URL + "/alice/demo/src/branch/main/docs/a.md"}, map[string]any{"owner": "alice", "repo": "demo", "ref": "main", "path": "docs/a.md"}, ""},
		{"run", run, map[string]any{"url": f.URL + "/alice/demo/actions/runs/12"}, map[string]any{"owner": "alice", "repo": "demo", "run_id": 12.0}, ""},
		{"comment", comment, map[string]any{"url": f.URL + "/alice/demo/issues/3#issuecomment-9"}, map[string]any{"owner": "alice", "repo": "demo", "comment_id": 9.0}, ""},
		{"hook target is not a page", hook, map[string]any{"owner": "o", "repo": "r", "url": "https://hooks.example/x"}, map[string]any{"owner": "o", "repo": "r"}, ""},

		{"another forge", issue, map[string]any{"url": "https://evil.example/alice/demo/issues/3"}, nil, "is not on the configured forge"},
		{"disagreeing argument", issue, map[string]any{"url": f.URL + "/alice/demo/issues/3", "index": 4}, nil, "index is 4, but the url names 3"},
		{"a page naming more than the tool takes", repo, map[string]any{"url": f.URL + "/alice/demo/issues/3"}, nil, "the url names issue or pull request #3, which get_repo does not take"},
		{"a file page to an issue tool", issue, map[string]any{"url": f.URL + "/alice/demo/src/branch/main/a.md"}, nil, "the url names ref main, which get_issue does not take"},
		{"not a string", issue, map[string]any{"url": 3}, nil, "url must be a string"},
		{"repository page, number missing", issue, map[string]any{"url": f.URL + "/alice/demo"}, nil, `missing required argument "index"`},
		{"missing owner names url", issue, map[string]any{"index": 1}, nil, `missing required argument "owner" (User or org), or url, the repository's web address`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := r.Call(context.Background(), tt.def, tt.args)
			got := text(t, res)
			if tt.err != "" {
				require.True(t, res.IsError, got)
				assert.Contains(t, got, tt.err)
				return
			}
			require.False(t, res.IsError, got)
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(got), &m))
			assert.Equal(t, tt.want, m)
		})
	}
	assert.False(t, hook.TakesURL(), "url is create_hook's own alias")
	assert.True(t, issue.TakesURL())
	assert.False(t, echoArgs("get_user", tool.User()).TakesURL(), "no repository, no url")
}
