package actionsconfig

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Runners of a repository, an organisation or the user: the token that
// registers one (shown once in the result: never logged, never in an
// error), and, where the forge has the routes (Forgejo 15, Gitea; see
// forgejo.Routes), listing, reading, registering and deleting them, and
// the waiting jobs a runner of some labels would take (Forgejo 13).

// Runner is a runner as either flavour describes it.
type Runner struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Status      string   `json:"status,omitempty"`
	Labels      []string `json:"labels,omitempty"`
	Busy        bool     `json:"busy,omitempty"`
	Disabled    bool     `json:"disabled,omitempty"`
	Ephemeral   bool     `json:"ephemeral,omitempty"`
	Version     string   `json:"version,omitempty"`
	Description string   `json:"description,omitempty" trust:"text"`
}

// RunnerJob is a job waiting for (or run by) a runner.
type RunnerJob struct {
	ID      int64    `json:"id"`
	Name    string   `json:"name" trust:"text"`
	Status  string   `json:"status"`
	RunsOn  []string `json:"runs_on,omitempty"`
	Needs   []string `json:"needs,omitempty"`
	TaskID  int64    `json:"task_id,omitempty"`
	Attempt int64    `json:"attempt,omitempty"`
	RepoID  int64    `json:"repo_id,omitempty"`
}

// rawRunner decodes both flavours: Forgejo's labels are names, Gitea's
// objects with a name.
type rawRunner struct {
	ID          int64           `json:"id"`
	Name        string          `json:"name"`
	Status      string          `json:"status"`
	Labels      json.RawMessage `json:"labels"`
	Busy        bool            `json:"busy"`
	Disabled    bool            `json:"disabled"`
	Ephemeral   bool            `json:"ephemeral"`
	Version     string          `json:"version"`
	Description string          `json:"description"`
}

func (r *rawRunner) compact() Runner {
	out := Runner{ID: r.ID, Name: r.Name, Status: r.Status, Busy: r.Busy, Disabled: r.Disabled, Ephemeral: r.Ephemeral,
		Version: r.Version, Description: r.Description}
	var names []string
	if json.Unmarshal(r.Labels, &names) == nil {
		out.Labels = names
		return out
	}
	var objs []struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(r.Labels, &objs) == nil {
		for _, o := range objs {
			out.Labels = append(out.Labels, o.Name)
		}
	}
	return out
}

func (l level) runnerTools() []tool.Def {
	id := tool.ID("runner_id", "Runner ID (id from list_"+l.noun+"_runners)")
	return []tool.Def{
		{
			Name: "get_" + l.noun + "_runner_registration_token", Toolset: l.set(),
			Title: "Get a " + l.title + " runner registration token", Output: tool.Shape{"token": "", "note": ""},
			Description: "Get the token that registers a runner for " + l.ref0() + "; shown once, keep it secret",
			Params:      l.with(), Annotations: tool.Write(false), Handler: l.registrationToken,
		},
		{
			Name: "list_" + l.noun + "_runners", Toolset: l.set(),
			Title: "List " + l.title + " runners", Output: tool.ListPage[Runner]{},
			Description: "List the Actions runners of " + l.ref0() + " with their status and labels",
			Params:      l.with(tool.Page(), tool.Limit()), Annotations: tool.Read(), Handler: l.listRunners,
		},
		{
			Name: "get_" + l.noun + "_runner", Toolset: l.set(),
			Title: "Get a " + l.title + " runner", Output: Runner{},
			Description: "Get one Actions runner of " + l.ref0(),
			Params:      l.with(id), Annotations: tool.Read(), Handler: l.getRunner,
		},
		{
			Name: "delete_" + l.noun + "_runner", Toolset: l.set(),
			Title: "Delete a " + l.title + " runner", Output: tool.DeletedOutput("runner_id", 0),
			Description: "Delete an Actions runner of " + l.ref0() + "; it can take no more jobs",
			Params:      l.with(id), Annotations: tool.Destroy(true), Handler: l.deleteRunner,
		},
		{
			Name: "edit_" + l.noun + "_runner", Toolset: l.set(),
			Title: "Disable or enable a " + l.title + " runner", Output: Runner{},
			Description: "Disable an Actions runner of " + l.ref0() + " (it takes no new jobs) or enable it again (Gitea)",
			Params:      l.with(id, tool.Bool("disabled", "true disables the runner, false enables it", tool.Required())),
			Annotations: tool.Destroy(true), Handler: l.editRunner,
		},
		{
			Name: "register_" + l.noun + "_runner", Toolset: l.set(),
			Title: "Register a " + l.title + " runner", Output: tool.Shape{"id": 0, "uuid": "", "token": "", "note": ""},
			Description: "Register a runner for " + l.ref0() + " (Forgejo 15+): its uuid and token, shown once, go in its config",
			Params: l.with(tool.Str("name", "Runner name", tool.Required(), tool.MaxLen(255)),
				tool.Str("description", "Runner description", tool.MaxLen(1000)),
				tool.Bool("ephemeral", "Take one job, then unregister")),
			Annotations: tool.Write(false), Handler: l.registerRunner,
		},
		{
			Name: "search_" + l.noun + "_runner_jobs", Toolset: l.set(),
			Title: "Search " + l.title + " runner jobs", Output: tool.Shape{"items": []RunnerJob{}},
			Description: "List the jobs waiting for a runner of " + l.ref0() + " with these labels: why a job stays queued (Forgejo 13+)",
			Params:      l.with(tool.Str("labels", "Comma-separated runner labels, e.g. docker,ubuntu-latest", tool.MaxLen(1000))),
			Annotations: tool.Read(), Handler: l.searchJobs,
		},
	}
}

// ref0 is the level's owner in a description.
func (l level) ref0() string {
	switch l.noun {
	case "repo":
		return "a repository"
	case "org":
		return "an organisation"
	case "site":
		return "the whole site"
	}
	return "the token's user"
}

// runnersRoute is the level's …/actions/runners/{more} route.
func (l level) runnersRoute(a tool.Args, more ...string) (string, error) {
	return forgejo.Path(slices.Concat(l.prefix(a), []string{"actions", "runners"}, more)...)
}

// registrationToken asks Forgejo with GET and Gitea with POST (each
// lacks the other's route, forgejo.Routes). The token is in the result
// only: an error never carries the forge's answer body on success.
func (l level) registrationToken(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := l.runnersRoute(a, "registration-token")
	if err != nil {
		return nil, err
	}
	method := http.MethodGet
	if f, err := c.Forge(ctx); err == nil && f.Flavour == forgejo.Gitea {
		method = http.MethodPost
	} else if l.oldRunners != nil {
		if p, err = forgejo.Path(append(slices.Clone(l.oldRunners), "registration-token")...); err != nil {
			return nil, err
		}
	}
	var out struct {
		Token string `json:"token"`
	}
	if err := c.DoJSON(ctx, method, p, nil, nil, &out); err != nil {
		return nil, forgejo.Relabel(err, "get the runner registration token of", l.ref(a))
	}
	if out.Token == "" {
		return tool.Error("get the runner registration token of " + l.ref(a) + ": the forge answered without a token"), nil
	}
	return tool.JSON(map[string]string{"token": out.Token,
		"note": "shown once: give it to the runner's register command and do not repeat it in replies or logs"})
}

func (l level) listRunners(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := l.runnersRoute(a)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := c.DoJSON(ctx, http.MethodGet, p, tool.PageQuery(a), nil, &raw); err != nil {
		return nil, forgejo.Relabel(err, "list the runners of", l.ref(a))
	}
	// Forgejo answers a list, Gitea an object holding one.
	var list []*rawRunner
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
		var g struct {
			Runners []*rawRunner `json:"runners"`
		}
		if err := json.Unmarshal(t, &g); err != nil {
			return nil, fmt.Errorf("list the runners of %s: %w", l.ref(a), err)
		}
		list = g.Runners
	} else if err := json.Unmarshal(t, &list); err != nil {
		return nil, fmt.Errorf("list the runners of %s: %w", l.ref(a), err)
	}
	return tool.Items(tool.Map(list, (*rawRunner).compact), a.Int("page"), int64(len(list)) >= a.Int("limit"))
}

func (l level) runnerRef(a tool.Args) string {
	return fmt.Sprintf("runner %d of %s", a.Int("runner_id"), l.ref(a))
}

func (l level) getRunner(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := l.runnersRoute(a, tool.Seg(a, "runner_id"))
	if err != nil {
		return nil, err
	}
	var r rawRunner
	if err := c.DoJSON(ctx, http.MethodGet, p, nil, nil, &r); err != nil {
		return nil, forgejo.Relabel(err, "get", l.runnerRef(a))
	}
	return tool.JSON(r.compact())
}

func (l level) deleteRunner(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := l.runnersRoute(a, tool.Seg(a, "runner_id"))
	if err != nil {
		return nil, err
	}
	if err := c.DoJSON(ctx, http.MethodDelete, p, nil, nil, nil); err != nil {
		return nil, forgejo.Relabel(err, "delete", l.runnerRef(a))
	}
	return tool.Deleted("runner_id", a.Int("runner_id"))
}

// editRunner sends the one field the forge's EditActionRunnerOption has.
func (l level) editRunner(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := l.runnersRoute(a, tool.Seg(a, "runner_id"))
	if err != nil {
		return nil, err
	}
	verb := "enable"
	if a.Bool("disabled") {
		verb = "disable"
	}
	var r rawRunner
	if err := c.DoJSON(ctx, http.MethodPatch, p, nil, map[string]bool{"disabled": a.Bool("disabled")}, &r); err != nil {
		return nil, forgejo.Relabel(err, verb, l.runnerRef(a))
	}
	return tool.JSON(r.compact())
}

func (l level) registerRunner(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := l.runnersRoute(a)
	if err != nil {
		return nil, err
	}
	body := map[string]any{"name": a.String("name"), "description": a.String("description"), "ephemeral": a.Bool("ephemeral")}
	var out struct {
		ID    int64  `json:"id"`
		UUID  string `json:"uuid"`
		Token string `json:"token"`
	}
	if err := c.DoJSON(ctx, http.MethodPost, p, nil, body, &out); err != nil {
		return nil, forgejo.Relabel(err, "register a runner for", l.ref(a))
	}
	return tool.JSON(map[string]any{"id": out.ID, "uuid": out.UUID, "token": out.Token,
		"note": "shown once: the runner's config takes the uuid and token; do not repeat the token in replies or logs"})
}

func (l level) searchJobs(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := l.runnersRoute(a, "jobs")
	if l.oldRunners != nil {
		p, err = forgejo.Path(append(slices.Clone(l.oldRunners), "jobs")...)
	}
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	if labels := strings.TrimSpace(a.String("labels")); labels != "" {
		q.Set("labels", labels)
	}
	var jobs []RunnerJob
	if err := c.DoJSON(ctx, http.MethodGet, p, q, nil, &jobs); err != nil {
		return nil, forgejo.Relabel(err, "search the runner jobs of", l.ref(a))
	}
	if jobs == nil {
		jobs = []RunnerJob{}
	}
	return tool.JSON(map[string]any{"items": jobs})
}
