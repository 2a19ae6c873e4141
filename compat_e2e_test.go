package main

// The built binary driven by the Go SDK client: redaction of every string
// that leaves, hidden parameter aliases and the unknown-tool hint, as an
// agent's client sees them.

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

func TestE2ERedactionAliasesAndHints(t *testing.T) {
	f := fakeforge.New(t)
	uuid := "0a1b2c3d-0000-4000-8000-000000000002"
	f.TokenLinkedAttachment(uuid)
	f.JSON("GET /api/v1/repos/o/r/hooks/5", 200, map[string]any{"id": 5, "type": "forgejo", "active": true})
	env := []string{"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + fakeforge.Token}

	for _, version := range protocolVersions {
		t.Run(version, func(t *testing.T) {
			cs := connect(t, version, env)
			ctx := context.Background()
			wire := func(v any) string {
				b, err := json.Marshal(v)
				require.NoError(t, err)
				assert.NotContains(t, string(b), fakeforge.Token)
				return string(b)
			}

			t.Run("blob URI redacted", func(t *testing.T) {
				res, text := callTool(t, cs, "download_issue_attachment", map[string]any{"owner": "o", "repo": "r", "index": 3, "attachment_id": 7})
				require.False(t, res.IsError, text)
				wire(res)
				require.Len(t, res.Content, 2)
				blob, ok := res.Content[1].(*mcp.EmbeddedResource)
				require.True(t, ok, "%T", res.Content[1])
				assert.Equal(t, "forgejo://o/r/issues/3/attachments/7", blob.Resource.URI, "the server's own resource URI, with no token in it")
				assert.Equal(t, []byte("he\x00lo"), blob.Resource.Blob)
			})

			t.Run("validation echo redacted", func(t *testing.T) {
				res, text := callTool(t, cs, "get_issue_by_index", map[string]any{"owner": "x/" + fakeforge.Token, "repo": "r", "index": 1})
				assert.True(t, res.IsError)
				wire(res)
				assert.Contains(t, text, `argument "owner" must contain letters, digits, '-', '_' and '.' only, got "x/[REDACTED]"`)
			})

			t.Run("alias behaves like its parameter", func(t *testing.T) {
				res, canonical := callTool(t, cs, "get_repo_hook", map[string]any{"owner": "o", "repo": "r", "hook_id": 5})
				require.False(t, res.IsError, canonical)
				res, viaAlias := callTool(t, cs, "get_repo_hook", map[string]any{"owner": "o", "repo": "r", "id": 5})
				require.False(t, res.IsError, viaAlias)
				assert.Equal(t, canonical, viaAlias)
			})

			t.Run("tools/list shows no alias", func(t *testing.T) {
				list, err := cs.ListTools(ctx, nil)
				require.NoError(t, err)
				byName := map[string]*mcp.Tool{}
				for _, tl := range list.Tools {
					byName[tl.Name] = tl
				}
				for name, aliases := range operation.Aliases() {
					tl := byName[name]
					require.NotNil(t, tl, name)
					schema := wire(tl.InputSchema)
					for alias := range aliases {
						assert.NotContains(t, schema, `"`+alias+`"`, "%s advertises %s", name, alias)
					}
				}
			})

			t.Run("unknown tool: a protocol error with a hint", func(t *testing.T) {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_isue_by_index", Arguments: map[string]any{}})
				require.Error(t, err, "an unknown tool stays a JSON-RPC error")
				t.Logf("the client sees: %v", err)
				assert.Contains(t, err.Error(), `tool 'get_isue_by_index' not found; did you mean "get_issue_by_index"?`,
					"the hint follows the quoted name, which is the name as sent")
			})
		})
	}
}

// TestE2ELiveAliasesAndRedaction: the same promises against a real forge:
// a branch created and a file read through the established server's
// spellings, a token pasted into an argument not echoed, an unknown tool
// answered with a hint.
func TestE2ELiveAliasesAndRedaction(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	cs := connect(t, "2025-11-25", []string{"FORGEJO_URL=" + f.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token})

	res, text := callTool(t, cs, "create_branch", map[string]any{"owner": owner, "repo": repo, "branch_name": "via-alias", "old_branch": "main"})
	require.False(t, res.IsError, text)
	res, text = callTool(t, cs, "list_branches", map[string]any{"owner": owner, "repo": repo})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, `"via-alias"`)

	res, canonical := callTool(t, cs, "get_file_content", map[string]any{"owner": owner, "repo": repo, "path": "README.md", "from_line": 1, "to_line": 1})
	require.False(t, res.IsError, canonical)
	res, viaAlias := callTool(t, cs, "get_file_content", map[string]any{"owner": owner, "repo": repo, "filePath": "README.md", "start_line": 1, "end_line": 1})
	require.False(t, res.IsError, viaAlias)
	assert.Equal(t, canonical, viaAlias)

	res, text = callTool(t, cs, "get_issue_by_index", map[string]any{"owner": owner + "/" + f.Token, "repo": repo, "index": 1})
	assert.True(t, res.IsError)
	assert.NotContains(t, text, f.Token)
	assert.Contains(t, text, `/[REDACTED]"`)

	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_issues", Arguments: map[string]any{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `did you mean "list_repo_issues"?`)
}
