package actions

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

type rawStep struct {
	Name       string `json:"name"`
	Number     int64  `json:"number"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion"`
}

// rawJob decodes a job as either flavour sends it: Gitea's
// ActionWorkflowJob (labels, steps, times) or Forgejo's ActionRunJob
// (runs_on, needs; no steps or times).
type rawJob struct {
	ID     int64  `json:"id"`
	RunID  int64  `json:"run_id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	// Gitea's spellings.
	HTMLURL     string    `json:"html_url"`
	Labels      []string  `json:"labels"`
	Conclusion  string    `json:"conclusion"`
	RunnerName  string    `json:"runner_name"`
	Steps       []rawStep `json:"steps"`
	StartedAt   time.Time `json:"started_at"`
	CompletedAt time.Time `json:"completed_at"`
	// Forgejo's spellings.
	RunsOn  []string `json:"runs_on"`
	Needs   []string `json:"needs"`
	Attempt int64    `json:"attempt"`
	TaskID  int64    `json:"task_id"`
}

// Step is one step of a job.
type Step struct {
	Number     int64  `json:"number"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion,omitempty"`
}

// Job is the compact shape of a workflow job, the same from either flavour.
// A job read from the task list of a forge without job routes has no ID
// (jobsFromTasks).
type Job struct {
	ID         int64  `json:"id,omitempty"`
	RunID      int64  `json:"run_id"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion,omitempty"`
	// ForgeStatus is the forge's own word when status translates it.
	ForgeStatus string     `json:"forge_status,omitempty"`
	Labels      []string   `json:"labels,omitempty"`
	Needs       []string   `json:"needs,omitempty"`
	Attempt     int64      `json:"attempt,omitempty"`
	Runner      string     `json:"runner,omitempty"`
	Started     *time.Time `json:"started,omitempty"`
	Completed   *time.Time `json:"completed,omitempty"`
	Steps       []Step     `json:"steps,omitempty"`
	HTMLURL     string     `json:"html_url,omitempty"`
}

func compactJob(j *rawJob) Job {
	out := Job{ID: j.ID, RunID: j.RunID, Name: j.Name, Status: j.Status, Conclusion: j.Conclusion,
		Labels: j.Labels, Needs: j.Needs, Attempt: j.Attempt, Runner: j.RunnerName,
		Started: when(j.StartedAt), Completed: when(j.CompletedAt), HTMLURL: j.HTMLURL}
	if len(out.Labels) == 0 {
		out.Labels = j.RunsOn
	}
	if j.Conclusion == "" && (j.RunsOn != nil || j.TaskID != 0) { // Forgejo's ActionRunJob
		out.Status, out.Conclusion, out.ForgeStatus = forgejoStatus(j.Status)
	}
	for _, s := range j.Steps {
		out.Steps = append(out.Steps, Step{Number: s.Number, Name: s.Name, Status: s.Status, Conclusion: s.Conclusion})
	}
	return out
}

// jobList decodes Gitea's {"jobs":[…],"total_count":N} and Forgejo's bare
// array of every job of the run.
type jobList struct {
	Jobs  []*rawJob `json:"jobs"`
	Total int64     `json:"total_count"`
	bare  bool
}

func (l *jobList) UnmarshalJSON(b []byte) error {
	var err error
	l.bare, err = unmarshalList(b, &l.Jobs, &l.Total, "jobs")
	return err
}

// unmarshalList reads a list either flavour sends: a bare array (bare is
// true) or an object with the items under key and a total_count.
func unmarshalList[T any](b []byte, items *[]*T, total *int64, key string) (bare bool, err error) {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		return true, json.Unmarshal(t, items)
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(b, &env); err != nil {
		return false, err
	}
	if v, ok := env[key]; ok {
		if err := json.Unmarshal(v, items); err != nil {
			return false, err
		}
	}
	if v, ok := env["total_count"]; ok {
		return false, json.Unmarshal(v, total)
	}
	return false, nil
}

// pageOf returns one page of items: Gitea pages a list itself (total says
// whether more follow); Forgejo answers some lists whole, as a bare array,
// and they are paged here.
func pageOf[T any](a tool.Args, items []*T, total int64, bare bool) ([]*T, bool) {
	page, limit := a.Int("page"), a.Int("limit")
	if !bare {
		return items, (page-1)*limit+int64(len(items)) < total
	}
	return forgejo.Cut(items, int(page), int(limit))
}

// JobPage is a page of a run's jobs. Note, on a forge without the route
// for a run's jobs, says that they come from its task list and why no log
// can be read.
type JobPage struct {
	Items   []Job  `json:"items"`
	Page    int64  `json:"page"`
	HasMore bool   `json:"has_more"`
	Note    string `json:"note,omitempty"`
}

func listJobs(ctx context.Context, c *forgejo.Client, a tool.Args) (*mcp.CallToolResult, error) {
	p, err := route(a, "runs", tool.Seg(a, "run_id"), "jobs")
	if err != nil {
		return nil, err
	}
	var list jobList
	if err := c.DoJSON(ctx, http.MethodGet, p, tool.PageQuery(a), nil, &list); err != nil {
		if forgejo.IsNoRoute(err) {
			out, err := jobsFromTasks(ctx, c, a, err)
			if err != nil {
				return nil, err
			}
			return tool.JSON(out)
		}
		return nil, forgejo.Relabel(err, "list jobs of", runRef(a))
	}
	jobs, more := pageOf(a, list.Jobs, list.Total, list.bare)
	return tool.JSON(JobPage{Items: tool.Map(jobs, compactJob), Page: a.Int("page"), HasMore: more})
}
