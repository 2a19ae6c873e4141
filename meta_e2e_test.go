package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// TestE2EMetaTools: with only the default selection listed, an agent
// finds a tool outside it with search_tools and calls it with call_tool,
// statelessly over both transports; what the server or the request
// narrows (--read-only, --tools, X-MCP-Readonly, X-MCP-Tools) the
// meta-tools cannot reach either.
func TestE2EMetaTools(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/user", func(w http.ResponseWriter, _ *http.Request) {
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": 1, "login": "alice"})
	})
	f.Handle("GET /api/v1/repos/o/r/hooks/7", func(w http.ResponseWriter, _ *http.Request) {
		fakeforge.WriteJSON(w, http.StatusOK, map[string]any{"id": 7, "type": "forgejo", "active": true,
			"config": map[string]any{"url": "https://ci.example/hook", "content_type": "json"}, "events": []string{"push"}})
	})
	hook := map[string]any{"name": "get_repo_hook", "arguments": map[string]any{"owner": "o", "repo": "r", "hook_id": 7}}
	drop := map[string]any{"name": "delete_repo_hook", "arguments": map[string]any{"owner": "o", "repo": "r", "hook_id": 7}}
	for _, s := range sessions(f.URL, "tok-0123456789") {
		t.Run(s.name, func(t *testing.T) {
			http := strings.HasPrefix(s.name, "http")
			cs := s.open(t, &notes{}, nil)
			tools := listed(t, cs)
			require.Contains(t, tools, "search_tools")
			require.Contains(t, tools, "call_tool")
			require.NotContains(t, tools, "get_repo_hook", "outside the default selection")

			res, text := callTool(t, cs, "search_tools", map[string]any{"query": "get a repository webhook"})
			require.False(t, res.IsError, text)
			var found struct {
				Tools []struct {
					Name        string         `json:"name"`
					InputSchema map[string]any `json:"input_schema"`
				} `json:"tools"`
			}
			require.NoError(t, json.Unmarshal([]byte(text), &found), text)
			require.NotEmpty(t, found.Tools)
			assert.Equal(t, "get_repo_hook", found.Tools[0].Name)
			assert.Contains(t, found.Tools[0].InputSchema["required"], "hook_id")

			res, text = callTool(t, cs, "call_tool", hook)
			require.False(t, res.IsError, text)
			assert.Contains(t, text, `"url":"https://ci.example/hook"`)

			// Called by name, the unlisted tool says how to reach it.
			_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "get_repo_hook", Arguments: hook["arguments"]})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "get_repo_hook (not listed: call it through call_tool)")

			var ro, narrow *mcp.ClientSession
			if http {
				ro = s.open(t, &notes{}, map[string]string{"X-MCP-Readonly": "true"})
				narrow = s.open(t, &notes{}, map[string]string{"X-MCP-Tools": "call_tool,search_tools,list_repo_hooks"})
			} else {
				ro = s.open(t, &notes{}, nil, "--read-only")
				narrow = s.open(t, &notes{}, nil, "--tools", "call_tool,search_tools,list_repo_hooks")
			}
			res, text = callTool(t, ro, "call_tool", drop)
			assert.True(t, res.IsError)
			assert.Contains(t, text, `call_tool: no tool "delete_repo_hook" can be called here`)
			res, text = callTool(t, ro, "call_tool", hook)
			assert.False(t, res.IsError, "a read-only selection still reaches reads: %s", text)
			ann := listed(t, ro)["call_tool"].Annotations
			assert.True(t, ann.ReadOnlyHint, "call_tool only reads under a read-only selection")

			res, text = callTool(t, narrow, "call_tool", hook)
			assert.True(t, res.IsError)
			assert.Contains(t, text, `call_tool: no tool "get_repo_hook" can be called here`)
			res, text = callTool(t, narrow, "search_tools", map[string]any{"query": "hook"})
			require.False(t, res.IsError, text)
			assert.Contains(t, text, `"name":"list_repo_hooks"`)
			assert.NotContains(t, text, `"name":"get_repo_hook"`)
		})
	}
}
