package issue_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// TestLiveIssueUpkeep replaces an issue's labels, clears them, deletes the
// issue, and sees a writer who is not an admin refused with the reason.
func TestLiveIssueUpkeep(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := issue.Tools()
	call := f.RepoCaller(t, defs, owner, name)
	call("create_repo_label", map[string]any{"name": "bug", "color": "#ff0000"})
	call("create_repo_label", map[string]any{"name": "ui", "color": "#00ff00"})
	index := float64(f.NewIssue(t, owner, name, "Upkeep", "body"))
	call("add_issue_labels", map[string]any{"index": index, "labels": []any{"bug"}})

	text := call("replace_issue_labels", map[string]any{"index": index, "labels": []any{"ui"}})
	assert.Contains(t, text, `"name":"ui"`)
	assert.NotContains(t, text, `"name":"bug"`)
	assert.JSONEq(t, `{"labels":[]}`, call("replace_issue_labels", map[string]any{"index": index, "labels": []any{}}))
	assert.Contains(t, call("get_issue_by_index", map[string]any{"index": index}), `"labels":[]`)

	f.AddCollaborator(t, owner, name, f.User2, "write")
	res := f.WithToken(f.Token2).Call(t, defs, "delete_issue", map[string]any{"owner": owner, "repo": name, "index": index})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "deleting an issue needs admin rights")

	assert.JSONEq(t, fmt.Sprintf(`{"deleted":true,"index":%d}`, int(index)), call("delete_issue", map[string]any{"index": index}))
	res = f.Call(t, defs, "get_issue_by_index", map[string]any{"owner": owner, "repo": name, "index": index})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "not found")
}
