package forgejo

import "net/http"

// blockRoutes are the routes of blocked users, which Forgejo and Gitea
// name differently (Forgejo: list_blocked, block, unblock; Gitea: blocks),
// for the token's user and for an organisation. The block tools take
// whichever the forge has.
func blockRoutes() []RouteDiff {
	var rows []RouteDiff
	for _, head := range []struct{ tpl, whose string }{{"/user", "your account's"}, {"/orgs/{org}", "an organisation's"}} {
		for _, r := range []struct {
			method, forgejo, gitea, feature, tool string
		}{
			{http.MethodGet, "/list_blocked", "/blocks", "Listing " + head.whose + " blocked users", "list_blocked_users"},
			{http.MethodPut, "/block/{username}", "/blocks/{username}", "Blocking a user from " + head.whose[:len(head.whose)-2], "block_user"},
			{"", "/unblock/{username}", "/blocks/{username}", "Unblocking a user from " + head.whose[:len(head.whose)-2], "unblock_user"},
		} {
			fm, gm := r.method, r.method
			if r.method == "" {
				fm, gm = http.MethodPut, http.MethodDelete
			}
			rows = append(rows,
				RouteDiff{Method: fm, Route: head.tpl + r.forgejo, Feature: r.feature + " (Forgejo's route)", Tools: []string{r.tool},
					Otherwise: r.tool + " takes Gitea's route, " + gm + " " + head.tpl + r.gitea},
				RouteDiff{Method: gm, Route: head.tpl + r.gitea, Feature: r.feature + " (Gitea's route)", Tools: []string{r.tool},
					Otherwise: r.tool + " takes Forgejo's route, " + fm + " " + head.tpl + r.forgejo})
		}
	}
	return rows
}
