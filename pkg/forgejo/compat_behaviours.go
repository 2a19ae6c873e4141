package forgejo

import (
	"slices"
	"strconv"
)

// Behaviour is a difference in how the forges answer a route both have:
// order, paging, filters, the words of a field. The API descriptions do
// not show these, so the drift tests cannot derive them; the recorded
// exchanges of real forges (internal/fakeforge/recorded) do, and Evidence
// names the exchanges, which the tests check exist and show it.
type Behaviour struct {
	// Feature names what differs, in README.
	Feature string
	// Tools are the tools it concerns.
	Tools []string
	// Forgejo and Gitea say what each recorded forge does (each recorded
	// Forgejo release alike, unless it says otherwise).
	Forgejo, Gitea string
	// Handling says what the tools do about it.
	Handling string
	// Evidence are the recorded exchanges that show it, each
	// "RECORDING#SEQ" (recorded/README.md's sequence numbers).
	Evidence []string
}

// Recordings' names as Evidence spells them.
const (
	recForgejo   = "forgejo-13.0.5"
	recForgejo15 = "forgejo-15.0.3"
	recGitea     = "gitea-1.26.0"
)

func ev(rec string, seqs ...int) []string {
	out := make([]string, len(seqs))
	for i, s := range seqs {
		out[i] = rec + "#" + strconv.Itoa(s)
	}
	return out
}

// Behaviours returns the recorded differences in how the forges answer.
func Behaviours() []Behaviour {
	runs := []string{"list_workflow_runs", "get_workflow_run", "get_ci_status"}
	return []Behaviour{
		{Feature: "Workflow run event", Tools: runs,
			Forgejo:  "a dispatched run has event \"\" and trigger_event workflow_dispatch",
			Gitea:    "event workflow_dispatch",
			Handling: "the event is trigger_event, else event, on both; the event filter is the forge's (Forgejo filters by trigger_event)",
			Evidence: slices.Concat(ev(recForgejo, 217, 225), ev(recForgejo15, 246, 256), ev(recGitea, 206, 215))},
		{Feature: "Workflow run and job status words", Tools: append(runs, "list_action_run_jobs"),
			Forgejo: "one status: waiting (no runner yet), running, blocked, success, failure, cancelled, skipped; " +
				"a status filter in Gitea's words is refused with 400 unknown status",
			Gitea: "status queued, in_progress, waiting (blocked) or completed, with a conclusion",
			Handling: "status and conclusion in Gitea's words on both, forge_status the forge's own word where it differs " +
				"(Forgejo's waiting is queued); the status filter is sent in each forge's words and checked on the result; " +
				"get_ci_status counts every unfinished run as pending",
			Evidence: slices.Concat(ev(recForgejo, 217, 226), ev(recForgejo15, 246, 257), ev(recGitea, 206, 216))},
		{Feature: "Workflow runs order", Tools: []string{"list_workflow_runs", "get_ci_status"},
			Forgejo: "oldest first on 13.0.5, newest first on 15.0.3", Gitea: "newest first",
			Handling: "newest first on both: on Forgejo a probe of two runs shows the order and the total, and where it is oldest first " +
				"the page is cut from the one or two forge pages that hold it, reversed",
			Evidence: slices.Concat(ev(recForgejo, 217), ev(recForgejo15, 246, 271), ev(recGitea, 206))},
		{Feature: "Workflow runs paging headers", Tools: []string{"list_workflow_runs"},
			Forgejo: "no X-Total-Count and no Link", Gitea: "X-Total-Count and Link",
			Handling: "has_more from total_count in the body, which both send",
			Evidence: slices.Concat(ev(recForgejo, 232), ev(recForgejo15, 271), ev(recGitea, 222))},
		{Feature: "Issue comments paging", Tools: []string{"list_issue_comments"},
			Forgejo: "page and limit ignored: every comment", Gitea: "page and limit ignored: every comment",
			Handling: "an answer longer than limit, or the whole total on a later page, is paged here",
			Evidence: slices.Concat(ev(recForgejo, 230), ev(recForgejo15, 269), ev(recGitea, 220))},
		{Feature: "Byte ranges on .diff and .patch routes", Tools: []string{"get_commit", "get_commit_diff", "get_pull_request_diff"},
			Forgejo: "Range ignored: 200 with the whole diff", Gitea: "Range ignored: 200 with the whole diff",
			Handling: "the diff is read up to the window wanted and the rest left unread; windows are cut here, never by the forge",
			Evidence: slices.Concat(ev(recForgejo, 11, 12, 134), ev(recForgejo15, 11, 12, 152), ev(recGitea, 11, 12, 134))},
		{Feature: "Notifications order and paging", Tools: []string{"check_notifications", "list_repo_notifications"},
			Forgejo:  "threads updated at the same second in one order; X-Total-Count, no Link",
			Gitea:    "the same threads in the other order; X-Total-Count and Link",
			Handling: "the forge's order is kept (newest first; ties in either order); has_more from X-Total-Count",
			Evidence: slices.Concat(ev(recForgejo, 125, 236), ev(recForgejo15, 143, 276), ev(recGitea, 125, 226))},
		{Feature: "A route the forge lacks", Tools: []string{"every tool"},
			Forgejo:  "404 text/plain \"404 page not found\" from the router; a missing object is a JSON 404",
			Gitea:    "the same",
			Handling: "a router 404 is reported as a missing route with the forge's version and the versions that have it, never as a missing object",
			Evidence: slices.Concat(ev(recForgejo, 246, 248), ev(recForgejo15, 290, 292), ev(recGitea, 236, 238))},
	}
}
