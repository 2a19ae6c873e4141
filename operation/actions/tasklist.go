package actions

import (
	"context"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Task is one job attempt a runner took, from the repository's task list
// (GET …/actions/tasks, which every described forge has): the one view of
// what ran where Forgejo before 17 has no route for a run's jobs.
type Task struct {
	ID        int64      `json:"id"`
	Job       string     `json:"job" trust:"text"`
	Title     string     `json:"title,omitempty" trust:"text"`
	Workflow  string     `json:"workflow,omitempty"`
	Status    string     `json:"status"`
	RunNumber int64      `json:"run_number,omitempty"`
	Event     string     `json:"event,omitempty"`
	Branch    string     `json:"branch,omitempty"`
	SHA       string     `json:"sha,omitempty"`
	Started   *time.Time `json:"started,omitempty"`
	Updated   *time.Time `json:"updated,omitempty"`
	HTMLURL   string     `json:"html_url,omitempty"`
}

type rawTaskRow struct {
	rawTask
	DisplayTitle string `json:"display_title"`
	WorkflowID   string `json:"workflow_id"`
	Event        string `json:"event"`
	HeadBranch   string `json:"head_branch"`
}

func taskListTool(base []tool.Param) tool.Def {
	return tool.Def{
		Name: "list_action_tasks", Toolset: Toolset,
		Title: "List Actions tasks", Output: tool.ListPage[Task]{},
		Description: "List the job attempts runners took in a repository, newest first",
		Params:      append(base[:2:2], tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: listTasks,
	}
}

func listTasks(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := route(a, "tasks")
	if err != nil {
		return nil, err
	}
	var list struct {
		Tasks []*rawTaskRow `json:"workflow_runs"`
		Total int64         `json:"total_count"`
	}
	if err := c.DoJSON(ctx, http.MethodGet, p, tool.PageQuery(a), nil, &list); err != nil {
		return nil, disabled(err, "list Actions tasks of", tool.FullName(a))
	}
	items := tool.Map(list.Tasks, func(t *rawTaskRow) Task {
		return Task{ID: t.ID, Job: t.Name, Title: t.DisplayTitle, Workflow: t.WorkflowID, Status: t.Status, RunNumber: t.RunNumber,
			Event: t.Event, Branch: t.HeadBranch, SHA: t.HeadSHA, Started: when(t.RunStartedAt), Updated: when(t.UpdatedAt), HTMLURL: t.URL}
	})
	page, limit := a.Int("page"), a.Int("limit")
	more := page*limit < list.Total || list.Total == 0 && int64(len(items)) >= limit
	return tool.Items(items, page, more)
}
