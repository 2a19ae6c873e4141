package operation_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// Descriptions are all an agent knows of a tool before calling it, so
// they must not name what the schema does not have: change_files listed
// "move" and "edit in place" beside its enum's create, update, delete and
// replace (issue 28, B.6).

var (
	// snakeWord is a parameter, tool or result field name.
	snakeWord = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b`)
	// capsWord is an enum value such as PENDING or REQUEST_CHANGES, or an
	// abbreviation.
	capsWord = regexp.MustCompile(`\b[A-Z][A-Z_]{2,}\b`)
	// wordList is an enumeration in prose: "create, update, delete or
	// replace", each word maybe followed by a parenthesis.
	wordList = regexp.MustCompile(`\b[A-Za-z_]+(?: \([^)]*\))?(?:(?:, (?:and |or )?| or | and )[A-Za-z_]+(?: \([^)]*\))?)+`)
	listItem = regexp.MustCompile(`(?:^|, (?:and |or )?| or | and )([A-Za-z_]+)`)
)

// Names a description may use that are neither a parameter nor a tool:
// result fields and the forge's own words.
var (
	knownSnake = []string{"next_offset", "auto_merge", "pull_request", "workflow_dispatch"}
	knownCaps  = []string{"LFS", "MIME", "MIT", "PDF", "README", "RFC", "SHA", "URL", "WIP"}
)

// texts returns d's description and those of its parameters and their
// item fields, with the parameters they belong to.
func texts(d tool.Def) (out []string, params []tool.Param) {
	out = append(out, d.Description)
	var walk func([]tool.Param)
	walk = func(ps []tool.Param) {
		for _, p := range ps {
			out, params = append(out, p.Description), append(params, p)
			if p.Items != nil {
				walk(p.Items.Fields)
			}
		}
	}
	walk(d.Params)
	return out, params
}

func TestDescriptionsNameWhatExists(t *testing.T) {
	all := operation.All()
	tools, enumValues := map[string]bool{}, map[string]bool{}
	for _, d := range all {
		tools[d.Name] = true
		_, params := texts(d)
		for _, p := range params {
			for _, v := range p.Enum {
				enumValues[v] = true
			}
		}
	}
	for _, d := range all {
		ts, params := texts(d)
		names := map[string]bool{}
		for _, p := range params {
			names[p.Name] = true
		}
		for _, s := range ts {
			for _, w := range snakeWord.FindAllString(s, -1) {
				assert.True(t, tools[w] || names[w] || slices.Contains(knownSnake, w),
					"%s: %q names %s, which is no tool, no parameter of it and no known result field", d.Name, s, w)
			}
			for _, w := range capsWord.FindAllString(s, -1) {
				assert.True(t, enumValues[w] || slices.Contains(knownCaps, w),
					"%s: %q names %s, which no parameter takes", d.Name, s, w)
			}
		}
		for _, p := range params {
			if len(p.Enum) == 0 {
				continue
			}
			for _, s := range ts {
				for _, bad := range strayListItems(s, p.Enum) {
					assert.Fail(t, "a description lists what the enum lacks",
						"%s: %q lists %q beside values of %s, whose enum is %v", d.Name, s, bad, p.Name, p.Enum)
				}
			}
		}
	}
}

// functionWords start prose after a comma rather than a list item.
var functionWords = []string{"a", "an", "the", "in", "on", "of", "to", "by", "for", "from", "with", "as", "at", "all", "each", "one"}

// strayListItems returns the words of an enumeration in s that lists at
// least two of enum's values but also words that are none of them.
func strayListItems(s string, enum []string) []string {
	var stray []string
	for _, list := range wordList.FindAllString(s, -1) {
		var in, out []string
		for _, m := range listItem.FindAllStringSubmatch(list, -1) {
			w := m[1]
			switch {
			case slices.ContainsFunc(enum, func(v string) bool { return strings.EqualFold(v, w) }):
				in = append(in, w)
			case slices.Contains(functionWords, strings.ToLower(w)):
				// "a diff or patch, in windows": prose, not a list item
			default:
				out = append(out, w)
			}
		}
		if len(in) >= 2 {
			stray = append(stray, out...)
		}
	}
	return stray
}

// TestStrayListItems: the check catches the description issue 28 found.
func TestStrayListItems(t *testing.T) {
	enum := []string{"create", "update", "delete", "replace"}
	assert.Equal(t, []string{"move", "edit"}, strayListItems("Create, update, move, delete or edit in place files in one commit: all or nothing", enum))
	assert.Empty(t, strayListItems("Change files in one commit, all or nothing: create, update (from_path: move), delete or replace (edit in place)", enum))
	assert.Empty(t, strayListItems("Issues, pull requests or both", enum), "a list of other words")
	assert.Empty(t, strayListItems("A commit's diff or patch, in windows or one file (path)", []string{"diff", "patch"}))
}

// TestSuggestOnTheInventory: the names agents reach for first lead to the
// tool they mean (issue 28, B.5: get_issue suggested get_issue_comment).
func TestSuggestOnTheInventory(t *testing.T) {
	var names []string
	for _, d := range operation.All() {
		names = append(names, d.Name)
	}
	for in, want := range map[string]string{
		"get_issue":           "get_issue_by_index",
		"get_pull_request":    "get_pull_request_by_index",
		"get_pr":              "get_pull_request_by_index",
		"create_pr":           "create_pull_request",
		"list_prs":            "list_repo_pull_requests",
		"list_issues":         "list_repo_issues",
		"get_file":            "get_file_content",
		"get_release":         "get_release_by_tag",
		"search_repositories": "search_repos",
		"get_isue_by_index":   "get_issue_by_index",
		"issue_create":        "create_issue",
	} {
		assert.Equal(t, want, tool.Suggest(in, names), in)
	}
}
