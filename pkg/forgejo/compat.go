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
	// Definition is the response definition, Forgejo's name first when
	// they differ ("ActionRun/ActionWorkflowRun").
	Definition string
	// Forgejo and Gitea are the field as each spells it; "" where absent.
	Forgejo, Gitea string
	// Handling says what the tools do: which spelling they decode, or that
	// they leave the field out.
	Handling string
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
	}
}

// RouteOnly returns the declared difference for method+route (compared
// without parameter names), if any.
func RouteOnly(method, route string) (RouteDiff, bool) {
	n := normalizeRoute(route)
	for _, d := range Routes() {
		if d.Method == method && normalizeRoute(d.Route) == n {
			return d, true
		}
	}
	return RouteDiff{}, false
}

func normalizeRoute(template string) string {
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
	return []FieldDiff{}
}
