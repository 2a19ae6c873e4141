package operation

import (
	"context"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/admin"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/forgejo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// The one table of how each tool meets the trust boundary, where its
// parameters and result type do not say it themselves (pkg/tool reach.go,
// pkg/trust): which repositories a tool touches, for --repos, and who wrote
// the texts its result holds without naming them, for author marks and
// lockdown. A tool whose parameters name owner and repo (or org) needs no
// entry; TestEveryToolHasAReach fails for one that names neither and is not
// here, so a new tool is classified before it ships.

// reachOf is the entry of the tool name, when its parameters do not name
// its repositories.
func reachOf(name string) (tool.Reach, bool) {
	switch name {
	// The token's user, other users' accounts, organisations' names: no
	// repository's content.
	case "get_forgejo_mcp_server_version":
		return tool.Reach{Kind: tool.ReachAccount, Why: "the server's and the forge's versions"}, true
	case "get_my_user_info":
		return tool.Reach{Kind: tool.ReachAccount, Why: "the token's user's account"}, true
	case "search_users":
		return tool.Reach{Kind: tool.ReachAccount, Why: "user accounts"}, true
	case "list_my_orgs", "list_user_orgs":
		return tool.Reach{Kind: tool.ReachAccount, Why: "the organisations a user belongs to"}, true
	// Spanning repositories: the results name theirs and are filtered.
	case "list_my_repos", "list_user_repos", "search_repos", "search_issues", "list_my_issues", "check_notifications",
		"get_notification_thread", "list_team_repos", "list_my_stopwatches", "list_my_tracked_times",
		"list_my_watched_repos", "list_starred_repos", "list_team_activity", "list_user_activity":
		return tool.Reach{Kind: tool.ReachResults}, true
	// Which organisation or repository these touch is only known once
	// the forge has been asked.
	case "mark_notification_read":
		return tool.Reach{Kind: tool.ReachUnknown, Why: "a notification's repository is only known by reading it (get_notification_thread); mark_repo_notifications_read marks a repository's"}, true
	case "mark_all_notifications_read":
		return tool.Reach{Kind: tool.ReachUnknown, Why: "it marks the notifications of every repository; mark_repo_notifications_read marks a repository's"}, true
	case "list_my_hooks", "get_my_hook", "create_my_hook", "edit_my_hook", "delete_my_hook":
		return tool.Reach{Kind: tool.ReachUnknown, Why: "a user's webhooks receive the events of every repository the user owns; list_repo_hooks and create_repo_hook act on one repository"}, true
	case "list_team_members", "add_team_member", "remove_team_member":
		return tool.Reach{Kind: tool.ReachUnknown, Why: "a team id does not say which organisation the team belongs to; list_org_teams and list_org_members read an organisation in the scope"}, true
	// Touching a repository their owner/repo parameters do not name.
	case "fork_repo":
		return tool.Reach{Repos: func(a tool.Args) []tool.RepoAt {
			name := a.String("name")
			if name == "" {
				name = a.String("repo")
			}
			return []tool.RepoAt{{Owner: a.String("owner"), Repo: a.String("repo")}, {Owner: a.String("organization"), Repo: name}}
		}}, true
	case "create_repo":
		return tool.Reach{Repos: func(a tool.Args) []tool.RepoAt {
			return []tool.RepoAt{{Owner: a.String("org"), Repo: a.String("name")}}
		}}, true
	case "create_org":
		return tool.Reach{Repos: func(a tool.Args) []tool.RepoAt {
			return []tool.RepoAt{{Owner: a.String("name"), Repo: "*"}}
		}}, true
	case "create_repo_from_template":
		return tool.Reach{Repos: func(a tool.Args) []tool.RepoAt {
			return []tool.RepoAt{{Owner: a.String("owner"), Repo: a.String("repo")}, {Owner: a.String("new_owner"), Repo: a.String("name")}}
		}}, true
	case "migrate_repo":
		return tool.Reach{Repos: func(a tool.Args) []tool.RepoAt {
			return []tool.RepoAt{{Owner: a.String("repo_owner"), Repo: a.String("repo_name")}}
		}}, true
	case "transfer_repo":
		return tool.Reach{Repos: func(a tool.Args) []tool.RepoAt {
			return []tool.RepoAt{{Owner: a.String("owner"), Repo: a.String("repo")}, {Owner: a.String("new_owner"), Repo: a.String("repo")}}
		}}, true
	// The token's user's Actions secrets, variables and runners: every repository
	// of the user's sees them, as an organisation's see its own.
	case "upsert_my_action_secret", "delete_my_action_secret", "list_my_action_variables", "get_my_action_variable",
		"create_my_action_variable", "update_my_action_variable", "delete_my_action_variable",
		"get_my_runner_registration_token", "list_my_runners", "get_my_runner", "delete_my_runner", "register_my_runner",
		"search_my_runner_jobs", "edit_my_runner":
		return tool.Reach{Repos: func(tool.Args) []tool.RepoAt { return []tool.RepoAt{{Owner: "", Repo: "*"}} }}, true
	// An owner's packages: the owner's level, and for a link the
	// repository too.
	case "list_packages", "get_package", "list_package_files", "delete_package", "unlink_package",
		"list_package_versions", "get_latest_package_version":
		return tool.Reach{Repos: func(a tool.Args) []tool.RepoAt { return []tool.RepoAt{{Owner: a.String("owner"), Repo: "*"}} }}, true
	case "link_package":
		return tool.Reach{Repos: func(a tool.Args) []tool.RepoAt {
			return []tool.RepoAt{{Owner: a.String("owner"), Repo: "*"}, {Owner: a.String("owner"), Repo: a.String("repo")}}
		}}, true
	// The site's quota settings (operation/quota): read, they hold no
	// repository's content; changed, they limit every repository of the
	// users they apply to.
	case "list_quota_groups", "get_quota_group", "list_quota_group_users", "list_quota_rules", "get_quota_rule", "get_user_quota":
		return tool.Reach{Kind: tool.ReachAccount, Why: "the site's quota groups and rules, and a user's usage in bytes"}, true
	case "create_quota_group", "delete_quota_group", "add_quota_group_rule", "remove_quota_group_rule", "add_quota_group_user",
		"remove_quota_group_user", "create_quota_rule", "edit_quota_rule", "delete_quota_rule", "set_user_quota_groups":
		return tool.Reach{Kind: tool.ReachUnknown, Why: "a site quota change limits every repository of the users it applies to"}, true
	case "compare_commits", "create_pull_request":
		return tool.Reach{Repos: withForks("base", "head")}, true
	}
	return tool.Reach{}, false
}

// withForks is the call's repository and the forks its branch parameters
// name ("owner:branch", "owner/repo:branch").
func withForks(params ...string) func(a tool.Args) []tool.RepoAt {
	return func(a tool.Args) []tool.RepoAt {
		owner, repo := a.String("owner"), a.String("repo")
		out := []tool.RepoAt{{Owner: owner, Repo: repo}}
		for _, p := range params {
			if at, ok := tool.RefOf(a.String(p), owner, repo); ok {
				out = append(out, at)
			}
		}
		return out
	}
}

// textByOf is the author of the texts the tool name's result holds
// without naming who wrote them: an attachment's name is taken as its
// issue's, comment's or release's author's (the forge does not say who
// uploaded it; on an issue it is its author or someone who may write), a
// pull request's diff as its author's; nil for the other tools.
func textByOf(name string) *tool.TextBy {
	switch name {
	case "list_issue_attachments", "get_issue_attachment", "download_issue_attachment", "edit_issue_attachment":
		return &tool.TextBy{Key: "issue_author", Login: issuePoster}
	case "list_comment_attachments", "get_comment_attachment", "download_comment_attachment", "edit_comment_attachment":
		return &tool.TextBy{Key: "comment_author", Login: commentPoster}
	case "list_release_attachments", "get_release_attachment", "download_release_attachment", "edit_release_attachment":
		return &tool.TextBy{Key: "release_author", Login: releasePublisher}
	case "create_issue_attachment", "create_comment_attachment", "create_release_attachment":
		return &tool.TextBy{Key: "uploader", Login: tokenUser}
	case "get_pull_request_diff", "list_pull_review_comments":
		return &tool.TextBy{Key: "pull_author", Login: issuePoster}
	}
	return nil
}

func issuePoster(ctx context.Context, c *forgejo.Client, a tool.Args) (string, error) {
	i, resp, err := c.SDK(ctx).GetIssue(a.String("owner"), a.String("repo"), a.Int("index"))
	if err := forgejo.Fail(resp, err, "get", tool.IssueRef(a)); err != nil {
		return "", err
	}
	return forgejo.Login(i.Poster), nil
}

func commentPoster(ctx context.Context, c *forgejo.Client, a tool.Args) (string, error) {
	cm, resp, err := c.SDK(ctx).GetIssueComment(a.String("owner"), a.String("repo"), a.Int("comment_id"))
	if err := forgejo.Fail(resp, err, "get", tool.CommentRef(a)); err != nil {
		return "", err
	}
	return forgejo.Login(cm.Poster), nil
}

func releasePublisher(ctx context.Context, c *forgejo.Client, a tool.Args) (string, error) {
	r, resp, err := c.SDK(ctx).GetRelease(a.String("owner"), a.String("repo"), a.Int("release_id"))
	if err := forgejo.Fail(resp, err, "get", "release"); err != nil {
		return "", err
	}
	return forgejo.Login(r.Publisher), nil
}

func tokenUser(ctx context.Context, c *forgejo.Client, _ tool.Args) (string, error) {
	u, resp, err := c.SDK(ctx).GetMyUserInfo()
	if err := forgejo.Fail(resp, err, "get", "the token's user"); err != nil {
		return "", err
	}
	return u.UserName, nil
}

// siteReach is every site administration tool's: it acts on the site
// (accounts, every repository's hooks and runners, directories on disk),
// so a server limited to some repositories refuses it.
var siteReach = tool.Reach{Kind: tool.ReachUnknown,
	Why: "site administration acts on the whole site (its users, hooks, runners and repositories on disk), beyond any repository scope"}

// withTrust gives each tool of defs its entry of the tables above.
func withTrust(defs []tool.Def) []tool.Def {
	for i := range defs {
		if r, ok := reachOf(defs[i].Name); ok {
			defs[i].Reach = r
		} else if defs[i].Toolset.ID == admin.Toolset.ID {
			defs[i].Reach = siteReach
		}
		defs[i].TextBy = textByOf(defs[i].Name)
	}
	return defs
}
