package actions_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/actions"
)

// TestLiveListActionTasks: the job a runner took is in the repository's
// task list with its status, run and commit.
func TestLiveListActionTasks(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	call := f.RepoCaller(t, actions.Tools(), owner, name)
	if f.Lacks(t, "GET", "/repos/"+owner+"/"+name+"/actions/runs") {
		// Forgejo 10: no runner can be registered here; the empty list answers.
		assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, call("list_action_tasks", map[string]any{}))
		return
	}
	runner := f.NewRunner(t, owner, name)
	f.AddWorkflow(t, owner, name, "ci.yml", fmt.Sprintf("name: CI\non: [push]\njobs:\n  test:\n    runs-on: %s\n    steps:\n      - run: 'true'\n", runner.Label))
	started := time.Now().Add(-time.Minute)
	task := runner.Take(t)
	runner.End(t, task, "RESULT_SUCCESS", started, "ok")

	var page struct {
		Items   []actions.Task `json:"items"`
		HasMore bool           `json:"has_more"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("list_action_tasks", map[string]any{})), &page))
	require.Len(t, page.Items, 1)
	got := page.Items[0]
	assert.Equal(t, "test", got.Job)
	assert.Equal(t, "success", got.Status)
	assert.Equal(t, "ci.yml", got.Workflow)
	assert.NotEmpty(t, got.SHA)
	assert.False(t, page.HasMore)
}
