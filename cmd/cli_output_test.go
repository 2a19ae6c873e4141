package cmd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

// newFakeWithIssue is a fake forge with issue o/r#3, whose body holds a
// terminal escape sequence as a stranger's issue might; its author alice
// owns the public repository o/r, as the author marks find out.
func newFakeWithIssue(t *testing.T) *fakeforge.Server {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r", 200, map[string]any{"name": "r", "full_name": "o/r", "private": false, "owner": map[string]any{"login": "alice"}})
	f.JSON("GET /api/v1/repos/o/r/issues/3", 200, map[string]any{"number": 3, "title": "Export fails", "state": "open",
		"body": "Steps:\n1. export\n\x1b[2J2. boom", "user": map[string]any{"login": "alice"},
		"labels": []any{map[string]any{"name": "bug"}, map[string]any{"name": "ui"}}, "comments": 2,
		"created_at": "2026-11-30T22:00:00Z", "updated_at": "2026-12-01T08:30:00Z", "html_url": "https://forge.example/o/r/issues/3"})
	return f
}

// issuePages makes the fake answer list_repo_issues from total issues,
// page by page, with X-Total-Count as Forgejo sends it; it counts calls.
func issuePages(f *fakeforge.Server, total int, calls *int) {
	f.Handle("GET /api/v1/repos/o/r/issues", func(w http.ResponseWriter, r *http.Request) {
		*calls++
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		var list []map[string]any
		for n := total - (page-1)*limit; n > 0 && n > total-page*limit; n-- {
			list = append(list, map[string]any{"number": n, "title": fmt.Sprintf("Issue %d", n), "state": "open",
				"user": map[string]any{"login": "alice"}, "labels": []any{}, "created_at": "2026-11-30T22:00:00Z",
				"updated_at": "2026-11-30T22:00:00Z", "html_url": "https://forge.example/o/r/issues/" + strconv.Itoa(n)})
		}
		w.Header().Set("X-Total-Count", strconv.Itoa(total))
		fakeforge.WriteJSON(w, 200, list)
	})
}

// TestOutputForms: table for people (a list as a table with what comes
// next, one object as fields then its text, control characters escaped),
// json the result's JSON value, mcp the whole result, text as before.
func TestOutputForms(t *testing.T) {
	f := newFakeWithIssue(t)
	calls := 0
	issuePages(f, 5, &calls)
	env := fakeEnv(f)
	get := []string{"--cli", "get_issue_by_index", "--owner", "o", "--repo", "r", "--index", "3"}
	list := []string{"--cli", "list_repo_issues", "-R", "o/r", "--limit", "2"}

	r := runMain(t, env, "", append(list, "--output", "table")...)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Equal(t, "NUMBER  TITLE    STATE  AUTHOR         COMMENTS  UPDATED\n"+
		"5       Issue 5  open   alice (owner)  0         2026-11-30 22:00\n"+
		"4       Issue 4  open   alice (owner)  0         2026-11-30 22:00\n", r.out, "an author with their mark")
	assert.Equal(t, "More: --page 2, or --all for every page\n", r.err, "on standard error: the table alone can be piped on")

	r = runMain(t, env, "", append(get, "--output", "table")...)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Equal(t, "#3 Export fails\n"+
		"state     open\n"+
		"author    alice (owner)\n"+
		"labels    bug, ui\n"+
		"comments  2\n"+
		"created   2026-11-30 22:00\n"+
		"updated   2026-12-01 08:30\n"+
		"url       https://forge.example/o/r/issues/3\n"+
		"\n"+
		"Steps:\n1. export\n\\u001b[2J2. boom\n", r.out)
	assert.NotContains(t, r.out, "\x1b", "no escape sequence reaches the terminal")

	r = runMain(t, env, "", append(get, "--output", "json")...)
	require.Equal(t, ExitOK, r.code, r.err)
	var issue map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.out), &issue), r.out)
	assert.Equal(t, "Export fails", issue["title"])

	r = runMain(t, env, "", append(get, "--output", "mcp")...)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Contains(t, r.out, `"structuredContent": {`)
	assert.Contains(t, r.out, `"type": "text"`)

	r = runMain(t, env, "", append(get, "--output", "text")...)
	require.Equal(t, ExitOK, r.code, r.err)
	assert.True(t, strings.HasPrefix(r.out, "{\n  \"number\": 3,"), r.out)

	for _, output := range []string{"table", "json", "text"} {
		r = runMain(t, env, "", "--cli", "get_issue_by_index", "-R", "o/r", "--index", "4", "--output", output)
		assert.Equal(t, ExitToolError, r.code, output)
		assert.Empty(t, r.out, "an error goes to standard error in %s", output)
		assert.Contains(t, r.err, "issue o/r#4 not found (404)", output)
	}
}

// TestOutputPullRequestChecks: a pull request for people shows its state
// and its head commit's checks (a second call, only in this form).
func TestOutputPullRequestChecks(t *testing.T) {
	f := fakeforge.New(t)
	sha := strings.Repeat("ab", 20)
	f.JSON("GET /api/v1/repos/o/r/pulls/7", 200, map[string]any{"number": 7, "title": "Faster export", "state": "open",
		"mergeable": true, "body": "Closes #3", "user": map[string]any{"login": "bob"},
		"head": map[string]any{"ref": "fast", "sha": sha, "repo": map[string]any{"full_name": "o/r"}},
		"base": map[string]any{"ref": "main", "repo": map[string]any{"full_name": "o/r"}}, "html_url": "https://forge.example/o/r/pulls/7"})
	f.JSON("GET /api/v1/repos/o/r/commits/"+sha+"/status", 200, map[string]any{"state": "failure", "sha": sha, "total_count": 2,
		"statuses": []any{
			map[string]any{"context": "ci/build", "status": "success", "description": "built", "updated_at": "2026-12-01T08:00:00Z"},
			map[string]any{"context": "ci/test", "status": "failure", "description": "2 failed", "updated_at": "2026-12-01T08:05:00Z"}}})
	r := runMain(t, fakeEnv(f), "", "--cli", "get_pull_request_by_index", "-R", "o/r", "--index", "7", "--output", "table")
	require.Equal(t, ExitOK, r.code, r.err)
	assert.Contains(t, r.out, "#7 Faster export\nstate      open\n")
	assert.Contains(t, r.out, "mergeable  yes\n")
	assert.Contains(t, r.out, "\nCloses #3\n")
	assert.Regexp(t, `\nchecks: failure\n  CONTEXT +STATE +DESCRIPTION +UPDATED\n  ci/build +success +built +2026-12-01 08:00\n  ci/test +failure +2 failed`, r.out)

	r = runMain(t, fakeEnv(f), "", "--cli", "get_pull_request_by_index", "-R", "o/r", "--index", "7", "--output", "json")
	require.Equal(t, ExitOK, r.code, r.err)
	assert.NotContains(t, r.out, "checks", "the JSON forms are the tool's result alone")
}

// TestAll: --all follows has_more at the largest page size and answers
// one page of every item; it stops at its bound and says how to go on, and
// a page failing half-way is an error, not a short list.
func TestAll(t *testing.T) {
	t.Run("every page", func(t *testing.T) {
		f := fakeforge.New(t)
		calls := 0
		issuePages(f, 7, &calls)
		r := runMain(t, fakeEnv(f), "", "--cli", "list_repo_issues", "-R", "o/r", "--limit", "3", "--all", "--output", "json")
		require.Equal(t, ExitOK, r.code, r.err)
		var page struct {
			Items []struct {
				Number int `json:"number"`
			} `json:"items"`
			Page    int  `json:"page"`
			HasMore bool `json:"has_more"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.out), &page), r.out)
		assert.Len(t, page.Items, 7)
		assert.Equal(t, 7, page.Items[0].Number)
		assert.Equal(t, 1, page.Items[6].Number)
		assert.Equal(t, 1, page.Page)
		assert.False(t, page.HasMore)
		assert.Equal(t, 3, calls)
		assert.Empty(t, r.err)
	})
	t.Run("largest page size", func(t *testing.T) {
		f := fakeforge.New(t)
		calls := 0
		issuePages(f, 120, &calls)
		r := runMain(t, fakeEnv(f), "", "--cli", "list_repo_issues", "-R", "o/r", "--all", "--output", "table")
		require.Equal(t, ExitOK, r.code, r.err)
		assert.Equal(t, 3, calls, "50 a page")
		assert.Equal(t, 121, strings.Count(r.out, "\n"), "a header and 120 rows")
		pages := f.RequestsTo("GET", "/api/v1/repos/o/r/issues")
		require.NotEmpty(t, pages)
		q, err := url.ParseQuery(pages[len(pages)-1].RawQuery)
		require.NoError(t, err)
		assert.Equal(t, "50", q.Get("limit"))
	})
	t.Run("bound", func(t *testing.T) {
		f := fakeforge.New(t)
		calls := 0
		issuePages(f, 2500, &calls)
		r := runMain(t, fakeEnv(f), "", "--cli", "list_repo_issues", "-R", "o/r", "--all")
		require.Equal(t, ExitOK, r.code, r.err)
		assert.Equal(t, 20, calls)
		assert.Contains(t, r.err, "--all: stopped at 1000 items (page 20); more remain: --page 21 --limit 50 continues")
		assert.Contains(t, r.out, `"has_more": true`)
	})
	t.Run("a page fails", func(t *testing.T) {
		f := fakeforge.New(t)
		inner := 0
		f.Handle("GET /api/v1/repos/o/r/issues", func(w http.ResponseWriter, r *http.Request) {
			inner++
			if inner == 2 {
				fakeforge.WriteJSON(w, 500, map[string]any{"message": "database is locked"})
				return
			}
			w.Header().Set("X-Total-Count", "7")
			fakeforge.WriteJSON(w, 200, []map[string]any{{"number": 7, "title": "x", "state": "open", "user": map[string]any{"login": "a"}}})
		})
		r := runMain(t, fakeEnv(f), "", "--cli", "list_repo_issues", "-R", "o/r", "--limit", "1", "--all")
		assert.Equal(t, ExitToolError, r.code)
		assert.Contains(t, r.err, "--all: page 2 failed after 1 items")
		assert.Empty(t, r.out)
	})
}
