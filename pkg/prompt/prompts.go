package prompt

import (
	"fmt"
	"strings"
)

// All returns the prompts the server offers.
func All() []Def {
	return []Def{triageIssue(), reviewPull(), readAttachments(), releaseNotes()}
}

// steps keeps the steps whose tools are all offered; a step naming no
// tool is always kept. Each step is (text, tools...).
func steps(has func(string) bool, list ...[]string) []string {
	var out []string
	for _, s := range list {
		ok := true
		for _, t := range s[1:] {
			ok = ok && has(t)
		}
		if ok {
			out = append(out, s[0])
		}
	}
	return out
}

func step(text string, tools ...string) []string { return append([]string{text}, tools...) }

func ref(a Values) string { return a["owner"] + "/" + a["repo"] }

// repoCall shows a call of tool on the prompt's repository.
func repoCall(tool string, a Values, extra ...string) string {
	args := []string{fmt.Sprintf("owner=%q", a["owner"]), fmt.Sprintf("repo=%q", a["repo"])}
	return tool + "(" + strings.Join(append(args, extra...), ", ") + ")"
}

// call shows a call of tool on the prompt's issue or pull request.
func call(tool string, a Values) string { return repoCall(tool, a, "index="+a["index"]) }

func triageIssue() Def {
	return Def{
		Name: "triage_issue", Title: "Triage an issue",
		Description: "Read an issue and its discussion, then propose labels, a milestone, duplicates and a next step",
		Args:        []Arg{owner(), repo(), index("Issue")},
		Steps: func(a Values, has func(string) bool) []string {
			return steps(has,
				step(fmt.Sprintf("You are triaging issue %s#%s. Do not change anything on the forge until the user agrees with your proposal.", ref(a), a["index"])),
				step("Read the issue with "+call("get_issue_by_index", a)+" (or the resource forgejo://"+ref(a)+"/issues/"+a["index"]+", which includes its comments).", "get_issue_by_index"),
				step("Read the discussion with "+call("list_issue_comments", a)+".", "list_issue_comments"),
				step("If it has attachments (screenshots, logs), list them with "+call("list_issue_attachments", a)+" and read the relevant ones with download_issue_attachment.", "list_issue_attachments", "download_issue_attachment"),
				step("See which labels exist with "+repoCall("list_repo_labels", a)+" and which milestones with list_repo_milestones.", "list_repo_labels", "list_repo_milestones"),
				step("Look for duplicates with search_issues (a few distinctive words from the title) or list_repo_issues.", "search_issues", "list_repo_issues"),
				step("Answer with: a one-paragraph summary; its kind (bug, feature, question, support); severity; the labels and milestone you propose; likely duplicates with their numbers; what information is missing; and the next step. Once the user agrees, apply labels with add_issue_labels and comment with create_issue_comment.", "add_issue_labels", "create_issue_comment"),
			)
		},
	}
}

func reviewPull() Def {
	return Def{
		Name: "review_pull_request", Title: "Review a pull request",
		Description: "Read a pull request, its changed files and diff, and write a review",
		Args:        []Arg{owner(), repo(), index("Pull request")},
		Steps: func(a Values, has func(string) bool) []string {
			return steps(has,
				step(fmt.Sprintf("You are reviewing pull request %s#%s.", ref(a), a["index"])),
				step("Read its description and branches with "+call("get_pull_request_by_index", a)+".", "get_pull_request_by_index"),
				step("List the changed files with "+call("list_pull_request_files", a)+".", "list_pull_request_files"),
				step("Read the diff with "+call("get_pull_request_diff", a)+"; when it returns next_offset, call it again with that offset until the whole diff is read.", "get_pull_request_diff"),
				step("Where the diff lacks context, read the files at the head branch with get_file_content (path, ref).", "get_file_content"),
				step("Read earlier discussion with "+call("list_issue_comments", a)+".", "list_issue_comments"),
				step("Write the review: what the change does, correctness problems (with file and line), missing tests, security concerns, and smaller suggestions; end with approve, comment or request changes. Post it only when the user asks you to."),
			)
		},
	}
}

func readAttachments() Def {
	return Def{
		Name: "read_issue_attachments", Title: "Read an issue's attachments",
		Description: "Read the files attached to an issue and its comments (PDFs, screenshots, logs) and summarise them",
		Args:        []Arg{owner(), repo(), index("Issue")},
		Steps: func(a Values, has func(string) bool) []string {
			return steps(has,
				step(fmt.Sprintf("You are reading the files attached to issue %s#%s and to its comments.", ref(a), a["index"])),
				step("List the issue's own attachments with "+call("list_issue_attachments", a)+".", "list_issue_attachments"),
				step("List the comments with "+call("list_issue_comments", a)+", then each comment's attachments with list_comment_attachments (owner, repo, comment_id).", "list_issue_comments", "list_comment_attachments"),
				step("Download each file with download_issue_attachment or download_comment_attachment: a file up to 1 MiB comes back whole; a larger one in windows (offset, max_bytes, following next_offset). A screenshot comes back as an image you can look at; a PDF or text file as its bytes (and text where the server extracts it). The same bytes can be read again by the resource URI the download returns (forgejo://…/attachments/{attachment_id}).", "download_issue_attachment"),
				step("Summarise each file: its name and kind, what it shows or says, and how it bears on the issue. Say which files you could not read and why."),
			)
		},
	}
}

func releaseNotes() Def {
	return Def{
		Name: "draft_release_notes", Title: "Draft release notes since a tag",
		Description: "Collect the changes since a tag (commits and merged pull requests) and draft release notes",
		Args: []Arg{owner(), repo(),
			{"since_tag", "The previous release's tag; changes after it are described", tagPattern, "a tag name (letters, digits, '.', '_', '-', '+', '/')", 100}},
		Steps: func(a Values, has func(string) bool) []string {
			tag := a["since_tag"]
			return steps(has,
				step(fmt.Sprintf("You are drafting release notes for %s: the changes since tag %q.", ref(a), tag)),
				step("Find that release and its date with "+repoCall("get_release_by_tag", a, fmt.Sprintf("tag=%q", tag))+".", "get_release_by_tag"),
				step("Compare the tag with the default branch with "+repoCall("compare_commits", a, fmt.Sprintf("base=%q", tag), `head="<default branch>"`)+" to get the commits since it.", "compare_commits"),
				step("Or list the commits with "+repoCall("list_repo_commits", a)+", page by page, until you reach the tagged commit.", "list_repo_commits"),
				step("List pull requests merged since then with "+repoCall("list_repo_pull_requests", a, `state="closed"`)+" (keep those merged after the tag's date) and read any unclear one with get_pull_request_by_index.", "list_repo_pull_requests"),
				step("Draft the notes in Markdown: a one-line summary, then sections Added, Changed, Fixed (and Security or Breaking changes when there are any), each item one line naming its pull request (#N). Leave out merge commits and pure refactoring. Do not create the release unless the user asks you to."),
			)
		},
	}
}
