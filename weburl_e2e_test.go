package main

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// TestE2EWebURLLive: over stdio and HTTP, with the official Go SDK as the
// client, a tool takes url (a page of the live forge) in place of owner,
// repo and what the page names, as the server's instructions say; a page
// of another host is refused as a result the agent can act on.
func TestE2EWebURLLive(t *testing.T) {
	f := testforge.Get(t)
	for _, s := range sessions(f.URL, f.Token) {
		t.Run(s.name, func(t *testing.T) {
			owner, repo := f.NewRepo(t)
			cs := s.open(t, &notes{}, nil)
			assert.Contains(t, cs.InitializeResult().Instructions, "also takes url")
			call := func(name string, args map[string]any) (*mcp.CallToolResult, string) {
				res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
				require.NoError(t, err)
				return res, resultText(t, res)
			}
			res, text := call("create_issue", map[string]any{"url": f.URL + "/" + owner + "/" + repo, "title": "by its page"})
			require.False(t, res.IsError, text)
			res, text = call("get_issue_by_index", map[string]any{"url": f.URL + "/" + owner + "/" + repo + "/issues/1"})
			require.False(t, res.IsError, text)
			assert.Contains(t, text, `"title":"by its page"`)
			res, text = call("get_file_content", map[string]any{"url": f.URL + "/" + owner + "/" + repo + "/src/branch/main/README.md"})
			require.False(t, res.IsError, text)
			assert.Contains(t, text, repo)
			res, text = call("get_issue_by_index", map[string]any{"url": "https://elsewhere.example/" + owner + "/" + repo + "/issues/1"})
			assert.True(t, res.IsError)
			assert.Contains(t, text, "is not on the configured forge")
			res, text = call("list_repo_issues", map[string]any{"url": f.URL + "/" + owner + "/" + repo + "/issues/1"})
			assert.True(t, res.IsError)
			assert.Contains(t, text, "the url names issue or pull request #1, which list_repo_issues does not take")
		})
	}
}
