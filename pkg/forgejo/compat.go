package forgejo

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// The one compatibility table: every place where the APIs of Forgejo and
// Gitea, or of two versions of one, differ under a tool of this server, and
// what the tool does about it. Each route's presence per described version
// is read off the API descriptions by `make routes` (compat_gen.go; a test
// fails when a description changes it unnoticed), the drift tests
// (operation/drift_*) fail on a difference not declared here, and `make
// docs` renders the table into the compatibility section.

// Described are the forge versions whose API descriptions the route
// table is built from (internal/fakeforge/specs, listed in compat_gen.go
// by `make routes`), each flavour's oldest first: real Forgejo servers'
// (13.0.5, 15.0.3 LTS), a Forgejo 10.0.0 development build's (the newest
// Forgejo source the Go module proxy serves, run by the live suite's
// FORGEJO_TEST_FORGEJO_BIN), Forgejo's v17 development snapshot and
// Gitea 1.26.0.
func Described() []Forge { return describedForges() }

// Presence is what the described versions of one flavour say about one
// route, as their API descriptions show it (compat_gen.go). Forges add
// routes and do not remove them (a test fails on a description that
// would), so a version at or below one that lacks the route lacks it, and
// one at or above one that has it has it. A version between the newest
// that lacks it and the oldest that has it (Forgejo 16 for a route only
// the 17 development snapshot has), or past every one that lacks it, is
// not known: the request goes out, since refusing a forge that has the
// route would cost the tool and sending costs one request, and a router
// 404 is reported as a missing route (Error.NoRoute) with the same words,
// never as a missing object.
type Presence struct {
	// Have and Lack are the described versions with and without the
	// route, oldest first.
	Have, Lack []string
}

// lacks reports whether a forge of version is known to lack the route: it
// is no newer than a described version without it.
func (p Presence) lacks(version string) bool {
	for _, l := range p.Lack {
		if cmp, ok := CompareVersions(version, l); ok && cmp <= 0 {
			return true
		}
	}
	return false
}

// String says it in README's words: "yes (1.26.0)", "no (up to
// 17.0.0-dev)", "from 13.0.5 (10.0.0-dev-456d05998231 lacks it)", "not in
// a release (15.0.3 lacks it, 17.0.0-dev has it)".
func (p Presence) String() string {
	switch {
	case len(p.Have) == 0 && len(p.Lack) == 0:
		return "not described"
	case len(p.Lack) == 0:
		return "yes (" + p.Have[0] + ")"
	case len(p.Have) == 0:
		return "no (up to " + p.Lack[len(p.Lack)-1] + ")"
	}
	lacks, has := p.Lack[len(p.Lack)-1], p.Have[0]
	if rel := releases(p.Have); len(rel) == 0 {
		return "not in a release (" + lacks + " lacks it, " + has + " has it)"
	}
	return "from " + has + " (" + lacks + " lacks it)"
}

// isDevelopment reports whether a version is a development build or
// snapshot ("17.0.0-dev", "10.0.0-dev-456d05998231"), no release.
func isDevelopment(version string) bool { return strings.Contains(version, "-dev") }

// releases are the versions of vs that are releases.
func releases(vs []string) []string {
	var out []string
	for _, v := range vs {
		if !isDevelopment(v) {
			out = append(out, v)
		}
	}
	return out
}

// RouteDiff is a route a tool calls that a flavour, or some versions of
// one, lack.
type RouteDiff struct {
	Method string
	// Route is the swagger path template below /api/v1, as the flavour
	// that has it spells it.
	Route string
	// Forgejo and Gitea are the route's presence on each flavour, from the
	// described versions' API descriptions (compat_gen.go).
	Forgejo, Gitea Presence
	// Feature names what the route does, in messages and README.
	Feature string
	// Tools are the tools that call it.
	Tools []string
	// Otherwise is what the tools do on a forge that lacks it: Refused,
	// or the other way they take.
	Otherwise string
	// Instead, when set, ends a refusal: what a caller can do on a forge
	// that lacks the route.
	Instead string
}

// On returns the route's presence on flavour f.
func (d RouteDiff) On(f Flavour) Presence {
	if f == Forgejo {
		return d.Forgejo
	}
	return d.Gitea
}

// LackedBy reports whether forge f is known to lack the route: its flavour
// and a version no newer than a described one without it.
func (d RouteDiff) LackedBy(f Forge) bool { return d.On(f.Flavour).lacks(f.Version) }

// Needs says which described forges have the route and which lack it, as
// their API descriptions show: "Forgejo 13.0.5 and 15.0.3 lack it; of the
// Forgejo versions this server knows, only 17.0.0-dev (a development
// snapshot) has it; Gitea 1.26.0 has it". It claims nothing about
// versions no description is of.
func (d RouteDiff) Needs() string {
	var out []string
	for _, f := range []Flavour{Forgejo, Gitea} {
		if s := d.On(f).words(f); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "; ")
}

// words is one flavour's part of Needs.
func (p Presence) words(f Flavour) string {
	lack, have := p.Lack, p.Have
	if rel := releases(lack); len(rel) > 0 {
		// A development build older than a release that lacks the route
		// says nothing more.
		lack = append(rel, newerDevelopment(lack, rel[len(rel)-1])...)
	}
	var parts []string
	if len(lack) > 0 {
		parts = append(parts, fmt.Sprintf("%s %s %s it", f, list(lack), plural(len(lack), "lacks", "lack")))
	}
	switch rel := releases(have); {
	case len(have) == 0:
	case len(rel) == 0 && len(lack) > 0:
		return fmt.Sprintf("%s; of the %s versions this server knows, only %s (%s) %s it", parts[0], f, list(have),
			plural(len(have), "a development snapshot", "development snapshots"), plural(len(have), "has", "have"))
	case len(lack) > 0:
		parts = append(parts, fmt.Sprintf("while %s %s it", list(have), plural(len(have), "has", "have")))
	default:
		parts = append(parts, fmt.Sprintf("%s %s %s it", f, list(have), plural(len(have), "has", "have")))
	}
	return strings.Join(parts, ", ")
}

// newerDevelopment are the development versions of vs newer than release.
func newerDevelopment(vs []string, release string) []string {
	var out []string
	for _, v := range vs {
		if cmp, ok := CompareVersions(v, release); ok && cmp > 0 && isDevelopment(v) {
			out = append(out, v)
		}
	}
	return out
}

// list joins versions in prose: "13.0.5", "13.0.5 and 15.0.3", "a, b and c".
func list(vs []string) string {
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " and " + vs[len(vs)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Otherwise texts, so the table reads the same everywhere.
const (
	// Refused: the tool answers isError before sending anything.
	Refused = "isError naming the forge and the described versions that have and lack the route; nothing is sent"
)

// Routes returns the routes a flavour, or some versions of one, lack, with
// their presence per described version (compat_gen.go). A route joins by a
// row here; `make routes` then reads its presence off every described
// API description (docs/architecture.md).
func Routes() []RouteDiff {
	const actions = "/repos/{owner}/{repo}/actions/"
	rows := []RouteDiff{
		{Method: http.MethodGet, Route: actions + "runs",
			Feature: "Listing workflow runs", Tools: []string{"list_workflow_runs", "get_ci_status"},
			Otherwise: Refused + "; get_ci_status shows the commit's statuses and the failed jobs of its task list, with a note that runs are not shown"},
		{Method: http.MethodGet, Route: actions + "runs/{run_id}",
			Feature: "Reading a workflow run", Tools: []string{"get_workflow_run", "list_action_run_jobs"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "runs/{run_id}/jobs",
			Feature: "Listing a workflow run's jobs", Tools: []string{"list_action_run_jobs"},
			Otherwise: "the jobs a runner took come from the forge's task list (GET …/actions/tasks, which every described forge has), " +
				"each with the page where a person reads its log and a note saying why no log is shown; get_ci_status lists the failed ones the same way"},
		{Method: http.MethodGet, Route: actions + "jobs/{job_id}/logs",
			Feature: "Reading a job's log", Tools: []string{"get_action_job_logs"},
			Otherwise: Refused, Instead: JobLogsElsewhere},
		{Method: http.MethodGet, Route: actions + "jobs/{job_id}",
			Feature: "Why a job has no log yet (the job's status and runner labels)", Tools: []string{"get_action_job_logs"},
			Otherwise: "the log route's own 404 is reported, without the job's status"},
		{Method: http.MethodGet, Route: actions + "artifacts",
			Feature: "Listing a repository's artifacts", Tools: []string{"list_run_artifacts"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "runs/{run_id}/artifacts",
			Feature: "Listing a workflow run's artifacts", Tools: []string{"list_run_artifacts"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "artifacts/{artifact_id}",
			Feature: "Reading an artifact", Tools: []string{"download_artifact"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "artifacts/{artifact_id}/zip",
			Feature: "Downloading an artifact's zip", Tools: []string{"download_artifact"}, Otherwise: Refused},
		{Method: http.MethodPost, Route: actions + "runs/{run_id}/cancel",
			Feature: "Cancelling a workflow run", Tools: []string{"cancel_workflow_run"}, Otherwise: Refused},
		{Method: http.MethodPost, Route: actions + "runs/{run}/rerun",
			Feature: "Re-running a workflow run", Tools: []string{"rerun_workflow_run"}, Otherwise: Refused},
		{Method: http.MethodPost, Route: "/repos/{owner}/{repo}/convert",
			Feature: "Converting a pull mirror to an ordinary repository", Tools: []string{"convert_mirror_repo"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: actions + "workflows",
			Feature: "Listing a repository's workflows", Tools: []string{"list_workflows"},
			Otherwise: "the workflow folder (.forgejo/workflows, else .gitea/workflows) is listed through the contents API, without the workflows' enabled state"},
		{Method: http.MethodPut, Route: actions + "workflows/{workflow_id}/enable",
			Feature: "Enabling a workflow", Tools: []string{"enable_workflow"}, Otherwise: Refused, Instead: WorkflowSwitchElsewhere},
		{Method: http.MethodPut, Route: actions + "workflows/{workflow_id}/disable",
			Feature: "Disabling a workflow", Tools: []string{"disable_workflow"}, Otherwise: Refused, Instead: WorkflowSwitchElsewhere},
		{Method: http.MethodPost, Route: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments",
			Feature: "Adding a line comment to a review", Tools: []string{"add_pull_review_comments", "reply_to_pull_review_comment"},
			Otherwise: "the comments go in as a PENDING review, which the forge folds into the caller's pending review (its text and commit sent back unchanged): " +
				"only the caller's own pending review can grow; a reply joins it, or is a one-comment review when there is none"},
		{Method: http.MethodDelete, Route: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments/{comment}",
			Feature: "Deleting a review's line comment", Tools: []string{"delete_pull_review_comment"},
			Otherwise: "the comment is checked to be the review's, deleted through the issue comment route, and checked gone (isError if the forge kept it, as an older Gitea did)"},
	}
	rows = append(append(rows, forkRoutes()...), blockRoutes()...)
	rows = slices.Concat(rows, runnerRoutes(), quotaRoutes(), siteActionRoutes(), packageRoutes())
	for i, r := range rows {
		rows[i].Forgejo, rows[i].Gitea = presence(r.Method + " " + r.Route)
	}
	return rows
}

// JobLogsElsewhere is what a refused log read says instead: where a
// person reads it (the forges' web log routes take no API token).
const JobLogsElsewhere = "a person reads a job's log on its web page, the html_url that list_action_run_jobs and get_ci_status give " +
	"(the forge's web log routes take no API token)"

// WorkflowSwitchElsewhere is what a refused enable or disable says
// instead.
const WorkflowSwitchElsewhere = "a person enables or disables a workflow on the repository's Actions page"

// presence splits the described forges that have route (compat_gen.go)
// from those that lack it, per flavour; a route `make routes` has not seen
// has neither, and is never refused.
func presence(route string) (forgejoP, giteaP Presence) {
	have, known := describedHaving(route)
	if !known {
		return Presence{}, Presence{}
	}
	for _, f := range describedForges() {
		p := &giteaP
		if f.Flavour == Forgejo {
			p = &forgejoP
		}
		v, _, _ := strings.Cut(f.Version, "+")
		if slices.Contains(have, f.String()) {
			p.Have = append(p.Have, v)
		} else {
			p.Lack = append(p.Lack, v)
		}
	}
	return forgejoP, giteaP
}

// RouteFor returns the declared difference for method+route (a path
// template, compared without parameter names), if any.
func RouteFor(method, route string) (RouteDiff, bool) {
	n := NormalizeRoute(route)
	for _, r := range routeIndex()[method] {
		if r.normalized == n {
			return r.RouteDiff, true
		}
	}
	return RouteDiff{}, false
}

// RouteOf returns the declared difference whose template matches the
// escaped API path p (below /api/v1, such as "/repos/o/r/actions/runs/3/jobs"),
// if any: what a request is checked against before it is sent. The
// difference's slices are shared with every caller: read them, do not
// change them.
//
// Where two templates match, the one with more literal segments wins, as
// in the forges' routers: …/runners/jobs is not …/runners/{runner_id}.
func RouteOf(method, p string) (RouteDiff, bool) {
	got := strings.Split(strings.Trim(p, "/"), "/")
	var best *indexedRoute
	for _, r := range routeIndex()[method] {
		if matchSegments(r.segments, got) && (best == nil || r.literals > best.literals) {
			best = r
		}
	}
	if best == nil {
		return RouteDiff{}, false
	}
	return best.RouteDiff, true
}

// indexedRoute is a declared route with its template split and
// normalised once.
type indexedRoute struct {
	RouteDiff
	segments   []string
	literals   int
	normalized string
}

// routeIndex is Routes() by method, each template split and normalised,
// built on first use: RouteOf (the route gate, for every request the
// client sends) and RouteFor (a tool's Require) look routes up here;
// building the table (each row's presence per described forge) per lookup
// cost more than the lookup.
var routeIndex = sync.OnceValue(func() map[string][]*indexedRoute {
	out := map[string][]*indexedRoute{}
	for _, d := range Routes() {
		segs := strings.Split(strings.Trim(d.Route, "/"), "/")
		out[d.Method] = append(out[d.Method], &indexedRoute{RouteDiff: d, segments: segs, literals: literals(segs), normalized: NormalizeRoute(d.Route)})
	}
	return out
})

// literals counts a template's segments that are not parameters.
func literals(tpl []string) int {
	n := 0
	for _, s := range tpl {
		if !strings.HasPrefix(s, "{") {
			n++
		}
	}
	return n
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
