package issue

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "codeberg.org/mvdkleijn/forgejo-sdk/forgejo/v3"
	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The tools on one milestone name it by milestone_id only. The forge's
// route also takes a title, but tries it as an ID first (a milestone
// titled "1" is unreachable when milestone 1 exists) and a title with '/'
// cannot be one route segment everywhere; list_repo_milestones finds the ID
// from a title.
func milestoneID() tool.Param {
	return tool.ID("milestone_id", "Milestone ID")
}

// milestoneEditTools returns the tools that read or change one milestone;
// Tools includes them.
func milestoneEditTools() []tool.Def {
	return []tool.Def{
		{
			Name: "get_milestone", Title: "Get a milestone", Toolset: MilestoneToolset,
			Description: "Get one milestone with its issue counts and due date",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), milestoneID()},
			Annotations: tool.Read(), Handler: getMilestone, Output: Milestone{},
		},
		{
			Name: "create_milestone", Title: "Create a milestone", Toolset: MilestoneToolset,
			Description: "Create a milestone in a repository",
			Params: []tool.Param{tool.Owner(), tool.Repo(),
				tool.Str("title", "Milestone title", tool.Required(), tool.MaxLen(255)),
				tool.Str("description", "Description (Markdown)", tool.MaxLen(65536)),
				tool.When("due_date", "Due date"),
				tool.Str("state", "Initial state", tool.Default("open"), tool.OneOf("open", "closed"))},
			Annotations: tool.Write(false), Handler: createMilestone, Output: Milestone{},
		},
		{
			Name: "edit_milestone", Title: "Edit a milestone", Toolset: MilestoneToolset,
			Description: "Edit a milestone; only the fields given change. Close or reopen it with state",
			Params: []tool.Param{tool.Owner(), tool.Repo(), milestoneID(),
				tool.Str("title", "New title", tool.MaxLen(255)),
				tool.Str("description", "New description (Markdown)", tool.MaxLen(65536)),
				tool.WhenOrEmpty("due_date", "Due date"),
				tool.Str("state", "New state", tool.OneOf("open", "closed"))},
			Annotations: tool.Destroy(true), Handler: editMilestone, Output: Milestone{},
		},
		{
			Name: "delete_milestone", Title: "Delete a milestone", Toolset: MilestoneToolset,
			Description: "Delete a milestone; its issues stay, without a milestone",
			Params:      []tool.Param{tool.Owner(), tool.Repo(), milestoneID()},
			Annotations: tool.Destroy(true), Handler: deleteMilestone, Output: tool.DeletedOutput("milestone_id", int64(0)),
		},
	}
}

// milestoneRef names the milestone milestone_id identifies: "milestone 3 in o/r".
func milestoneRef(a tool.Args) string {
	return fmt.Sprintf("milestone %d in %s", a.Int("milestone_id"), tool.FullName(a))
}

func getMilestone(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	m, resp, err := c.SDK(ctx).GetMilestone(a.String("owner"), a.String("repo"), a.Int("milestone_id"))
	if err := forgejo.Fail(resp, err, "get", milestoneRef(a)); err != nil {
		return nil, err
	}
	return tool.JSON(compactMilestone(m))
}

func createMilestone(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	// Raw, not the SDK's CreateMilestone: when the forge answers a closed
	// milestone as open, that call PATCHes it with due_on null, which
	// clears the due date on Gitea.
	due, err := a.Time("due_date")
	if err != nil {
		return nil, err
	}
	body := map[string]any{"title": a.String("title"), "description": a.String("description"), "state": a.String("state")}
	if !due.IsZero() {
		body["due_on"] = due
	}
	var m sdk.Milestone
	req := repoRequest{Method: "POST", Route: []string{"milestones"}, Body: body, Verb: "create a milestone in", Subject: tool.RepoRef(a)}
	if err := req.send(ctx, c, a, &m); err != nil {
		return nil, err
	}
	return tool.JSON(compactMilestone(&m))
}

func editMilestone(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	// A map, not sdk.EditMilestoneOption: only the fields the agent gave
	// are sent, except due_on. Gitea 1.26 clears the due date of a PATCH
	// without one (measured), so the current date is read and sent back.
	body := map[string]any{}
	if a.Has("title") {
		if strings.TrimSpace(a.String("title")) == "" {
			return nil, errors.New("invalid arguments: title must not be empty; leave it out to keep the current title")
		}
		body["title"] = a.String("title")
	}
	for _, name := range []string{"description", "state"} {
		if a.Has(name) {
			body[name] = a.String(name)
		}
	}
	due, err := a.Time("due_date")
	if err != nil {
		return nil, err
	}
	switch {
	case !a.Has("due_date"):
		cur, resp, err := c.SDK(ctx).GetMilestone(a.String("owner"), a.String("repo"), a.Int("milestone_id"))
		if err := forgejo.Fail(resp, err, "get", milestoneRef(a)); err != nil {
			return nil, err
		}
		body["due_on"] = cur.Deadline
	case due.IsZero():
		body["due_on"] = nil
	default:
		body["due_on"] = due
	}
	var m sdk.Milestone
	req := repoRequest{Method: "PATCH", Route: []string{"milestones", tool.Seg(a, "milestone_id")}, Body: body, Verb: "edit", Subject: milestoneRef(a)}
	if err := req.send(ctx, c, a, &m); err != nil {
		return nil, err
	}
	if a.Has("due_date") && due.IsZero() && m.Deadline != nil {
		return nil, fmt.Errorf("edit %s: the other changes were saved, but this forge kept the due date %s: it does not remove a milestone's due date through its API",
			milestoneRef(a), m.Deadline.Format(time.DateOnly))
	}
	return tool.JSON(compactMilestone(&m))
}

func deleteMilestone(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	resp, err := c.SDK(ctx).DeleteMilestone(a.String("owner"), a.String("repo"), a.Int("milestone_id"))
	if err := forgejo.Fail(resp, err, "delete", milestoneRef(a)); err != nil {
		return nil, err
	}
	return tool.Deleted("milestone_id", a.Int("milestone_id"))
}
