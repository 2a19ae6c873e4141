package tool_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// TestMissingRepositoryIsNamed: a 404 under a repository that does not
// exist names the repository, not the issue (issue 28, B.5); one under a
// repository that exists, or that the token may not read, stays as the
// forge gave it.
func TestMissingRepositoryIsNamed(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/gone", http.StatusNotFound, map[string]string{"message": "not found"})
	f.JSON("GET /api/v1/repos/o/secret", http.StatusForbidden, map[string]string{"message": "token does not have at least one of required scope(s): [read:repository]"})
	getIssue := tool.Def{Name: "get_issue", Params: []tool.Param{tool.Owner(), tool.Repo(), tool.Index()},
		Handler: func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
			p, err := tool.RepoRoute(a, "issues", tool.Seg(a, "index"))
			if err != nil {
				return nil, err
			}
			return nil, forgejo.Relabel(c.DoJSON(ctx, http.MethodGet, p, nil, nil, nil), "get", tool.IssueRef(a))
		}}
	c := f.Client()
	r := &tool.Runner{Client: func(context.Context) (*forgejo.Client, error) { return c, nil }, Timeout: 5 * time.Second}
	for _, tt := range []struct {
		repo, want string
	}{
		{"gone", "repository o/gone not found (404): it does not exist or this token cannot see it"},
		{"r", "issue o/r#1 not found (404): it does not exist or this token cannot see it"},
		{"secret", "issue o/secret#1 not found (404): it does not exist or this token cannot see it"},
	} {
		t.Run(tt.repo, func(t *testing.T) {
			before := len(f.Requests())
			res := r.Call(context.Background(), getIssue, map[string]any{"owner": "o", "repo": tt.repo, "index": 1})
			require.True(t, res.IsError)
			assert.Equal(t, tt.want, res.Content[0].(mcp.TextContent).Text)
			reqs := f.Requests()[before:]
			require.Len(t, reqs, 2, "the call, then one look at the repository")
			assert.Equal(t, "/api/v1/repos/o/"+tt.repo, reqs[1].Path)
		})
	}
}
