package forgejo

import "net/http"

// quotaRoutes are the routes of Forgejo's quota subsystem
// (operation/quota), which Gitea has none of: a user's and an
// organisation's quota, its usage per kind and the check of a write, and
// the site administrator's groups, rules and their members. On Gitea
// every quota tool is refused before anything is sent.
func quotaRoutes() []RouteDiff {
	var rows []RouteDiff
	row := func(method, route, feature string, tools ...string) {
		rows = append(rows, RouteDiff{Method: method, Route: route, Feature: feature, Tools: tools, Otherwise: Refused})
	}
	for _, l := range []struct{ prefix, whose string }{{"/user", "your"}, {"/orgs/{org}", "an organisation's"}} {
		row(http.MethodGet, l.prefix+"/quota", "Reading "+l.whose+" quota", "get_quota")
		for _, kind := range []string{"artifacts", "attachments", "packages"} {
			row(http.MethodGet, l.prefix+"/quota/"+kind, "Listing the "+kind+" counting towards "+l.whose+" quota", "list_quota_usage")
		}
		row(http.MethodGet, l.prefix+"/quota/check", "Checking "+l.whose+" quota for a kind of write", "check_quota")
	}
	const groups, rules = "/admin/quota/groups", "/admin/quota/rules"
	row(http.MethodGet, groups, "Listing quota groups", "list_quota_groups")
	row(http.MethodPost, groups, "Creating a quota group", "create_quota_group")
	row(http.MethodGet, groups+"/{quotagroup}", "Reading a quota group", "get_quota_group")
	row(http.MethodDelete, groups+"/{quotagroup}", "Deleting a quota group", "delete_quota_group")
	row(http.MethodPut, groups+"/{quotagroup}/rules/{quotarule}", "Adding a rule to a quota group", "add_quota_group_rule")
	row(http.MethodDelete, groups+"/{quotagroup}/rules/{quotarule}", "Removing a rule from a quota group", "remove_quota_group_rule")
	row(http.MethodGet, groups+"/{quotagroup}/users", "Listing a quota group's users", "list_quota_group_users")
	row(http.MethodPut, groups+"/{quotagroup}/users/{username}", "Adding a user to a quota group", "add_quota_group_user")
	row(http.MethodDelete, groups+"/{quotagroup}/users/{username}", "Removing a user from a quota group", "remove_quota_group_user")
	row(http.MethodGet, rules, "Listing quota rules", "list_quota_rules")
	row(http.MethodPost, rules, "Creating a quota rule", "create_quota_rule")
	row(http.MethodGet, rules+"/{quotarule}", "Reading a quota rule", "get_quota_rule")
	row(http.MethodPatch, rules+"/{quotarule}", "Editing a quota rule", "edit_quota_rule")
	row(http.MethodDelete, rules+"/{quotarule}", "Deleting a quota rule", "delete_quota_rule")
	row(http.MethodGet, "/admin/users/{username}/quota", "Reading a user's quota as a site administrator", "get_user_quota")
	row(http.MethodPost, "/admin/users/{username}/quota/groups", "Setting a user's quota groups", "set_user_quota_groups")
	return rows
}
