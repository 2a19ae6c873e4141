package repo_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLiveOwnedReposAndCandidates: an organisation's and a user's
// repositories, search_repos narrowed to an owner, and who can be assigned
// or asked to review.
func TestLiveOwnedReposAndCandidates(t *testing.T) {
	f := testforge.Get(t)
	org := f.NewOrg(t)
	f.NewOrgRepo(t, org, "tools")
	owner, name := f.NewRepo(t)
	call := f.Caller(t, operation.All())

	assert.JSONEq(t, fmt.Sprintf(`["%s/tools"]`, org), names(t, call("list_org_repos", map[string]any{"org": org})))
	assert.Contains(t, call("list_user_repos", map[string]any{"user": owner, "limit": 50}), `"full_name":"`+owner+"/"+name+`"`)
	assert.JSONEq(t, fmt.Sprintf(`["%s/tools"]`, org), names(t, call("search_repos", map[string]any{"owner": org})), "the organisation's only")
	assert.JSONEq(t, `[]`, names(t, call("search_repos", map[string]any{"owner": org, "query": "nothing-like-this"})))
	res := f.Call(t, operation.All(), "list_org_repos", map[string]any{"org": "no-such-org-here"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "organisation no-such-org-here not found (404)")

	var raw []byte
	require.Equal(t, http.StatusNoContent, f.Do(t, http.MethodPut, fmt.Sprintf("/repos/%s/%s/collaborators/%s", owner, name, f.User2),
		map[string]any{"permission": "write"}, &raw), "%s", raw)
	rc := f.RepoCaller(t, operation.All(), owner, name)
	for _, tool := range []string{"list_assignee_candidates", "list_reviewer_candidates"} {
		text := rc(tool, map[string]any{})
		assert.Contains(t, text, `"login":"`+f.User2+`"`, "%s: a collaborator with write access", tool)
	}
}

// names are the full names of a repository list's items, as a JSON list.
func names(t *testing.T, text string) string {
	t.Helper()
	var page struct {
		Items []repo.Repo `json:"items"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &page))
	out := []string{}
	for _, r := range page.Items {
		out = append(out, r.FullName)
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}
