package actions

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/workflow"
)

// Workflows: Gitea has routes to list them and switch them on and off;
// Forgejo has none (forgejo.Routes), so there the workflow folder is
// listed. Either way a workflow's name and workflow_dispatch inputs come
// from its file (pkg/workflow), which both flavours serve.

// maxContent bounds the file text get_workflow returns.
const maxContent = 32 << 10

// WorkflowEntry is one workflow of a repository.
type WorkflowEntry struct {
	// ID is the file name, what the other workflow tools take.
	ID   string `json:"id"`
	Name string `json:"name,omitempty" trust:"text"`
	Path string `json:"path"`
	// State is Gitea's: active, or disabled_manually (disable_workflow).
	State   string `json:"state,omitempty"`
	HTMLURL string `json:"html_url,omitempty"`
}

// WorkflowList is a repository's workflows.
type WorkflowList struct {
	Workflows []WorkflowEntry `json:"workflows"`
	Note      string          `json:"note,omitempty"`
}

// WorkflowDetail is one workflow file read.
type WorkflowDetail struct {
	ID           string           `json:"id"`
	Path         string           `json:"path"`
	Name         string           `json:"name,omitempty" trust:"text"`
	Dispatchable bool             `json:"dispatchable"`
	Inputs       []workflow.Input `json:"inputs,omitempty"`
	Content      string           `json:"content" trust:"text"`
	Truncated    bool             `json:"truncated,omitempty"`
	Problem      string           `json:"problem,omitempty"`
}

func workflowTools(base []tool.Param) []tool.Def {
	file := tool.Str("workflow", "Workflow file name, e.g. ci.yml", tool.Required(), tool.MaxLen(255))
	ref := tool.Str("ref", "Branch, tag or commit (default branch if omitted)", tool.MaxLen(255))
	onOff := func(verb, what string, ann tool.Annotations) tool.Def {
		return tool.Def{
			Name: verb + "_workflow", Toolset: Toolset,
			Title: strings.ToUpper(verb[:1]) + verb[1:] + " a workflow", Output: tool.Shape{"workflow": "", "state": ""},
			Description: what + " (Gitea only)",
			Params:      append(base[:2:2], file), Annotations: ann, Handler: switchWorkflow(verb),
		}
	}
	return []tool.Def{
		{
			Name: "list_workflows", Toolset: Toolset,
			Title: "List workflows", Output: WorkflowList{},
			Description: "List a repository's Actions workflow files",
			Params:      append(base[:2:2], ref), Annotations: tool.Read(), Handler: listWorkflows,
		},
		{
			Name: "get_workflow", Toolset: Toolset,
			Title: "Get a workflow", Output: WorkflowDetail{},
			Description: "Read a workflow file: its name, whether it can be dispatched, its workflow_dispatch inputs, its text",
			Params:      append(base[:2:2], file, ref), Annotations: tool.Read(), Handler: getWorkflow,
		},
		onOff("enable", "Enable a disabled workflow", tool.Write(true)),
		onOff("disable", "Disable a workflow: no event starts it until enabled", tool.Destroy(true)),
	}
}

// fileName refuses a workflow argument that is not a plain file name.
func fileName(wf string) *mcp.CallToolResult {
	if path.Base(wf) != wf || wf == "." || wf == ".." {
		return tool.Error("workflow must be a file name such as ci.yml, without a folder")
	}
	return nil
}

type rawWorkflow struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Path    string `json:"path"`
	State   string `json:"state"`
	HTMLURL string `json:"html_url"`
}

type rawContent struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Type    string `json:"type"`
	HTMLURL string `json:"html_url"`
}

func listWorkflows(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	if c.Require(ctx, http.MethodGet, "/repos/{owner}/{repo}/actions/workflows") == nil && a.String("ref") == "" {
		p, err := route(a, "workflows")
		if err != nil {
			return nil, err
		}
		var list struct {
			Workflows []rawWorkflow `json:"workflows"`
		}
		if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &list); err != nil {
			return nil, disabled(err, "list workflows of", tool.FullName(a))
		}
		out := WorkflowList{Workflows: []WorkflowEntry{}}
		for _, w := range list.Workflows {
			out.Workflows = append(out.Workflows, WorkflowEntry{ID: or(w.ID, path.Base(w.Path)), Name: w.Name, Path: w.Path, State: w.State, HTMLURL: w.HTMLURL})
		}
		return tool.JSON(out)
	}
	// Forgejo: the first of its workflow folders that exists.
	q := url.Values{}
	if ref := a.String("ref"); ref != "" {
		q.Set("ref", ref)
	}
	dirs := workflowDirs(ctx, c)
	for _, dir := range dirs {
		p, err := forgejo.FilePath([]string{"repos", a.String("owner"), a.String("repo"), "contents"}, dir)
		if err != nil {
			return nil, err
		}
		var entries []rawContent
		err = c.DoJSON(ctx, http.MethodGet, p, q, nil, &entries)
		if forgejo.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, forgejo.Relabel(err, "list workflows of", tool.FullName(a))
		}
		out := WorkflowList{Workflows: []WorkflowEntry{}}
		for _, e := range entries {
			if e.Type == "file" && (strings.HasSuffix(e.Name, ".yml") || strings.HasSuffix(e.Name, ".yaml")) {
				out.Workflows = append(out.Workflows, WorkflowEntry{ID: e.Name, Path: e.Path, HTMLURL: e.HTMLURL})
			}
		}
		out.Note = "get_workflow reads one's name and dispatch inputs"
		return tool.JSON(out)
	}
	return tool.JSON(WorkflowList{Workflows: []WorkflowEntry{},
		Note: fmt.Sprintf("no workflow folder (%s) in %s; the repository or the ref may not exist", strings.Join(dirs, ", "), tool.FullName(a))})
}

func getWorkflow(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	wf := a.String("workflow")
	if res := fileName(wf); res != nil {
		return res, nil
	}
	f, err := readWorkflow(ctx, c, a, wf, a.String("ref"))
	if err != nil {
		if isNoWorkflowFile(err) {
			return tool.Error(err.Error()), nil
		}
		return nil, forgejo.Relabel(err, "read workflow "+wf+" of", tool.FullName(a))
	}
	out := WorkflowDetail{ID: wf, Path: f.path, Content: string(f.data)}
	if len(out.Content) > maxContent {
		cut := maxContent
		for cut > 0 && !utf8.RuneStart(out.Content[cut]) {
			cut--
		}
		out.Content, out.Truncated = out.Content[:cut], true
	}
	w, err := workflow.Parse(f.data)
	if err != nil {
		out.Problem = err.Error()
	} else {
		out.Name, out.Dispatchable, out.Inputs = w.Name, w.Dispatchable, w.Inputs
	}
	return tool.JSON(out)
}

func switchWorkflow(verb string) tool.Handler {
	state := map[string]string{"enable": "active", "disable": "disabled_manually"}[verb]
	return func(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
		wf := a.String("workflow")
		if res := fileName(wf); res != nil {
			return res, nil
		}
		p, err := route(a, "workflows", wf, verb)
		if err != nil {
			return nil, err
		}
		if err := c.DoJSON(ctx, http.MethodPut, p, nil, nil, nil); err != nil {
			return nil, forgejo.Relabel(err, verb, "workflow "+wf+" of "+tool.FullName(a))
		}
		return tool.JSON(map[string]string{"workflow": wf, "state": state})
	}
}
