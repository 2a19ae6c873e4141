package taskbench_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stretchr/testify/require"
)

// The five tasks, each as an agent that knows the server's tools would do
// it: the shortest way the server offers, found from its tools/list (a tool
// or parameter present or not), so one script measures a server from before
// a feature and one from after. Each ends by checking it got the answer.

type task struct {
	name string
	run  func(s *session, fx *fixture)
}

var tasks = []task{
	{"find my PR and why its CI failed", findFailingPull},
	{"review a PR: three line comments in two rounds", reviewInTwoRounds},
	{"list my assigned issues with their labels", myAssignedIssues},
	{"edit one line of a file and open a PR", editLineAndOpenPull},
	{"read the tail of a failed job", failedJobTail},
}

type pullItem struct {
	Number  int64  `json:"number"`
	Head    string `json:"head"`
	HeadSHA string `json:"head_sha"`
}

// myPull finds the agent's pull request by its branch.
func myPull(s *session, fx *fixture) pullItem {
	repo := map[string]any{"owner": fx.owner, "repo": fx.repo}
	var page struct {
		Items   []pullItem `json:"items"`
		HasMore bool       `json:"has_more"`
	}
	if s.hasParam("list_repo_pull_requests", "head") {
		decode(s.t, s.call("list_repo_pull_requests", with(repo, "head", fx.branch)), &page)
		require.Len(s.t, page.Items, 1)
		return page.Items[0]
	}
	for p := 1; ; p++ {
		decode(s.t, s.call("list_repo_pull_requests", with(repo, "state", "open", "limit", 50, "page", p)), &page)
		for _, it := range page.Items {
			if it.Head == fx.branch {
				return it
			}
		}
		require.True(s.t, page.HasMore, "no pull request from %s", fx.branch)
	}
}

func findFailingPull(s *session, fx *fixture) {
	pr := myPull(s, fx)
	require.Equal(s.t, fx.pull, pr.Number)
	repo := map[string]any{"owner": fx.owner, "repo": fx.repo}
	if s.has("get_ci_status") { // statuses, runs and failed jobs' log ends at once
		require.Contains(s.t, s.call("get_ci_status", with(repo, "index", pr.Number)), failureLine)
		return
	}
	// The failing check, then the failed job and why it failed.
	status := s.call("get_commit_status", with(repo, "ref", pr.HeadSHA))
	require.Contains(s.t, status, "TestParseNested")
	jobID := failedJob(s, fx, pr.HeadSHA)
	require.Contains(s.t, jobLogTail(s, fx, jobID), failureLine)
}

// failedJob finds the failed job of the branch's run at sha.
func failedJob(s *session, fx *fixture, sha string) int64 {
	repo := map[string]any{"owner": fx.owner, "repo": fx.repo}
	var runs struct {
		Items []struct {
			ID     int64  `json:"id"`
			SHA    string `json:"sha"`
			Status string `json:"status"`
		} `json:"items"`
	}
	decode(s.t, s.call("list_workflow_runs", with(repo, "branch", fx.branch, "status", "failure")), &runs)
	i := slices.IndexFunc(runs.Items, func(r struct {
		ID     int64  `json:"id"`
		SHA    string `json:"sha"`
		Status string `json:"status"`
	}) bool {
		return r.SHA == sha
	})
	require.GreaterOrEqual(s.t, i, 0, "no failed run at %s", sha)
	var jobs struct {
		Items []struct {
			ID         int64  `json:"id"`
			Status     string `json:"status"`
			Conclusion string `json:"conclusion"`
		} `json:"items"`
	}
	decode(s.t, s.call("list_action_run_jobs", with(repo, "run_id", runs.Items[i].ID)), &jobs)
	for _, j := range jobs.Items {
		if j.Status == "failure" || j.Conclusion == "failure" {
			return j.ID
		}
	}
	s.t.Fatalf("no failed job in run %d", runs.Items[i].ID)
	return 0
}

// jobLogTail reads a job log's last lines: at once where the tool reads
// the tail, else window after window to the end.
func jobLogTail(s *session, fx *fixture, jobID int64) string {
	args := map[string]any{"owner": fx.owner, "repo": fx.repo, "job_id": jobID}
	if s.hasParam("get_action_job_logs", "tail_lines") {
		return s.call("get_action_job_logs", with(args, "tail_lines", 50))
	}
	var last string
	for offset := int64(0); ; {
		text := s.call("get_action_job_logs", with(args, "offset", offset))
		var w struct {
			Next *int64 `json:"next_offset"`
		}
		decode(s.t, text, &w)
		last = text
		if w.Next == nil {
			return last
		}
		offset = *w.Next
	}
}

// failedJobTail reads the end of the failed job of the agent's branch.
func failedJobTail(s *session, fx *fixture) {
	if s.has("get_ci_status") {
		var ci struct {
			FailedJobs []struct {
				ID int64 `json:"id"`
			} `json:"failed_jobs"`
		}
		text := s.call("get_ci_status", map[string]any{"owner": fx.owner, "repo": fx.repo, "ref": fx.branch})
		if strings.Contains(text, failureLine) {
			return
		}
		decode(s.t, text, &ci)
		require.NotEmpty(s.t, ci.FailedJobs, text)
		require.Contains(s.t, jobLogTail(s, fx, ci.FailedJobs[0].ID), failureLine)
		return
	}
	require.Contains(s.t, jobLogTail(s, fx, failedJob(s, fx, fx.headSHA)), failureLine)
}

// reviewInTwoRounds reviews the agent's pull request: two line comments,
// then a third on a second look. Where a review can grow, the three are
// one review; else the second round is a review of its own.
func reviewInTwoRounds(s *session, fx *fixture) {
	pr := map[string]any{"owner": fx.owner, "repo": fx.repo, "index": fx.pull}
	diff := s.call("get_pull_request_diff", pr)
	require.Contains(s.t, diff, "Step7")
	first := []any{
		map[string]any{"path": "parser/parse.go", "new_line": 22, "body": "Why [1:] here?"},
		map[string]any{"path": "parser/parse.go", "new_line": 94, "body": "Same question."},
	}
	third := []any{map[string]any{"path": "parser/parse.go", "old_line": 22, "body": "The old form was clearer."}}
	if !s.has("add_pull_review_comments") {
		s.call("create_pull_review", with(pr, "event", "COMMENT", "body", "First pass.", "comments", first))
		s.call("create_pull_review", with(pr, "event", "COMMENT", "body", "One more.", "comments", third))
		return
	}
	var draft struct {
		ID int64 `json:"id"`
	}
	decode(s.t, s.call("create_pull_review", with(pr, "event", "PENDING", "body", "Two questions, one remark.", "comments", first)), &draft)
	s.call("add_pull_review_comments", with(pr, "review_id", draft.ID, "comments", third))
	sent := s.call("submit_pull_review", with(pr, "review_id", draft.ID, "event", "COMMENT", "body", "Two questions, one remark."))
	require.Contains(s.t, sent, `"comments":3`)
}

func myAssignedIssues(s *session, fx *fixture) {
	repo := map[string]any{"owner": fx.owner, "repo": fx.repo}
	type item struct {
		Number    int64    `json:"number"`
		Labels    []string `json:"labels"`
		Assignees []string `json:"assignees"`
	}
	var page struct {
		Items   []item `json:"items"`
		HasMore bool   `json:"has_more"`
	}
	got := map[int64][]string{}
	if s.hasParam("list_repo_issues", "assignee") {
		decode(s.t, s.call("list_repo_issues", with(repo, "assignee", fx.me, "limit", 50)), &page)
		for _, it := range page.Items {
			got[it.Number] = it.Labels
		}
	} else {
		for p := 1; ; p++ {
			decode(s.t, s.call("list_repo_issues", with(repo, "limit", 50, "page", p)), &page)
			for _, it := range page.Items {
				if slices.Contains(it.Assignees, fx.me) {
					got[it.Number] = it.Labels
				}
			}
			if !page.HasMore {
				break
			}
		}
	}
	require.Equal(s.t, fx.assigned, got)
}

// editLineAndOpenPull changes timeout = 30 to 60 on a new branch and opens
// a pull request. The agent reads the file either way (it must know the
// line is there); where change_files edits in place it sends the line,
// else the whole file back.
func editLineAndOpenPull(s *session, fx *fixture) {
	repo := map[string]any{"owner": fx.owner, "repo": fx.repo}
	var file struct {
		SHA  string `json:"sha"`
		Text string `json:"text"`
	}
	decode(s.t, s.call("get_file_content", with(repo, "path", fx.config)), &file)
	require.Contains(s.t, file.Text, "timeout = 30\n")
	branch := fmt.Sprintf("timeout-%d", len(s.cost.Tools))
	op := map[string]any{"operation": "update", "path": fx.config, "sha": file.SHA,
		"content": strings.Replace(file.Text, "timeout = 30\n", "timeout = 60\n", 1)}
	if s.changeFilesReplaces() {
		op = map[string]any{"operation": "replace", "path": fx.config, "old": "timeout = 30\n", "content": "timeout = 60\n"}
	}
	s.call("change_files", with(repo, "new_branch", branch, "message", "Raise the HTTP timeout", "files", []any{op}))
	s.call("create_pull_request", with(repo, "head", branch, "base", "main", "title", "Raise the HTTP timeout to 60 s"))
}

// changeFilesReplaces says whether change_files has the replace operation.
func (s *session) changeFilesReplaces() bool {
	return s.has("change_files") && strings.Contains(s.schemaText("change_files"), `"replace"`)
}

// with is base plus key-value pairs.
func with(base map[string]any, kv ...any) map[string]any {
	m := make(map[string]any, len(base)+len(kv)/2)
	for k, v := range base {
		m[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}
