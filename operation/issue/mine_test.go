package issue_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// found is an issue as the forge's cross-repository search answers it.
func found(repo string, number int, created string, pull bool) map[string]any {
	i := map[string]any{"number": number, "title": fmt.Sprintf("%s#%d", repo, number), "state": "open",
		"user": map[string]any{"login": "me"}, "created_at": created, "updated_at": "2026-04-01T00:00:00Z",
		"html_url": fmt.Sprintf("http://x/%s/issues/%d", repo, number), "repository": map[string]any{"full_name": repo}}
	if pull {
		i["pull_request"] = map[string]any{"merged": false}
	}
	return i
}

// TestListMyIssues: the user's work across repositories in one call: what
// they created, what is assigned to them and the pull requests awaiting
// their review, each once with the ways it is theirs, newest first as the
// forges answer, so that a merge of the first pages is exact.
func TestListMyIssues(t *testing.T) {
	f := fakeforge.New(t)
	mine := map[string][]any{
		"created":          {found("me/a", 1, "2026-03-01T00:00:00Z", false), found("me/a", 2, "2026-03-05T00:00:00Z", true)},
		"assigned":         {found("me/a", 1, "2026-03-01T00:00:00Z", false), found("org/b", 7, "2026-03-03T00:00:00Z", false)},
		"review_requested": {found("org/b", 9, "2026-03-04T00:00:00Z", true)},
	}
	f.Handle("GET /api/v1/repos/issues/search", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		for way, list := range mine {
			if q.Get(way) == "true" {
				n, _ := strconv.Atoi(q.Get("limit"))
				fakeforge.WriteJSON(w, http.StatusOK, list[:min(n, len(list))])
				return
			}
		}
		fakeforge.WriteJSON(w, http.StatusOK, []any{})
	})
	type item struct {
		Repo   string   `json:"repo"`
		Number int      `json:"number"`
		IsPull bool     `json:"is_pull"`
		Via    []string `json:"via"`
	}
	call := func(args map[string]any) ([]item, bool, []url.Values) {
		t.Helper()
		before := len(f.Requests())
		res := f.Call(t, issue.Tools(), "list_my_issues", args)
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var page struct {
			Items   []item `json:"items"`
			HasMore bool   `json:"has_more"`
		}
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
		var qs []url.Values
		for _, r := range f.Requests()[before:] {
			q, _ := url.ParseQuery(r.RawQuery)
			qs = append(qs, q)
		}
		return page.Items, page.HasMore, qs
	}

	items, more, qs := call(map[string]any{})
	assert.Equal(t, []item{
		{"me/a", 2, true, []string{"created"}},
		{"org/b", 9, true, []string{"review_requested"}},
		{"org/b", 7, false, []string{"assigned"}},
		{"me/a", 1, false, []string{"created", "assigned"}},
	}, items, "each once, newest first")
	assert.False(t, more)
	require.Len(t, qs, 3, "one search per way")
	for _, q := range qs {
		assert.Equal(t, "open", q.Get("state"))
		assert.Equal(t, "21", q.Get("limit"), "one more than limit: whether more follow")
	}
	assert.Equal(t, "pulls", qs[2].Get("type"), "review requests are pull requests")

	items, _, qs = call(map[string]any{"type": "issues"})
	require.Len(t, qs, 2, "no review requests among issues")
	assert.Equal(t, "issues", qs[0].Get("type"))
	assert.Len(t, items, 3, "created and assigned (the fake does not filter by type: the forge does)")

	_, _, qs = call(map[string]any{"involved": "review_requested", "state": "all"})
	require.Len(t, qs, 1)
	assert.Equal(t, "true", qs[0].Get("review_requested"))
	assert.Equal(t, "all", qs[0].Get("state"))

	items, more, qs = call(map[string]any{"limit": 2})
	assert.Equal(t, []item{
		{"me/a", 2, true, []string{"created"}},
		{"org/b", 9, true, []string{"review_requested"}},
	}, items, "the newest two of the union")
	assert.True(t, more, "more than the limit: has_more")
	assert.Equal(t, "3", qs[0].Get("limit"))

	_, _, qs = call(map[string]any{"limit": 50})
	assert.Equal(t, "50", qs[0].Get("limit"), "never more than the forge's page")
}

// TestListMyIssuesErrors: a failing search is an error result naming what
// was asked, never a partial list passed off as the whole.
func TestListMyIssuesErrors(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/issues/search", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("assigned") == "true" {
			fakeforge.WriteJSON(w, http.StatusForbidden, map[string]any{"message": "token does not have at least one of required scope(s): [read:issue]"})
			return
		}
		fakeforge.WriteJSON(w, http.StatusOK, []any{found("me/a", 1, "2026-03-01T00:00:00Z", false)})
	})
	res := f.Call(t, issue.Tools(), "list_my_issues", map[string]any{})
	require.True(t, res.IsError)
	text := fakeforge.Text(t, res)
	assert.Contains(t, text, "your issues (assigned)")
	assert.Contains(t, text, "read:issue")
	assert.NotContains(t, text, "me/a#1")

	before := len(f.Requests())
	res = f.Call(t, issue.Tools(), "list_my_issues", map[string]any{"involved": "review_requested", "type": "issues"})
	require.True(t, res.IsError, "nothing can match: an error, not an empty list")
	assert.Contains(t, fakeforge.Text(t, res), "use type pulls")
	assert.Len(t, f.Requests(), before, "no forge call")

	res = f.Call(t, issue.Tools(), "list_my_issues", map[string]any{"involved": "everything"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "review_requested", "the error lists the values")
}
