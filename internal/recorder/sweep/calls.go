package main

import (
	"context"
	"fmt"
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

	// The line comments to reply to and to delete, read as the sweep's own.
	var approvalComments, pendingComments []idOf
	r := fmt.Sprintf("/repos/%s/%s/pulls/%d/reviews", f.admin, f.repo, f.pull)
	if err := f.api(ctx, "(probe) user2's line comments", "GET", fmt.Sprintf("%s/%d/comments", r, f.approval), f.adminTok, nil, &approvalComments); err != nil {
		return err
	}
	if len(approvalComments) == 0 {
		return fmt.Errorf("user2's review %d has no line comment", f.approval)
	}

	calls := []struct {
		tool string
		args func() map[string]any
	}{
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
	}
	called := map[string]bool{}
	for _, c := range calls {
		if _, err := f.call(ctx, c.tool, c.args()); err != nil {
			return err
		}
		called[c.tool] = true
	}
	for _, name := range swept {
		if !called[name] {
			return fmt.Errorf("%s is in swept but was never called", name)
		}
	}
	return nil
}
