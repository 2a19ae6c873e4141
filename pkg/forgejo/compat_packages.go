package forgejo

import "net/http"

// packageRoutes are the package registry routes some forges lack
// (operation/packages): linking and unlinking a package (Forgejo 10
// lacks them), and a package's own list of versions and its latest
// version, which only Gitea has; on Forgejo, list_packages narrowed to
// the type and the name lists the same versions, newest first.
func packageRoutes() []RouteDiff {
	const pkg = "/packages/{owner}/{type}/{name}"
	const viaList = "list_packages with type and query (the package's name) lists its versions, newest first"
	return []RouteDiff{
		{Method: http.MethodPost, Route: pkg + "/-/link/{repo_name}",
			Feature: "Linking a package to a repository", Tools: []string{"link_package"}, Otherwise: Refused},
		{Method: http.MethodPost, Route: pkg + "/-/unlink",
			Feature: "Unlinking a package", Tools: []string{"unlink_package"}, Otherwise: Refused},
		{Method: http.MethodGet, Route: pkg,
			Feature: "Listing a package's versions", Tools: []string{"list_package_versions"}, Otherwise: Refused, Instead: viaList},
		{Method: http.MethodGet, Route: pkg + "/-/latest",
			Feature: "Reading a package's latest version", Tools: []string{"get_latest_package_version"}, Otherwise: Refused, Instead: viaList},
	}
}
