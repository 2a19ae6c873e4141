package httpserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

// TestHeadersNarrowEverything is issue 18's item 8: X-MCP-* headers
// narrowed tools/list and tools/call, but a request narrowed to
// get_issue_by_index still listed every resource template, read the
// repository through get_repo, got prompts naming hidden tools and had the
// forge complete owners for a template it could not read. Each surface now
// follows the request's tools.
func TestHeadersNarrowEverything(t *testing.T) {
	fx := newFixture(t, func(o *Options) { o.Defs = operation.All() })
	fx.forge.JSON("GET /api/v1/repos/alice/rocket", http.StatusOK, map[string]any{"name": "rocket", "owner": map[string]any{"login": "alice"}})
	fx.forge.JSON("GET /api/v1/repos/alice/rocket/issues/1", http.StatusOK, map[string]any{"number": 1, "title": "Crash"})
	fx.forge.JSON("GET /api/v1/repos/alice/rocket/issues/1/comments", http.StatusOK, []any{})
	fx.forge.JSON("GET /api/v1/repos/alice/rocket/issues", http.StatusOK, []map[string]any{{"number": 1}})
	fx.forge.JSON("GET /api/v1/user/repos", http.StatusOK, []map[string]any{{"name": "rocket", "owner": map[string]any{"login": "alice"}}})
	auth := "Bearer " + tokAlice
	narrow := map[string]string{HeaderTools: "get_issue_by_index"}
	call := func(method string, params map[string]any, headers map[string]string) map[string]any {
		t.Helper()
		resp, body := fx.post(t, rpc{Method: method, Params: params, Auth: auth, Headers: headers})
		require.Equal(t, http.StatusOK, resp.StatusCode, body)
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(body), &m), body)
		return m
	}
	names := func(m map[string]any, list, key string) []string {
		t.Helper()
		require.Contains(t, m, "result", m)
		out := []string{}
		for _, e := range m["result"].(map[string]any)[list].([]any) {
			out = append(out, e.(map[string]any)[key].(string))
		}
		return out
	}
	forgeRequests := func(path string) int {
		n := 0
		for _, r := range fx.forge.Requests() {
			if r.Path == path {
				n++
			}
		}
		return n
	}

	t.Run("templates", func(t *testing.T) {
		assert.Len(t, names(call("resources/templates/list", map[string]any{}, nil), "resourceTemplates", "name"), 10, "without a header: all")
		assert.Equal(t, []string{"issue"}, names(call("resources/templates/list", map[string]any{}, narrow), "resourceTemplates", "name"))
	})
	t.Run("read", func(t *testing.T) {
		m := call("resources/read", map[string]any{"uri": "forgejo://alice/rocket"}, narrow)
		require.Contains(t, m, "error", m)
		assert.Contains(t, m["error"].(map[string]any)["message"], "narrowed to tools without get_repo")
		assert.Zero(t, forgeRequests("/api/v1/repos/alice/rocket"), "the forge was not asked")

		m = call("resources/read", map[string]any{"uri": "forgejo://alice/rocket/issues/1"}, narrow)
		require.Contains(t, m, "result", m)
		text := m["result"].(map[string]any)["contents"].([]any)[0].(map[string]any)["text"].(string)
		var issue map[string]any
		require.NoError(t, json.Unmarshal([]byte(text), &issue))
		assert.Contains(t, issue, "issue")
		assert.NotContains(t, issue, "comments", "list_issue_comments is not among the request's tools")
		assert.Zero(t, forgeRequests("/api/v1/repos/alice/rocket/issues/1/comments"))
	})
	t.Run("prompts", func(t *testing.T) {
		assert.Len(t, names(call("prompts/list", map[string]any{}, nil), "prompts", "name"), 4)
		assert.Equal(t, []string{"triage_issue"}, names(call("prompts/list", map[string]any{}, narrow), "prompts", "name"))
		args := map[string]any{"owner": "alice", "repo": "rocket", "index": "1"}
		m := call("prompts/get", map[string]any{"name": "review_pull_request", "arguments": args}, narrow)
		require.Contains(t, m, "error", "a prompt without the request's tools is unknown to it: %v", m)
		m = call("prompts/get", map[string]any{"name": "triage_issue", "arguments": args}, narrow)
		require.Contains(t, m, "result", m)
		b, err := json.Marshal(m)
		require.NoError(t, err)
		assert.Contains(t, string(b), "get_issue_by_index")
		for _, hidden := range []string{"list_issue_comments", "list_repo_labels", "search_issues", "create_issue_comment"} {
			assert.NotContains(t, string(b), hidden, "the prompt names only the request's tools")
		}
	})
	t.Run("completions", func(t *testing.T) {
		complete := func(ref map[string]any, arg string, headers map[string]string) []any {
			m := call("completion/complete", map[string]any{"ref": ref, "argument": map[string]any{"name": arg, "value": ""},
				"context": map[string]any{"arguments": map[string]any{"owner": "alice", "repo": "rocket"}}}, headers)
			require.Contains(t, m, "result", m)
			return m["result"].(map[string]any)["completion"].(map[string]any)["values"].([]any)
		}
		repoTpl := map[string]any{"type": "ref/resource", "uri": "forgejo://{owner}/{repo}"}
		assert.Empty(t, complete(repoTpl, "owner", narrow))
		assert.Zero(t, forgeRequests("/api/v1/user/repos"), "no forge call for a template the request cannot read")
		assert.Empty(t, complete(map[string]any{"type": "ref/prompt", "name": "review_pull_request"}, "index", narrow))
		assert.Equal(t, []any{"1"}, complete(map[string]any{"type": "ref/resource", "uri": "forgejo://{owner}/{repo}/issues/{index}"}, "index", narrow))
		assert.Equal(t, []any{"alice"}, complete(repoTpl, "owner", nil), "without a header the forge is asked")
	})
	t.Run("tools", func(t *testing.T) {
		assert.Equal(t, []string{"get_issue_by_index"}, fx.toolNames(t, auth, narrow))
		assert.True(t, strings.HasPrefix(fx.callText(t, auth, "get_repo", narrow), "error: "), "still refused")
	})
}
