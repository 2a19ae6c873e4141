package issue_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

func TestLiveMilestoneLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := issue.Tools()
	call := f.RepoCaller(t, defs, owner, repo)
	decode := func(s string) issue.Milestone {
		var m issue.Milestone
		require.NoError(t, json.Unmarshal([]byte(s), &m), s)
		return m
	}

	created := decode(call("create_milestone", map[string]any{"title": "v1", "description": "First", "due_date": "2030-01-02"}))
	assert.Equal(t, "v1", created.Title)
	assert.Equal(t, "open", created.State)
	require.NotNil(t, created.Due)
	assert.Equal(t, "2030-01-02", created.Due.Format("2006-01-02"))
	id := created.ID

	got := decode(call("get_milestone", map[string]any{"milestone_id": id}))
	assert.Equal(t, created, got)

	// Close it without naming the due date: the date stays (Gitea 1.26
	// clears it on a PATCH without one; the tool sends the current one).
	edited := decode(call("edit_milestone", map[string]any{"milestone_id": id, "state": "closed", "title": "v1.0"}))
	assert.Equal(t, "closed", edited.State)
	assert.Equal(t, "v1.0", edited.Title)
	assert.Equal(t, "First", edited.Description)
	require.NotNil(t, edited.Due, "the due date survives an edit that does not name it")
	assert.Equal(t, "2030-01-02", edited.Due.Format("2006-01-02"))
	assert.NotNil(t, edited.Closed)

	back := decode(call("get_milestone", map[string]any{"milestone_id": id}))
	assert.Equal(t, "closed", back.State)
	assert.Equal(t, "v1.0", back.Title)
	require.NotNil(t, back.Due)

	moved := decode(call("edit_milestone", map[string]any{"milestone_id": id, "due_date": "2031-05-06", "state": "open", "description": ""}))
	require.NotNil(t, moved.Due)
	assert.Equal(t, "2031-05-06", moved.Due.Format("2006-01-02"))
	assert.Equal(t, "open", moved.State)
	assert.Empty(t, moved.Description)

	if clearsDueDate(t, f, owner, repo) {
		cleared := decode(call("edit_milestone", map[string]any{"milestone_id": id, "due_date": ""}))
		assert.Nil(t, cleared.Due, "an empty due_date removes it")
		assert.Equal(t, "v1.0", cleared.Title)
	} else {
		// Forgejo 10 keeps the date whatever the PATCH says: the tool must not claim it went.
		res := f.Call(t, defs, "edit_milestone", map[string]any{"owner": owner, "repo": repo, "milestone_id": id, "due_date": ""})
		require.True(t, res.IsError, "%s keeps a milestone's due date", f.Identify(t))
		assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("edit milestone %d in %s/%s: the other changes were saved, but this forge kept the due date 2031-05-06", id, owner, repo))
	}

	closed := decode(call("create_milestone", map[string]any{"title": "v0", "state": "closed"}))
	assert.Equal(t, "closed", closed.State)

	// Another user cannot see the private repository: the error names the
	// repository, not its milestone (issue 28, B.5).
	res := f.WithToken(f.Token2).Call(t, defs, "get_milestone", map[string]any{"owner": owner, "repo": repo, "milestone_id": id})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("repository %s/%s not found (404)", owner, repo))

	assert.JSONEq(t, fmt.Sprintf(`{"deleted":true,"milestone_id":%d}`, id), call("delete_milestone", map[string]any{"milestone_id": id}))
	for _, name := range []string{"get_milestone", "edit_milestone", "delete_milestone"} {
		args := map[string]any{"owner": owner, "repo": repo, "milestone_id": id}
		if name == "edit_milestone" {
			args["due_date"] = "2030-01-01"
		}
		res := f.Call(t, defs, name, args)
		require.True(t, res.IsError, name)
		assert.Equal(t, fmt.Sprintf("milestone %d in %s/%s not found (404): it does not exist or this token cannot see it", id, owner, repo),
			fakeforge.Text(t, res), name)
	}
}

// clearsDueDate asks the forge itself, past the tool, whether a PATCH with
// due_on null removes a milestone's due date (Gitea 1.26 does, Forgejo 10
// does not), so the test expects what this forge does.
func clearsDueDate(t *testing.T, f *testforge.Forge, owner, repo string) bool {
	t.Helper()
	var m struct {
		ID  int64   `json:"id"`
		Due *string `json:"due_on"`
	}
	base := "/repos/" + owner + "/" + repo + "/milestones"
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, base, map[string]any{"title": "probe", "due_on": "2030-01-02T00:00:00Z"}, &m))
	require.NotNil(t, m.Due)
	path := fmt.Sprintf("%s/%d", base, m.ID)
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodPatch, path, map[string]any{"title": "probe", "due_on": nil}, nil))
	m.Due = nil
	require.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, path, nil, &m))
	require.Equal(t, http.StatusNoContent, f.Do(t, http.MethodDelete, path, nil, nil))
	return m.Due == nil
}
