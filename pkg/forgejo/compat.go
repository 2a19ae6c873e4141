package forgejo

import (
	"fmt"
	"net/http"
	"strings"
)

// The one compatibility table: every place where the APIs of Forgejo and
// Gitea, or of two versions of one, differ under a tool of this server, and
// what the tool does about it. The drift tests (operation/drift_*) derive
// each route's presence from the API descriptions of the versions in
// Described and fail on a difference not declared here, and `make docs`
// renders the table into README's compatibility section.

// Described are the forge versions whose API descriptions the table is
// checked against (internal/fakeforge/specs): Forgejo 13.0.5 as a real
// server serves it, a Forgejo 10.0.0 development build as it serves it
// (the newest Forgejo source the Go module proxy serves, built and run by
// the live suite's FORGEJO_TEST_FORGEJO_BIN), Forgejo's v17 development
// snapshot and Gitea 1.26.0.
func Described() []Forge {
	return []Forge{
		{Flavour: Forgejo, Version: "10.0.0-dev-456d05998231+gitea-1.22.0"},
		{Flavour: Forgejo, Version: "13.0.5+gitea-1.22.0"},
		{Flavour: Forgejo, Version: "17.0.0-dev+gitea-1.22.0"},
		{Flavour: Gitea, Version: "1.26.0"},
	}
}

// Presence is what the described versions of one flavour say about one
// route. Forges add routes and do not remove them, so a version at or
// below Lacks lacks the route and one at or above Since has it. A version
// between the two, or past Lacks when no described version has it, is not
// known: the request goes out, and a router 404 is reported as a missing
// route (Error.NoRoute), never as a missing object.
type Presence struct {
	// Since is the oldest described version that has the route; "" when
	// none does.
	Since string
	// Lacks is the newest described version without it; "" when every
	// described version has it.
	Lacks string
}

// Present is the presence of a route every described version has, from
// version (the oldest described).
func Present(version string) Presence { return Presence{Since: version} }

// Absent is the presence of a route no described version up to upTo has.
func Absent(upTo string) Presence { return Presence{Lacks: upTo} }

// Added is the presence of a route added after lacks: since has it.
func Added(lacks, since string) Presence { return Presence{Lacks: lacks, Since: since} }

// lacks reports whether a forge of version is known to lack the route.
func (p Presence) lacks(version string) bool {
	if p.Lacks == "" {
		return false
	}
	cmp, ok := CompareVersions(version, p.Lacks)
	return ok && cmp <= 0
}

// String says it in README's words: "yes (1.26.0)", "no (up to
// 17.0.0-dev)", "after 13.0.5 (17.0.0-dev has it)".
func (p Presence) String() string {
	switch {
	case p.Lacks == "":
		return "yes (" + p.Since + ")"
	case p.Since == "":
		return "no (up to " + p.Lacks + ")"
	}
	return "after " + p.Lacks + " (" + p.Since + " has it)"
}

// RouteDiff is a route a tool calls that a flavour, or some versions of
// one, lack.
type RouteDiff struct {
	Method string
	// Route is the swagger path template below /api/v1, as the flavour
	// that has it spells it.
	Route string
	// Forgejo and Gitea are the route's presence on each flavour.
	Forgejo, Gitea Presence
	// Feature names what the route does, in messages and README.
	Feature string
	// Tools are the tools that call it.
	Tools []string
	// Otherwise is what the tools do on a forge that lacks it.
	Otherwise string
}

// On returns the route's presence on flavour f.
func (d RouteDiff) On(f Flavour) Presence {
	if f == Forgejo {
		return d.Forgejo
	}
	return d.Gitea
}

// LackedBy reports whether forge f is known to lack the route: its flavour
// and a version at or below the newest described one without it.
func (d RouteDiff) LackedBy(f Forge) bool { return d.On(f.Flavour).lacks(f.Version) }

// Needs names the forges that have the route: "Forgejo newer than 13.0.5
// (17.0.0-dev has it)", "Gitea (1.26.0 has it)".
func (d RouteDiff) Needs() string {
	var out []string
	for _, f := range []Flavour{Forgejo, Gitea} {
		switch p := d.On(f); {
		case p.Since == "":
		case p.Lacks == "":
			out = append(out, fmt.Sprintf("%s (%s has it)", f, p.Since))
		default:
			out = append(out, fmt.Sprintf("%s newer than %s (%s has it)", f, p.Lacks, p.Since))
		}
	}
	return strings.Join(out, " or ")
}

// Otherwise texts, so the table reads the same everywhere.
const (
	// Refused: the tool answers isError before sending anything.
	Refused = "isError naming the version it needs and the forge's; nothing is sent"
)

// Routes returns the routes a flavour, or some versions of one, lack.
func Routes() []RouteDiff {
	const actions = "/repos/{owner}/{repo}/actions/"
	const fj10 = "10.0.0-dev-456d05998231" // the oldest described Forgejo
	fj13 := Added("13.0.5", "17.0.0-dev")  // added to Forgejo after 13.0.5
	gitea := Present("1.26.0")
	return []RouteDiff{
		{Method: http.MethodGet, Route: actions + "runs", Forgejo: Added(fj10, "13.0.5"), Gitea: gitea,
			Feature: "Listing workflow runs", Tools: []string{"list_workflow_runs", "get_ci_status"},
			Otherwise: Refused + "; get_ci_status shows the commit's statuses with a note that runs are not shown"},
		{Method: http.MethodGet, Route: actions + "runs/{run_id}", Forgejo: Added(fj10, "13.0.5"), Gitea: gitea,
			Feature: "Reading a workflow run", Tools: []string{"get_workflow_run"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "runs/{run_id}/jobs", Forgejo: fj13, Gitea: gitea,
			Feature: "Listing a workflow run's jobs", Tools: []string{"list_action_run_jobs"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "jobs/{job_id}/logs", Forgejo: fj13, Gitea: gitea,
			Feature: "Reading a job's log", Tools: []string{"get_action_job_logs"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "jobs/{job_id}", Forgejo: Absent("17.0.0-dev"), Gitea: gitea,
			Feature: "Why a job has no log yet (the job's status and runner labels)", Tools: []string{"get_action_job_logs"},
			Otherwise: "the log route's own 404 is reported, without the job's status"},
		{Method: http.MethodGet, Route: actions + "artifacts", Forgejo: fj13, Gitea: gitea,
			Feature: "Listing a repository's artifacts", Tools: []string{"list_run_artifacts"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "runs/{run_id}/artifacts", Forgejo: fj13, Gitea: gitea,
			Feature: "Listing a workflow run's artifacts", Tools: []string{"list_run_artifacts"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "artifacts/{artifact_id}", Forgejo: fj13, Gitea: gitea,
			Feature: "Reading an artifact", Tools: []string{"download_artifact"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "artifacts/{artifact_id}/zip", Forgejo: fj13, Gitea: gitea,
			Feature: "Downloading an artifact's zip", Tools: []string{"download_artifact"}, Otherwise: Refused},
		{Method: http.MethodPost, Route: actions + "runs/{run_id}/cancel", Forgejo: fj13, Gitea: Absent("1.26.0"),
			Feature: "Cancelling a workflow run", Tools: []string{"cancel_workflow_run"}, Otherwise: Refused},
		{Method: http.MethodPost, Route: actions + "runs/{run}/rerun", Forgejo: Absent("17.0.0-dev"), Gitea: gitea,
			Feature: "Re-running a workflow run", Tools: []string{"rerun_workflow_run"}, Otherwise: Refused},
		{Method: http.MethodPost, Route: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments", Forgejo: Present(fj10), Gitea: Absent("1.26.0"),
			Feature: "Adding a line comment to a review", Tools: []string{"add_pull_review_comments", "reply_to_pull_review_comment"},
			Otherwise: "the comments go in as a PENDING review, which the forge folds into the caller's pending review (its text and commit sent back unchanged): " +
				"only the caller's own pending review can grow; a reply joins it, or is a one-comment review when there is none"},
		{Method: http.MethodDelete, Route: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments/{comment}", Forgejo: Present(fj10), Gitea: Absent("1.26.0"),
			Feature: "Deleting a review's line comment", Tools: []string{"delete_pull_review_comment"},
			Otherwise: "the comment is checked to be the review's, deleted through the issue comment route, and checked gone (isError if the forge kept it, as an older Gitea did)"},
	}
}

// RouteFor returns the declared difference for method+route (a path
// template, compared without parameter names), if any.
func RouteFor(method, route string) (RouteDiff, bool) {
	n := NormalizeRoute(route)
	for _, d := range Routes() {
		if d.Method == method && NormalizeRoute(d.Route) == n {
			return d, true
		}
	}
	return RouteDiff{}, false
}

// RouteOf returns the declared difference whose template matches the
// escaped API path p (below /api/v1, such as "/repos/o/r/actions/runs/3/jobs"),
// if any: what a request is checked against before it is sent.
func RouteOf(method, p string) (RouteDiff, bool) {
	got := strings.Split(strings.Trim(p, "/"), "/")
	for _, d := range Routes() {
		if d.Method == method && matchSegments(strings.Split(strings.Trim(d.Route, "/"), "/"), got) {
			return d, true
		}
	}
	return RouteDiff{}, false
}

// matchSegments reports whether a path's segments fill a template's: the
// same number, literals equal, parameters not empty.
func matchSegments(tpl, got []string) bool {
	if len(tpl) != len(got) {
		return false
	}
	for i, s := range tpl {
		param := strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}")
		if param && got[i] == "" || !param && got[i] != s {
			return false
		}
	}
	return true
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
