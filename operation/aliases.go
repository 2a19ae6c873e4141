package operation

import "codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"

// compatAliases is the one compatibility table: parameter spellings of the
// established Forgejo MCP server that differ from ours, and the tools that
// accept each. Scripts and prompts written for that server keep working:
// Parse reads an alias as its parameter, refuses both at once, and nothing
// advertises an alias (tools/list, --help, README and the schema snapshot
// show only our names). A tool takes an alias only where it has the
// parameter the alias stands for; TestAliasTable checks every entry.
var compatAliases = []struct {
	alias, param string
	tools        []string
}{
	{"filePath", "path", []string{"get_file_content", "create_file", "update_file", "delete_file", "list_repo_contents", "list_repo_commits"}},
	{"branch_name", "branch", []string{"create_branch", "create_file", "update_file", "delete_file", "list_workflow_runs"}},
	{"old_branch", "from", []string{"create_branch"}},
	{"start_line", "from_line", []string{"get_file_content"}},
	{"end_line", "to_line", []string{"get_file_content"}},
	{"keyword", "query", []string{"search_issues", "list_repo_issues", "search_repos", "search_users", "search_org_teams"}},
	{"q", "query", []string{"search_issues", "list_repo_issues", "search_repos", "search_users", "search_org_teams"}},
	{"id", "hook_id", []string{"get_repo_hook", "edit_repo_hook", "delete_repo_hook", "test_repo_hook"}},
	{"url", "target_url", []string{"create_repo_hook", "edit_repo_hook"}},
	{"target_commitish", "target", []string{"create_release", "edit_release"}},
	{"depends_on_index", "dependency", []string{"add_issue_dependency", "remove_issue_dependency"}},
	{"time_id", "entry_id", []string{"delete_issue_time_entry"}},
	{"id", "review_id", []string{"get_pull_review", "submit_pull_review", "dismiss_pull_review", "delete_pull_review", "list_pull_review_comments"}},
	{"state", "event", []string{"create_pull_review", "submit_pull_review"}},
	{"user", "owner", []string{"fork_repo"}},
	// Renamed to the word the other tools use for the same thing.
	{"sha", "ref", []string{"create_commit_status"}},
	{"tag_name", "tag", []string{"create_tag"}},
	// Renamed here: --cli's --all pages through any list.
	{"all", "include_read", []string{"check_notifications", "list_repo_notifications"}},
}

// Aliases returns the compatibility table as tool name → alias → parameter.
func Aliases() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, a := range compatAliases {
		for _, name := range a.tools {
			if out[name] == nil {
				out[name] = map[string]string{}
			}
			out[name][a.alias] = a.param
		}
	}
	return out
}

// withAliases gives each tool of defs its hidden aliases.
func withAliases(defs []tool.Def) []tool.Def {
	table := Aliases()
	for i := range defs {
		if a := table[defs[i].Name]; a != nil {
			defs[i].Aliases = a
		}
	}
	return defs
}
