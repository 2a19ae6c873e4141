package forgejo

import "net/http"

// forkRoutes are the routes that bring a fork up to date: Forgejo's
// sync_fork and Gitea's merge-upstream, each flavour having one.
func forkRoutes() []RouteDiff {
	const sync = "/repos/{owner}/{repo}/sync_fork"
	const behind = "compare_commits between the upstream's branch and the fork's shows the commits it is behind"
	viaMerge := "sync_fork takes Gitea's merge-upstream route (POST /repos/{owner}/{repo}/merge-upstream), reading the fork's default branch when none is given"
	return []RouteDiff{
		{Method: http.MethodGet, Route: sync, Feature: "How far a fork's default branch is behind its upstream",
			Tools: []string{"get_fork_sync_status"}, Otherwise: Refused, Instead: behind},
		{Method: http.MethodGet, Route: sync + "/{branch}", Feature: "How far a fork's branch is behind its upstream",
			Tools: []string{"get_fork_sync_status"}, Otherwise: Refused, Instead: behind},
		{Method: http.MethodPost, Route: sync, Feature: "Syncing a fork's default branch (Forgejo's route)",
			Tools: []string{"sync_fork"}, Otherwise: viaMerge},
		{Method: http.MethodPost, Route: sync + "/{branch}", Feature: "Syncing a fork's branch (Forgejo's route)",
			Tools: []string{"sync_fork"}, Otherwise: viaMerge},
		{Method: http.MethodPost, Route: "/repos/{owner}/{repo}/merge-upstream", Feature: "Syncing a fork's branch (Gitea's merge-upstream)",
			Tools: []string{"sync_fork"}, Otherwise: "sync_fork takes Forgejo's sync_fork route, which takes no ff_only"},
	}
}
