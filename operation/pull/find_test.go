package pull_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

// fakePull is a pull request of o/r (repository 9) numbered n, from branch
// head of repository headRepo owned by headOwner.
func fakePull(n int, head string, headRepo int, headOwner, sha string, labels ...string) map[string]any {
	ls := []any{}
	for i, l := range labels {
		ls = append(ls, map[string]any{"id": i + 1, "name": l})
	}
	return map[string]any{"number": n, "title": fmt.Sprintf("PR %d", n), "state": "open",
		"user":   map[string]any{"login": "alice"},
		"labels": ls,
		"head": map[string]any{"label": head, "ref": head, "sha": sha, "repo_id": headRepo,
			"repo": map[string]any{"id": headRepo, "owner": map[string]any{"login": headOwner}}},
		"base":     map[string]any{"label": "main", "ref": "main", "repo_id": 9},
		"html_url": fmt.Sprintf("http://x/o/r/pulls/%d", n)}
}

// servePulls answers the PR list from all, paged by the request's page and
// limit, ignoring every filter (as Gitea does with head, and Forgejo 13
// with base).
func servePulls(f *fakeforge.Server, all []map[string]any) {
	f.Handle("GET /api/v1/repos/o/r/pulls", func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		from := min((page-1)*limit, len(all))
		fakeforge.WriteJSON(w, 200, all[from:min(from+limit, len(all))])
	})
}

func numbers(t *testing.T, text string) ([]int, bool, string) {
	t.Helper()
	var page struct {
		Items []struct {
			Number int `json:"number"`
		} `json:"items"`
		HasMore bool   `json:"has_more"`
		Note    string `json:"note"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &page), text)
	var out []int
	for _, i := range page.Items {
		out = append(out, i.Number)
	}
	return out, page.HasMore, page.Note
}

func TestFindPulls(t *testing.T) {
	var all []map[string]any
	for n := 200; n > 0; n-- { // newest first
		head, repo, owner := fmt.Sprintf("b%d", n), 9, "o"
		switch n {
		case 7:
			head, repo, owner = "fix", 12, "alice" // a fork's branch named like ours
		case 5:
			head = "fix"
		}
		all = append(all, fakePull(n, head, repo, owner, fmt.Sprintf("%06x%034x", n, 0), map[bool]string{true: "bug", false: "x"}[n%3 == 0]))
	}
	all[len(all)-3]["merge_commit_sha"] = "abcdef1234567" // PR 3 merged as this commit
	cases := []struct {
		name string
		args map[string]any
		want []int
		more bool
	}{
		{"same-repository branch", map[string]any{"head": "fix"}, []int{5}, false},
		{"a fork's branch", map[string]any{"head": "alice:fix"}, []int{7}, false},
		{"head commit, abbreviated", map[string]any{"sha": fmt.Sprintf("%06x%034x", 42, 0)[:12]}, []int{42}, false},
		{"merge commit", map[string]any{"sha": "ABCDEF1"}, []int{3}, false},
		{"base and head", map[string]any{"head": "b150", "base": "main"}, []int{150}, false},
		{"another base", map[string]any{"head": "b150", "base": "dev"}, nil, false},
		{"labels, second page", map[string]any{"labels": []any{"bug"}, "limit": 2.0, "page": 2.0}, []int{192, 189}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			servePulls(f, all)
			f.JSON("GET /api/v1/repos/o/r/labels", 200, []any{map[string]any{"id": 1, "name": "bug"}, map[string]any{"id": 2, "name": "x"}})
			f.JSON("GET /api/v1/orgs/o/labels", 200, []any{})
			args := map[string]any{"owner": "o", "repo": "r"}
			for k, v := range tc.args {
				args[k] = v
			}
			res := f.Call(t, pull.Tools(), "list_repo_pull_requests", args)
			require.False(t, res.IsError, fakeforge.Text(t, res))
			got, more, note := numbers(t, fakeforge.Text(t, res))
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.more, more)
			assert.Empty(t, note)
		})
	}
}

func TestFindPullsSendsTheForgesFilters(t *testing.T) {
	f := fakeforge.New(t)
	servePulls(f, []map[string]any{fakePull(4, "fix", 9, "o", "c0ffee")})
	res := f.Call(t, pull.Tools(), "list_repo_pull_requests", map[string]any{"owner": "o", "repo": "r",
		"head": "fix", "base": "main", "author": "alice", "milestone": 3.0, "sort": "oldest", "state": "all"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	q := f.LastQuery(t)
	for k, v := range map[string]string{"head": "fix", "base": "main", "base_branch": "main", "poster": "alice",
		"milestone": "3", "sort": "oldest", "state": "all", "limit": "50", "page": "1"} {
		assert.Equal(t, v, q.Get(k), k)
	}
	got, _, _ := numbers(t, fakeforge.Text(t, res))
	assert.Equal(t, []int{4}, got)

	// Without a filter checked here, one page as the forge pages it.
	res = f.Call(t, pull.Tools(), "list_repo_pull_requests", map[string]any{"owner": "o", "repo": "r", "author": "alice"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	q = f.LastQuery(t)
	assert.Equal(t, "20", q.Get("limit"))
	assert.Equal(t, "alice", q.Get("poster"))
	assert.Empty(t, q.Get("head"))

	// owner:branch stays out of the forge's head filter, which takes a
	// branch name.
	f.Call(t, pull.Tools(), "list_repo_pull_requests", map[string]any{"owner": "o", "repo": "r", "head": "alice:fix"})
	assert.Empty(t, f.LastQuery(t).Get("head"))
}

func TestFindPullsStopsAndSaysWhere(t *testing.T) {
	var all []map[string]any
	for n := 700; n > 0; n-- {
		all = append(all, fakePull(n, fmt.Sprintf("b%d", n), 9, "o", "aa"))
	}
	f := fakeforge.New(t)
	servePulls(f, all)
	res := f.Call(t, pull.Tools(), "list_repo_pull_requests", map[string]any{"owner": "o", "repo": "r", "head": "b3"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	got, more, note := numbers(t, fakeforge.Text(t, res))
	assert.Empty(t, got)
	assert.False(t, more, "another page would read the same pull requests")
	assert.Contains(t, note, "stopped after the 500 newest pull requests (state=open)")
	assert.Len(t, f.Requests(), 10)
}

func TestFindPullsRefusesBadFilters(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, pull.Tools(), "list_repo_pull_requests", map[string]any{"owner": "o", "repo": "r", "sha": "main"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "sha")
	assert.Empty(t, f.Requests())
}

// TestFindPullsSHABounds: a commit SHA is 7 to 64 hex digits.
func TestFindPullsSHABounds(t *testing.T) {
	def, ok := tool.Find(pull.Tools(), "list_repo_pull_requests")
	require.True(t, ok)
	for sha, ok := range map[string]bool{"abcdef0": true, strings.Repeat("a", 64): true,
		"abcdef": false, strings.Repeat("a", 65): false, "abcdefg": false} {
		_, err := def.Parse(map[string]any{"owner": "o", "repo": "r", "sha": sha})
		assert.Equal(t, ok, err == nil, "%s: %v", sha, err)
	}
}
