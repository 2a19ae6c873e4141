package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// swept are the tools this sweep records: the fifteen added after the
// first sweep, and get_ci_status, which that sweep answered only with
// other tools' exchanges.
var swept = []string{
	"list_user_repos", "list_org_repos", "list_team_members", "list_team_repos",
	"list_assignee_candidates", "list_reviewer_candidates",
	"add_issue_reaction", "list_issue_reactions", "remove_issue_reaction",
	"add_pull_review_comments", "reply_to_pull_review_comment", "delete_pull_review_comment",
	"undismiss_pull_review", "update_pull_request_branch", "cancel_auto_merge", "get_ci_status",
	// Issue 29: a repository's Actions secrets and variables.
	"upsert_repo_action_secret", "list_repo_action_secrets", "delete_repo_action_secret",
	"create_repo_action_variable", "get_repo_action_variable", "list_repo_action_variables",
	"update_repo_action_variable", "delete_repo_action_variable",
	// Issue 29, round 2: an organisation's and the user's.
	"upsert_org_action_secret", "list_org_action_secrets", "delete_org_action_secret",
	"create_org_action_variable", "get_org_action_variable", "list_org_action_variables",
	"update_org_action_variable", "delete_org_action_variable",
	"upsert_my_action_secret", "delete_my_action_secret",
	"create_my_action_variable", "get_my_action_variable", "list_my_action_variables",
	"update_my_action_variable", "delete_my_action_variable",
	"list_workflows", "get_workflow", "disable_workflow", "enable_workflow", "dispatch_workflow",
	// Not the registration token and register_*_runner: their answers hold
	// a live runner secret, which the recorder would not redact.
	"list_repo_runners", "list_org_runners", "list_my_runners",
	"search_repo_runner_jobs", "search_org_runner_jobs", "search_my_runner_jobs",
	"list_packages", "get_package", "list_package_files", "link_package", "unlink_package", "delete_package",
	"list_package_versions", "get_latest_package_version",
	"list_action_tasks",
	// Issue 29: repository administration (operation/repoadmin). Transfers
	// to accept or reject need a second user's session, and migrate_repo's
	// token would reach the recording: they are left to the live tests.
	"edit_repo", "set_repo_topics", "add_repo_topic", "list_repo_topics", "remove_repo_topic",
	"add_collaborator", "check_collaborator", "get_collaborator_permission", "remove_collaborator",
	"add_repo_team", "check_repo_team", "list_repo_teams", "remove_repo_team",
	"create_deploy_key", "get_deploy_key", "list_deploy_keys", "delete_deploy_key",
	"create_tag_protection", "get_tag_protection", "edit_tag_protection", "list_tag_protections", "delete_tag_protection",
	"add_push_mirror", "list_push_mirrors", "sync_push_mirrors", "delete_push_mirror", "sync_mirror",
	"create_repo_from_template", "transfer_repo", "delete_repo", "convert_mirror_repo",
}

// sweepCall is one tool call of the sweep, its arguments made when it runs.
type sweepCall struct {
	tool string
	args func() map[string]any
}

// sweep calls every tool in swept at least once; list tools also with
// limit 1, to record the paging headers.
func (f *forge) sweep(ctx context.Context) error {
	repo := map[string]any{"owner": f.admin, "repo": f.repo}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{"owner": f.admin, "repo": f.repo}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	onIssue := func(extra map[string]any) map[string]any { extra["index"] = f.issue; return with(extra) }
	onPull := func(extra map[string]any) map[string]any { extra["index"] = f.pull; return with(extra) }
	onOrg := func(extra map[string]any) map[string]any { extra["org"] = f.org; return extra }
	onPackage := func(extra map[string]any) map[string]any {
		extra["owner"], extra["type"], extra["name"] = f.admin, "generic", "sweep-pkg"
		return extra
	}

	// The line comments to reply to and to delete, read as the sweep's own.
	var approvalComments, pendingComments []idOf
	r := fmt.Sprintf("/repos/%s/%s/pulls/%d/reviews", f.admin, f.repo, f.pull)
	if err := f.api(ctx, "(probe) user2's line comments", "GET", fmt.Sprintf("%s/%d/comments", r, f.approval), f.adminTok, nil, &approvalComments); err != nil {
		return err
	}
	if len(approvalComments) == 0 {
		return fmt.Errorf("user2's review %d has no line comment", f.approval)
	}

	calls := []sweepCall{
		{"list_user_repos", func() map[string]any { return map[string]any{"user": f.admin} }},
		{"list_user_repos", func() map[string]any { return map[string]any{"user": f.admin, "limit": 1} }},
		{"list_org_repos", func() map[string]any { return map[string]any{"org": f.org} }},
		{"list_org_repos", func() map[string]any { return map[string]any{"org": f.org, "limit": 1} }},
		{"list_team_members", func() map[string]any { return map[string]any{"team_id": f.teamID} }},
		{"list_team_members", func() map[string]any { return map[string]any{"team_id": f.teamID, "limit": 1} }},
		{"list_team_repos", func() map[string]any { return map[string]any{"team_id": f.teamID} }},
		{"list_assignee_candidates", func() map[string]any { return repo }},
		{"list_reviewer_candidates", func() map[string]any { return repo }},
		{"add_issue_reaction", func() map[string]any { return onIssue(map[string]any{"reaction": "+1"}) }},
		{"add_issue_reaction", func() map[string]any { return onIssue(map[string]any{"reaction": "heart"}) }},
		{"add_issue_reaction", func() map[string]any { return onIssue(map[string]any{"reaction": "laugh", "comment_id": f.comment}) }},
		{"list_issue_reactions", func() map[string]any { return onIssue(map[string]any{}) }},
		{"list_issue_reactions", func() map[string]any { return onIssue(map[string]any{"limit": 1}) }},
		{"list_issue_reactions", func() map[string]any { return onIssue(map[string]any{"comment_id": f.comment}) }},
		{"remove_issue_reaction", func() map[string]any { return onIssue(map[string]any{"reaction": "heart"}) }},
		{"remove_issue_reaction", func() map[string]any { return onIssue(map[string]any{"reaction": "laugh", "comment_id": f.comment}) }},
		{"add_pull_review_comments", func() map[string]any {
			return onPull(map[string]any{"review_id": f.pending, "comments": []any{
				map[string]any{"path": "feature.txt", "new_line": 3, "body": "third line"},
				map[string]any{"path": "feature.txt", "new_line": 2, "body": "second line"}}})
		}},
		{"reply_to_pull_review_comment", func() map[string]any {
			return onPull(map[string]any{"review_id": f.approval, "comment_id": approvalComments[0].ID, "body": "a reply"})
		}},
		{"delete_pull_review_comment", func() map[string]any {
			if err := f.api(ctx, "(probe) the pending review's line comments", "GET", fmt.Sprintf("%s/%d/comments", r, f.pending), f.adminTok, nil, &pendingComments); err != nil || len(pendingComments) == 0 {
				return onPull(map[string]any{"review_id": f.pending, "comment_id": 0})
			}
			return onPull(map[string]any{"review_id": f.pending, "comment_id": pendingComments[len(pendingComments)-1].ID})
		}},
		{"undismiss_pull_review", func() map[string]any { return onPull(map[string]any{"review_id": f.approval}) }},
		{"get_ci_status", func() map[string]any { return onPull(map[string]any{}) }},
		{"get_ci_status", func() map[string]any { return with(map[string]any{"ref": "feature"}) }},
		{"update_pull_request_branch", func() map[string]any { return onPull(map[string]any{}) }},
		{"cancel_auto_merge", func() map[string]any { return with(map[string]any{"index": f.auto}) }},
		{"upsert_repo_action_secret", func() map[string]any { return with(map[string]any{"name": "SWEEP_SECRET", "value": "sweep-value"}) }},
		{"upsert_repo_action_secret", func() map[string]any { return with(map[string]any{"name": "SWEEP_SECRET", "value": "sweep-value-2"}) }},
		{"list_repo_action_secrets", func() map[string]any { return repo }},
		{"list_repo_action_secrets", func() map[string]any { return with(map[string]any{"limit": 1}) }},
		{"delete_repo_action_secret", func() map[string]any { return with(map[string]any{"name": "SWEEP_SECRET"}) }},
		{"create_repo_action_variable", func() map[string]any { return with(map[string]any{"name": "SWEEP_VAR", "value": "one"}) }},
		{"get_repo_action_variable", func() map[string]any { return with(map[string]any{"name": "SWEEP_VAR"}) }},
		{"update_repo_action_variable", func() map[string]any { return with(map[string]any{"name": "SWEEP_VAR", "value": "two"}) }},
		{"list_repo_action_variables", func() map[string]any { return repo }},
		{"list_repo_action_variables", func() map[string]any { return with(map[string]any{"limit": 1}) }},
		{"delete_repo_action_variable", func() map[string]any { return with(map[string]any{"name": "SWEEP_VAR"}) }},
		{"upsert_org_action_secret", func() map[string]any { return onOrg(map[string]any{"name": "SWEEP_SECRET", "value": "sweep-value"}) }},
		{"list_org_action_secrets", func() map[string]any { return onOrg(map[string]any{}) }},
		{"list_org_action_secrets", func() map[string]any { return onOrg(map[string]any{"limit": 1}) }},
		{"delete_org_action_secret", func() map[string]any { return onOrg(map[string]any{"name": "SWEEP_SECRET"}) }},
		{"create_org_action_variable", func() map[string]any { return onOrg(map[string]any{"name": "SWEEP_VAR", "value": "one"}) }},
		{"get_org_action_variable", func() map[string]any { return onOrg(map[string]any{"name": "SWEEP_VAR"}) }},
		{"update_org_action_variable", func() map[string]any { return onOrg(map[string]any{"name": "SWEEP_VAR", "value": "two"}) }},
		{"list_org_action_variables", func() map[string]any { return onOrg(map[string]any{}) }},
		{"list_org_action_variables", func() map[string]any { return onOrg(map[string]any{"limit": 1}) }},
		{"delete_org_action_variable", func() map[string]any { return onOrg(map[string]any{"name": "SWEEP_VAR"}) }},
		{"upsert_my_action_secret", func() map[string]any { return map[string]any{"name": "SWEEP_SECRET", "value": "sweep-value"} }},
		{"delete_my_action_secret", func() map[string]any { return map[string]any{"name": "SWEEP_SECRET"} }},
		{"create_my_action_variable", func() map[string]any { return map[string]any{"name": "SWEEP_VAR", "value": "one"} }},
		{"get_my_action_variable", func() map[string]any { return map[string]any{"name": "SWEEP_VAR"} }},
		{"update_my_action_variable", func() map[string]any { return map[string]any{"name": "SWEEP_VAR", "value": "two"} }},
		{"list_my_action_variables", func() map[string]any { return map[string]any{} }},
		{"list_my_action_variables", func() map[string]any { return map[string]any{"limit": 1} }},
		{"delete_my_action_variable", func() map[string]any { return map[string]any{"name": "SWEEP_VAR"} }},
		{"list_repo_runners", func() map[string]any { return repo }},
		{"list_org_runners", func() map[string]any { return onOrg(map[string]any{}) }},
		{"list_my_runners", func() map[string]any { return map[string]any{} }},
		{"search_repo_runner_jobs", func() map[string]any { return with(map[string]any{"labels": "no-such-runner"}) }},
		{"search_org_runner_jobs", func() map[string]any { return onOrg(map[string]any{}) }},
		{"search_my_runner_jobs", func() map[string]any { return map[string]any{} }},
		{"list_packages", func() map[string]any { return map[string]any{"owner": f.admin} }},
		{"list_packages", func() map[string]any { return map[string]any{"owner": f.admin, "type": "generic", "limit": 1} }},
		{"get_package", func() map[string]any { return onPackage(map[string]any{"package_version": "1.0.0"}) }},
		{"list_package_files", func() map[string]any { return onPackage(map[string]any{"package_version": "1.0.0"}) }},
		{"link_package", func() map[string]any { return onPackage(map[string]any{"repo": f.repo}) }},
		{"unlink_package", func() map[string]any { return onPackage(map[string]any{}) }},
		{"list_package_versions", func() map[string]any { return onPackage(map[string]any{}) }},
		{"list_package_versions", func() map[string]any { return onPackage(map[string]any{"limit": 1}) }},
		{"get_latest_package_version", func() map[string]any { return onPackage(map[string]any{}) }},
		{"delete_package", func() map[string]any { return onPackage(map[string]any{"package_version": "1.0.0"}) }},
		{"list_action_tasks", func() map[string]any { return repo }},
		{"list_action_tasks", func() map[string]any { return with(map[string]any{"limit": 1}) }},
		{"list_workflows", func() map[string]any { return repo }},
		{"list_workflows", func() map[string]any { return with(map[string]any{"ref": "main"}) }},
		{"get_workflow", func() map[string]any { return with(map[string]any{"workflow": "sweep.yml"}) }},
		{"disable_workflow", func() map[string]any { return with(map[string]any{"workflow": "sweep.yml"}) }},
		{"enable_workflow", func() map[string]any { return with(map[string]any{"workflow": "sweep.yml"}) }},
		{"dispatch_workflow", func() map[string]any {
			return with(map[string]any{"workflow": "sweep.yml", "ref": "main", "inputs": map[string]any{"level": "info"}})
		}},
		{"apply_diff_patch", func() map[string]any {
			return with(map[string]any{"new_branch": "sweep-patch", "message": "Sweep: a diff",
				"diff": "diff --git a/SWEEP.md b/SWEEP.md\nnew file mode 100644\n--- /dev/null\n+++ b/SWEEP.md\n@@ -0,0 +1 @@\n+swept\n"})
		}},
		{"replace_issue_labels", func() map[string]any { return onIssue(map[string]any{"labels": []any{}}) }},
		{"delete_issue", func() map[string]any { return with(map[string]any{"index": f.auto + 1000}) }},
		{"list_repo_comments", func() map[string]any { return repo }},
		{"list_repo_comments", func() map[string]any { return with(map[string]any{"limit": 1}) }},
		{"list_repo_activity", func() map[string]any { return repo }},
		{"list_repo_activity", func() map[string]any { return with(map[string]any{"limit": 1}) }},
		{"get_commit_pull_request", func() map[string]any {
			// update_pull_request_branch moved the head: read it now.
			var pull idOf
			if err := f.api(ctx, "(probe) the pull request's head now", "GET", fmt.Sprintf("/repos/%s/%s/pulls/%d", f.admin, f.repo, f.pull),
				f.adminTok, nil, &pull); err != nil || pull.Head.SHA == "" {
				return with(map[string]any{"sha": f.pullHead})
			}
			return with(map[string]any{"sha": pull.Head.SHA})
		}},
		{"search_repo_content", func() map[string]any { return with(map[string]any{"query": "swept", "ref": "sweep-patch"}) }},
	}
	// last is the previous call's result, for calls that need an id it gave.
	var last json.RawMessage
	calls = append(calls, f.repoAdminCalls(with, repo, &last)...)
	more, err := f.ownerCalls(ctx)
	if err != nil {
		return err
	}
	calls = append(append(calls, more...), f.runnerCalls(ctx)...)
	called := map[string]bool{}
	for _, c := range calls {
		raw, err := f.call(ctx, c.tool, c.args())
		if err != nil {
			return err
		}
		last = raw
		called[c.tool] = true
	}
	for _, name := range slices.Concat(swept, ownerSwept, runnerSwept) {
		if !called[name] {
			return fmt.Errorf("%s is in swept but was never called", name)
		}
	}
	return nil
}
