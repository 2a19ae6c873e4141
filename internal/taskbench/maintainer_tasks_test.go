package taskbench_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/stretchr/testify/require"
)

// The maintainer's tasks of issue 29, item 4, each scripted the shortest
// way the tools allow for an agent that sees the default selection and
// finds the rest with search_tools, ending with a check of its answer.
var maintainerTasks = []struct {
	name string
	run  func(s *session, fx *maintainerFixture)
}{
	{"set a CI secret and a variable, dispatch a workflow with inputs", ciSetUp},
	{"add a collaborator with write access and check it", addWriter},
	{"set a repository's topics and archive it", topicsAndArchive},
	{"set up a push mirror and sync it", pushMirror},
	{"protect release tags", protectTags},
	{"find the PR of a commit and whether it merged", commitPull},
	{"apply a diff on a new branch, open a PR with a label and a reviewer", diffToPull},
	{"grep a repository for a string", grepRepo},
	{"list what changed in the last day", lastDay},
}

func (fx *maintainerFixture) args(kv ...any) map[string]any {
	out := map[string]any{"owner": fx.owner, "repo": fx.repo}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func ciSetUp(s *session, fx *maintainerFixture) {
	s.use("actions secret", "upsert_repo_action_secret", fx.args("name", "DEPLOY_KEY", "value", "s3cr3t-value"))
	s.use("actions variable", "create_repo_action_variable", fx.args("name", "REGION", "value", "eu-west"))
	wf := s.use("workflow inputs", "get_workflow", fx.args("workflow", fx.workflow))
	require.Contains(s.t, wf, "version")
	out := s.use("dispatch workflow", "dispatch_workflow", fx.args("workflow", fx.workflow, "ref", "main",
		"inputs", map[string]any{"version": "1.4.0", "dry_run": "false"}))
	require.NotContains(s.t, out, "s3cr3t-value")
}

func addWriter(s *session, fx *maintainerFixture) {
	require.NotEmpty(s.t, fx.other, "the test forge has a second user")
	s.use("add collaborator", "add_collaborator", fx.args("user", fx.other, "permission", "write"))
	perm := s.use("collaborator permission", "get_collaborator_permission", fx.args("user", fx.other))
	require.Contains(s.t, perm, "write")
}

func topicsAndArchive(s *session, fx *maintainerFixture) {
	s.use("repository topics", "set_repo_topics", fx.args("topics", []any{"storage", "go"}))
	out := s.use("archive repository settings", "edit_repo", fx.args("archived", true))
	require.Contains(s.t, out, `"archived":true`)
}

func pushMirror(s *session, fx *maintainerFixture) {
	remote := fmt.Sprintf("%s/%s/%s.git", fx.f.URL, fx.owner, fx.mirrorRepo)
	s.use("push mirror", "add_push_mirror", fx.args("remote_address", remote, "remote_username", fx.f.User,
		"remote_password", fx.f.Token, "interval", "8h"))
	s.use("sync push mirror", "sync_push_mirrors", fx.args())
}

func protectTags(s *session, fx *maintainerFixture) {
	out := s.use("tag protection", "create_tag_protection", fx.args("name_pattern", "v*", "users", []any{fx.f.User}))
	require.Contains(s.t, out, "v*")
}

func commitPull(s *session, fx *maintainerFixture) {
	out := s.use("pull request of a commit", "get_commit_pull_request", fx.args("sha", fx.mergedSHA))
	require.Contains(s.t, out, fmt.Sprintf(`"number":%d`, fx.mergedPull))
	require.Contains(s.t, out, `"merged":true`)
}

func diffToPull(s *session, fx *maintainerFixture) {
	diff := "diff --git a/store/get17.go b/store/get17.go\n--- a/store/get17.go\n+++ b/store/get17.go\n" +
		"@@ -4,3 +4,2 @@ func Get17() int { return 17 }\n func Get17() int { return 17 }\n \n-// " + grepMarker + "\n"
	s.use("apply diff patch", "apply_diff_patch", fx.args("diff", diff, "new_branch", "drop-v1", "message", "Drop the v1 fallback note"))
	args := fx.args("head", "drop-v1", "base", "main", "title", "Drop the v1 fallback note", "labels", []any{fx.label})
	if fx.other != "" {
		args["reviewers"] = []any{fx.other}
	}
	out := s.use("create pull request", "create_pull_request", args)
	require.NotContains(s.t, out, "incomplete")
}

func grepRepo(s *session, fx *maintainerFixture) {
	out := s.use("search code grep", "search_repo_content", fx.args("query", "FIXME(maintainer)"))
	require.Contains(s.t, out, "store/get17.go")
}

func lastDay(s *session, fx *maintainerFixture) {
	out := s.use("repository activity", "list_repo_activity", fx.args("date", time.Now().UTC().Format("2006-01-02")))
	require.True(s.t, strings.Contains(out, "merge") || strings.Contains(out, "commit"), out)
}
