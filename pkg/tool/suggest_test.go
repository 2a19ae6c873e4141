package tool_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestSuggest(t *testing.T) {
	names := []string{"get_issue_comment", "get_issue_attachment", "get_issue_by_index", "list_repo_issues", "create_issue",
		"create_issue_comment", "list_my_repos", "get_file_content", "search_repos", "get_pull_request_by_index", "get_pull_request_diff"}
	tests := []struct{ in, want string }{
		{"get_isue_by_index", "get_issue_by_index"},  // a typo
		{"Get-Issue-By-Index", "get_issue_by_index"}, // case and dashes
		{"issue_create", "create_issue"},             // words in another order
		{"create_isue", "create_issue"},              // a typo in a short name
		{"list_issues", "list_repo_issues"},          // a word left out, plural
		{"get_issue", "get_issue_by_index"},          // the same thing, by its index (not its comment)
		{"get_pr", "get_pull_request_by_index"},      // a synonym
		{"get_issues_comments", "get_issue_comment"}, // plurals
		{"list_issue", "list_repo_issues"},           // singular for plural
		{"get_comment", "get_issue_comment"},         // words in order
		{"get_file", "get_file_content"},             // words in order
		{"search_repositories", "search_repos"},      // a synonym, plural
		{"delete_everything", ""},                    // nothing close
		{"", ""},                                     // nothing to match
		{string(make([]byte, 200)), ""},              // too long to compare
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, tool.Suggest(tt.in, names))
		})
	}
}
