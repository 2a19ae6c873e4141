package main

import (
	"context"
	"fmt"
)

// ownerSwept are issue 29's webhooks of organisations and users, forks,
// pins, subscriptions, stars and blocked users.
var ownerSwept = []string{
	"create_org_hook", "list_org_hooks", "get_org_hook", "edit_org_hook", "delete_org_hook",
	"create_my_hook", "list_my_hooks", "get_my_hook", "edit_my_hook", "delete_my_hook",
	"list_repo_forks", "get_fork_sync_status", "sync_fork",
	"pin_issue", "list_pinned_issues", "move_issue_pin", "unpin_issue",
	"watch_repo", "check_repo_watch", "list_my_watched_repos", "list_repo_watchers", "unwatch_repo",
	"subscribe_issue", "check_issue_subscription", "list_issue_subscribers", "unsubscribe_issue",
	"star_repo", "check_repo_star", "list_starred_repos", "list_repo_stargazers", "unstar_repo",
	"block_user", "list_blocked_users", "unblock_user",
}

// ownerCalls are the calls of ownerSwept. A hook's ID is read, as a
// probe, when its call is made; the fork the sync tools act on is made
// first, in the organisation.
func (f *forge) ownerCalls(ctx context.Context) ([]sweepCall, error) {
	const fork = "sweep-fork"
	if err := f.api(ctx, "(probe) a fork to sync", "POST", fmt.Sprintf("/repos/%s/%s/forks", f.admin, f.repo), f.adminTok,
		map[string]any{"organization": f.org, "name": fork}, nil); err != nil {
		return nil, err
	}
	// The user to block: not user2, whom the organisation's team holds (a
	// member cannot be blocked from it).
	const blockee = "sweep-blockee"
	if err := f.api(ctx, "(probe) a user to block", "POST", "/admin/users", f.adminTok, map[string]any{"username": blockee,
		"email": blockee + "@example.com", "password": "sweep-Passw0rd!", "must_change_password": false}, nil); err != nil {
		return nil, err
	}
	repo := map[string]any{"owner": f.admin, "repo": f.repo}
	onIssue := func(extra map[string]any) func() map[string]any {
		return func() map[string]any {
			out := map[string]any{"owner": f.admin, "repo": f.repo, "index": f.issue}
			for k, v := range extra {
				out[k] = v
			}
			return out
		}
	}
	var calls []sweepCall
	for _, h := range []struct {
		kind, route string
		args        map[string]any
	}{{"org", "/orgs/" + f.org + "/hooks", map[string]any{"org": f.org}}, {"my", "/user/hooks", map[string]any{}}} {
		with := func(extra map[string]any) map[string]any {
			out := map[string]any{}
			for k, v := range h.args {
				out[k] = v
			}
			for k, v := range extra {
				out[k] = v
			}
			return out
		}
		hook := func(extra map[string]any) func() map[string]any {
			return func() map[string]any {
				var hooks []idOf
				if err := f.api(ctx, "(probe) the sweep's "+h.kind+" hook", "GET", h.route, f.adminTok, nil, &hooks); err != nil || len(hooks) == 0 {
					extra["hook_id"] = 1
				} else {
					extra["hook_id"] = hooks[0].ID
				}
				return with(extra)
			}
		}
		calls = append(calls,
			sweepCall{"create_" + h.kind + "_hook", func() map[string]any {
				return with(map[string]any{"target_url": "http://hooks.example.com/sweep", "secret": "sweep-secret",
					"events": []any{"push"}, "branch_filter": "main"})
			}},
			sweepCall{"list_" + h.kind + "_hooks", func() map[string]any { return with(nil) }},
			sweepCall{"list_" + h.kind + "_hooks", func() map[string]any { return with(map[string]any{"limit": 1}) }},
			sweepCall{"get_" + h.kind + "_hook", hook(map[string]any{})},
			sweepCall{"edit_" + h.kind + "_hook", hook(map[string]any{"active": false})},
			sweepCall{"delete_" + h.kind + "_hook", hook(map[string]any{})},
		)
	}
	onFork := func() map[string]any { return map[string]any{"owner": f.org, "repo": fork} }
	blocked := func(extra map[string]any) func() map[string]any {
		return func() map[string]any {
			out := map[string]any{"username": blockee}
			for k, v := range extra {
				out[k] = v
			}
			return out
		}
	}
	calls = append(calls,
		sweepCall{"list_repo_forks", func() map[string]any { return repo }},
		sweepCall{"get_fork_sync_status", onFork},
		sweepCall{"sync_fork", onFork},
		sweepCall{"pin_issue", onIssue(nil)},
		sweepCall{"list_pinned_issues", func() map[string]any { return repo }},
		sweepCall{"list_pinned_issues", func() map[string]any { return map[string]any{"owner": f.admin, "repo": f.repo, "kind": "pulls"} }},
		sweepCall{"move_issue_pin", onIssue(map[string]any{"position": 1})},
		sweepCall{"unpin_issue", onIssue(nil)},
		sweepCall{"watch_repo", func() map[string]any { return repo }},
		sweepCall{"check_repo_watch", func() map[string]any { return repo }},
		sweepCall{"list_my_watched_repos", func() map[string]any { return map[string]any{} }},
		sweepCall{"list_my_watched_repos", func() map[string]any { return map[string]any{"limit": 1} }},
		sweepCall{"list_repo_watchers", func() map[string]any { return repo }},
		sweepCall{"unwatch_repo", func() map[string]any { return repo }},
		sweepCall{"subscribe_issue", onIssue(nil)},
		sweepCall{"check_issue_subscription", onIssue(nil)},
		sweepCall{"list_issue_subscribers", onIssue(nil)},
		sweepCall{"unsubscribe_issue", onIssue(nil)},
		sweepCall{"star_repo", func() map[string]any { return repo }},
		sweepCall{"check_repo_star", func() map[string]any { return repo }},
		sweepCall{"list_starred_repos", func() map[string]any { return map[string]any{} }},
		sweepCall{"list_starred_repos", func() map[string]any { return map[string]any{"user": f.admin, "limit": 1} }},
		sweepCall{"list_repo_stargazers", func() map[string]any { return repo }},
		sweepCall{"unstar_repo", func() map[string]any { return repo }},
		sweepCall{"block_user", blocked(nil)},
		sweepCall{"list_blocked_users", func() map[string]any { return map[string]any{} }},
		sweepCall{"unblock_user", blocked(nil)},
		sweepCall{"block_user", blocked(map[string]any{"org": f.org})},
		sweepCall{"list_blocked_users", func() map[string]any { return map[string]any{"org": f.org} }},
		sweepCall{"unblock_user", blocked(map[string]any{"org": f.org})},
	)
	return calls, nil
}
