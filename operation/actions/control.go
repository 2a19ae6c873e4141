package actions

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// controlTools are the run controls. Each route exists on one flavour
// only, cancel on Forgejo after 13.0.5 only (forgejo.Routes): the client's
// route gate refuses them elsewhere, naming the version, before sending.
func controlTools() []tool.Def {
	params := []tool.Param{tool.Owner(), tool.Repo(), tool.ID("run_id", "Workflow run ID (id from list_workflow_runs)")}
	return []tool.Def{
		{
			Name: "cancel_workflow_run", Title: "Cancel a workflow run", Toolset: Toolset,
			Description: "Cancel a workflow run's pending and running jobs (Forgejo only)",
			Params:      params, Annotations: tool.Destroy(true), Handler: cancelRun, Output: Cancelled{},
		},
		{
			Name: "rerun_workflow_run", Title: "Re-run a workflow run", Toolset: Toolset,
			Description: "Run all jobs of a finished workflow run again (Gitea only)",
			Params:      params, Annotations: tool.Write(false), Handler: rerunRun, Output: Run{},
		},
	}
}

// Cancelled is cancel_workflow_run's result.
type Cancelled struct {
	Cancelled int64  `json:"cancelled"`
	Note      string `json:"note"`
}

func cancelRun(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := route(a, "runs", tool.Seg(a, "run_id"), "cancel")
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "cancel", runRef(a))
	}
	return tool.JSON(Cancelled{Cancelled: a.Int("run_id"),
		Note: "pending and running jobs are cancelled; a finished run is left as it was"})
}

func rerunRun(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := route(a, "runs", tool.Seg(a, "run_id"), "rerun")
	if err != nil {
		return nil, err
	}
	var r rawRun
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, nil, &r); err != nil {
		return nil, forgejo.Relabel(err, "re-run", runRef(a))
	}
	return tool.JSON(compactRun(&r))
}
