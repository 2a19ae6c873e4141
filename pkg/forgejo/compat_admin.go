package forgejo

import "net/http"

// siteActionRoutes are Gitea's lists of the workflow runs and jobs of
// every repository of the site (operation/admin), which Forgejo lacks.
func siteActionRoutes() []RouteDiff {
	const instead = "list_workflow_runs and list_action_run_jobs read one repository's"
	return []RouteDiff{
		{Method: http.MethodGet, Route: "/admin/actions/runs", Feature: "Listing the site's workflow runs",
			Tools: []string{"list_site_workflow_runs"}, Otherwise: Refused, Instead: instead},
		{Method: http.MethodGet, Route: "/admin/actions/jobs", Feature: "Listing the site's workflow jobs",
			Tools: []string{"list_site_action_jobs"}, Otherwise: Refused, Instead: instead},
	}
}
