package forgejo

import "net/http"

// runnerRoutes are the runner routes of a repository, an organisation
// and the user (operation/actionsconfig): Forgejo hands out a
// registration token on GET and Gitea on POST (the tool picks by
// flavour); Forgejo 15 adds listing, reading, registering and deleting
// runners, which Gitea has but for registering; Gitea alone disables and
// enables one (PATCH); Forgejo 13 adds the search of the jobs waiting for
// a runner, which Gitea lacks.
func runnerRoutes() []RouteDiff {
	var rows []RouteDiff
	for _, l := range []struct{ prefix, noun string }{
		{"/repos/{owner}/{repo}", "repo"}, {"/orgs/{org}", "org"}, {"/user", "my"}, {"/admin", "site"},
	} {
		r := l.prefix + "/actions/runners"
		tools := func(name string) []string { return []string{name} }
		rows = append(rows,
			// Forgejo's GET of the token is not a row: Gitea's router takes
			// the same path for …/runners/{runner_id}, so no description
			// says Gitea lacks it; the tool asks Gitea with POST by flavour.
			RouteDiff{Method: http.MethodPost, Route: r + "/registration-token", Feature: "Getting a runner registration token (POST)",
				Tools: tools("get_" + l.noun + "_runner_registration_token"), Otherwise: "the GET route Forgejo has instead"},
			RouteDiff{Method: http.MethodGet, Route: r, Feature: "Listing runners", Tools: tools("list_" + l.noun + "_runners"), Otherwise: Refused},
			RouteDiff{Method: http.MethodPost, Route: r, Feature: "Registering a runner", Tools: tools("register_" + l.noun + "_runner"),
				Otherwise: Refused, Instead: "get_" + l.noun + "_runner_registration_token gives the token the runner's own register command takes"},
			RouteDiff{Method: http.MethodGet, Route: r + "/{runner_id}", Feature: "Reading a runner", Tools: tools("get_" + l.noun + "_runner"), Otherwise: Refused},
			RouteDiff{Method: http.MethodDelete, Route: r + "/{runner_id}", Feature: "Deleting a runner", Tools: tools("delete_" + l.noun + "_runner"), Otherwise: Refused},
			RouteDiff{Method: http.MethodPatch, Route: r + "/{runner_id}", Feature: "Disabling or enabling a runner", Tools: tools("edit_" + l.noun + "_runner"), Otherwise: Refused},
		)
		if l.noun == "site" {
			continue
		}
		rows = append(rows, RouteDiff{Method: http.MethodGet, Route: r + "/jobs", Feature: "Searching the jobs waiting for a runner",
			Tools: tools("search_" + l.noun + "_runner_jobs"), Otherwise: Refused, Instead: searchJobsInstead})
	}
	// The site's token and job search are Forgejo's older /admin/runners
	// routes (every described Forgejo has the token, 13 and later the
	// search), which Gitea lacks: it takes POST …/actions/runners/registration-token.
	return append(rows,
		RouteDiff{Method: http.MethodGet, Route: "/admin/runners/registration-token", Feature: "Getting the site's runner registration token (GET)",
			Tools: []string{"get_site_runner_registration_token"}, Otherwise: "the POST route Gitea has instead"},
		RouteDiff{Method: http.MethodGet, Route: "/admin/runners/jobs", Feature: "Searching the jobs waiting for a site runner",
			Tools: []string{"search_site_runner_jobs"}, Otherwise: Refused, Instead: searchJobsInstead})
}

// searchJobsInstead is what a refused runner job search suggests.
const searchJobsInstead = "list_workflow_runs status=queued and list_action_run_jobs show a repository's queued jobs and the labels they need"
