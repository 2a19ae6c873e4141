package forgejo

import (
	"net/http"
	"strings"
)

// The one compatibility table: every place where Forgejo's API and Gitea's
// differ under a tool of this server, and what the tool does about it.
// The drift tests (operation/drift) fail on a difference that is not
// declared here, and `make docs` renders it into README's compatibility
// section.

// RouteDiff is a route a tool calls that exists on one flavour only.
type RouteDiff struct {
	Method string
	// Route is the swagger path template below /api/v1, as the flavour
	// that has it spells it.
	Route string
	Only  Flavour
	// Feature names what the route does, in messages and README.
	Feature string
	// Tools are the tools that call it.
	Tools []string
	// Otherwise is what the tools do on the other flavour.
	Otherwise string
}

// FieldDiff is a response field a tool's decoding types read that one
// flavour's definition has and the other's lacks (or spells differently).
type FieldDiff struct {
	// Feature names what the field belongs to, in README.
	Feature string
	// Definition is the response definition, Forgejo's name first when
	// they differ ("ActionRun/ActionWorkflowRun").
	Definition string
	// Forgejo and Gitea are the field as each spells it; "" where absent.
	Forgejo, Gitea string
	// Handling says what the tools do: which spelling they decode, or that
	// they leave the field out.
	Handling string
	// Result is the result field that shows a one-sided field (OneSided),
	// absent from results under the other flavour.
	Result string
}

// Handlings of a field difference, so the table reads the same everywhere.
const (
	// BothSpellings: the tool decodes either spelling into one result field.
	BothSpellings = "both spellings decoded into one result field"
	// Unused: the decoding type has the field but no result shows it.
	Unused = "decoded, not in any result: nothing to reconcile"
	// OneSided: the result shows the field when the forge sends it, and
	// leaves it out otherwise.
	OneSided = "shown when the forge sends it, left out otherwise"
)

// Routes returns the routes on one flavour only.
func Routes() []RouteDiff {
	return []RouteDiff{
		{Method: http.MethodGet, Route: "/repos/{owner}/{repo}/actions/jobs/{job_id}", Only: Gitea,
			Feature: "Why a job has no log yet (the job's status and runner labels)", Tools: []string{"get_action_job_logs"},
			Otherwise: "the log route's own 404 is reported, without the job's status"},
		{Method: http.MethodPost, Route: "/repos/{owner}/{repo}/actions/runs/{run_id}/cancel", Only: Forgejo,
			Feature: "Cancelling a workflow run", Tools: []string{"cancel_workflow_run"},
			Otherwise: "isError naming the forge's flavour and version; nothing is sent"},
		{Method: http.MethodPost, Route: "/repos/{owner}/{repo}/actions/runs/{run}/rerun", Only: Gitea,
			Feature: "Re-running a workflow run", Tools: []string{"rerun_workflow_run"},
			Otherwise: "isError naming the forge's flavour and version; nothing is sent"},
		{Method: http.MethodPost, Route: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments", Only: Forgejo,
			Feature: "Adding a line comment to a review", Tools: []string{"add_pull_review_comments", "reply_to_pull_review_comment"},
			Otherwise: "the comments go in as a PENDING review, which the forge folds into the caller's pending review (its text and commit sent back unchanged): " +
				"only the caller's own pending review can grow; a reply joins it, or is a one-comment review when there is none"},
		{Method: http.MethodDelete, Route: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments/{comment}", Only: Forgejo,
			Feature: "Deleting a review's line comment", Tools: []string{"delete_pull_review_comment"},
			Otherwise: "the comment is checked to be the review's, deleted through the issue comment route, and checked gone (isError if the forge kept it, as an older Gitea did)"},
	}
}

// RouteOnly returns the declared difference for method+route (compared
// without parameter names), if any.
func RouteOnly(method, route string) (RouteDiff, bool) {
	n := NormalizeRoute(route)
	for _, d := range Routes() {
		if d.Method == method && NormalizeRoute(d.Route) == n {
			return d, true
		}
	}
	return RouteDiff{}, false
}

// NormalizeRoute drops the parameter names of a path template, so
// Forgejo's /runs/{run_id} and Gitea's /runs/{run} compare equal: /runs/{}.
func NormalizeRoute(template string) string {
	segs := strings.Split(template, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			segs[i] = "{}"
		}
	}
	return strings.Join(segs, "/")
}

// Fields returns the response fields that differ between the flavours.
func Fields() []FieldDiff {
	const run, job = "ActionRun/ActionWorkflowRun", "ActionRunJob/ActionWorkflowJob"
	status := "Forgejo's one status (success, failure, running…) is split into Gitea's status and conclusion"
	fields := []FieldDiff{
		{Definition: run, Forgejo: "title", Gitea: "display_title", Handling: BothSpellings},
		{Definition: run, Forgejo: "index_in_repo", Gitea: "run_number", Handling: BothSpellings},
		{Definition: run, Forgejo: "commit_sha", Gitea: "head_sha", Handling: BothSpellings},
		{Definition: run, Forgejo: "prettyref", Gitea: "head_branch", Handling: BothSpellings},
		{Definition: run, Forgejo: "trigger_user", Gitea: "actor", Handling: BothSpellings},
		{Definition: run, Forgejo: "started", Gitea: "started_at", Handling: BothSpellings},
		{Definition: run, Forgejo: "stopped", Gitea: "completed_at", Handling: BothSpellings},
		{Definition: run, Forgejo: "workflow_id", Gitea: "path", Handling: BothSpellings + " (Gitea's @ref suffix dropped)"},
		{Definition: run, Forgejo: "duration", Handling: "Forgejo's duration; on Gitea computed from started and completed"},
		{Definition: run, Gitea: "conclusion", Handling: status},
		{Definition: job, Forgejo: "runs_on", Gitea: "labels", Handling: BothSpellings},
		{Definition: job, Gitea: "conclusion", Handling: status},
		{Definition: job, Forgejo: "needs", Handling: OneSided, Result: "needs"},
		{Definition: job, Forgejo: "attempt", Handling: OneSided, Result: "attempt"},
		{Definition: job, Gitea: "runner_name", Handling: OneSided, Result: "runner"},
		{Definition: job, Gitea: "started_at", Handling: OneSided, Result: "started"},
		{Definition: job, Gitea: "completed_at", Handling: OneSided, Result: "completed"},
		{Definition: job, Gitea: "steps", Handling: OneSided, Result: "steps"},
		{Definition: job, Gitea: "html_url", Handling: OneSided, Result: "html_url"},
		{Definition: "ActionWorkflowJobsResponse", Gitea: "total_count",
			Handling: "Forgejo answers a bare array of all the run's jobs, paged here; Gitea an object paged by the forge"},
		{Definition: "ActionArtifact", Forgejo: "run_id", Gitea: "workflow_run", Handling: BothSpellings + " (Gitea's workflow_run.id)"},
		{Definition: "ActionArtifactsResponse", Gitea: "total_count",
			Handling: "Forgejo answers a bare array without a total: a full page means more may follow"},
		{Definition: "Compare", Forgejo: "files", Handling: "Forgejo's file list; on Gitea built from the commits' own files"},
		{Definition: "IssueTemplate", Gitea: "assignees", Handling: OneSided, Result: "assignees"},
		{Definition: "query of GET /repos/{owner}/{repo}/actions/runs", Forgejo: "ref", Gitea: "branch",
			Handling: "both sent: ref=refs/heads/BRANCH and branch=BRANCH"},
	}
	features := map[string]string{run: "Workflow run", job: "Workflow job", "ActionWorkflowJobsResponse": "Jobs of a run",
		"ActionArtifact": "Artifact", "ActionArtifactsResponse": "Artifacts list",
		"query of GET /repos/{owner}/{repo}/actions/runs": "Workflow runs filter by branch",
		"Compare": "Compare commits", "IssueTemplate": "Issue template"}
	for i := range fields {
		fields[i].Feature = features[fields[i].Definition]
	}
	return fields
}
