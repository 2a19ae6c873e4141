package forgejo

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

// Fields returns the response fields that differ between the flavours.
func Fields() []FieldDiff {
	const run, job = "ActionRun/ActionWorkflowRun", "ActionRunJob/ActionWorkflowJob"
	const runsQuery, pullsQuery = "query of GET /repos/{owner}/{repo}/actions/runs", "query of GET /repos/{owner}/{repo}/pulls"
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
		{Definition: run, Forgejo: "trigger_event", Handling: "the run's event on both: Forgejo 13 sends event \"\" for a dispatched run " +
			"and the event in trigger_event, read first"},
		{Definition: run, Forgejo: "duration", Handling: "Forgejo's duration; on Gitea computed from started and completed"},
		{Definition: run, Gitea: "conclusion", Handling: status},
		{Definition: job, Forgejo: "runs_on", Gitea: "labels", Handling: BothSpellings},
		{Definition: job, Gitea: "conclusion", Handling: status},
		{Definition: job, Forgejo: "needs", Handling: OneSided, Result: "needs"},
		{Definition: job, Forgejo: "task_id", Handling: "read only to tell Forgejo's job from Gitea's, whose status words differ"},
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
		{Definition: "Compare", Forgejo: "files", Handling: "Forgejo's is every commit's files concatenated (duplicates, files added then removed); " +
			"the net list is built from the commits' own files on both"},
		{Definition: "IssueTemplate", Gitea: "assignees", Handling: OneSided, Result: "assignees"},
		{Definition: "Attachment", Forgejo: "type",
			Handling: "an external release asset (a link a repository writer set, answered with size 0) is shown as type external with " +
				"external_url, without size or browser_download_url, and never fetched by the download tools"},
		{Definition: runsQuery, Forgejo: "ref", Gitea: "branch",
			Handling: "both sent: ref=refs/heads/BRANCH and branch=BRANCH; each run's branch is checked too (Forgejo 13 has neither)"},
		{Definition: runsQuery, Forgejo: "workflow_id",
			Handling: "sent; each run's workflow is checked too (Gitea and Forgejo 13 filter by none)"},
		{Definition: pullsQuery, Forgejo: "head",
			Handling: "a branch name sent; each PR's head is checked too, the list read on until a page of matches is full"},
		{Definition: pullsQuery, Forgejo: "base", Gitea: "base_branch",
			Handling: "both sent; each PR's base is checked too (Forgejo 13 has neither)"},
		{Definition: "ActionRunner", Forgejo: "description", Handling: OneSided, Result: "description"},
		{Definition: "ActionRunner", Forgejo: "version", Handling: OneSided, Result: "version"},
		{Definition: "ActionRunner", Gitea: "busy", Handling: OneSided, Result: "busy"},
		{Definition: "ActionRunner", Gitea: "disabled", Handling: OneSided, Result: "disabled"},
		{Definition: "RegistrationToken/ActionRunner", Forgejo: "token",
			Handling: "Gitea describes no answer for its POST route; it sends the same token member, which is read on both"},
		{Definition: "PackageFile", Forgejo: "Size", Gitea: "size", Handling: BothSpellings + " (JSON member names are matched without case)"},
	}
	for _, f := range []string{"id", "name", "status", "runs_on", "needs", "task_id", "attempt", "repo_id"} {
		fields = append(fields, FieldDiff{Definition: "ActionRunJob", Forgejo: f,
			Handling: "only Forgejo has the runner job search (search_*_runner_jobs); refused before sending on Gitea"})
	}
	features := map[string]string{run: "Workflow run", job: "Workflow job", "ActionWorkflowJobsResponse": "Jobs of a run",
		"ActionRunner": "Runner", "RegistrationToken/ActionRunner": "Runner registration token", "PackageFile": "Package file",
		"ActionRunJob":   "Job waiting for a runner",
		"ActionArtifact": "Artifact", "ActionArtifactsResponse": "Artifacts list",
		runsQuery: "Workflow runs filters", pullsQuery: "Pull request list filters",
		"Compare": "Compare commits", "IssueTemplate": "Issue template", "Attachment": "Attachment"}
	for i := range fields {
		fields[i].Feature = features[fields[i].Definition]
	}
	return fields
}
