package pull_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

var rawRepo = map[string]any{"id": 9, "name": "r", "full_name": "o/r", "owner": map[string]any{"login": "o"}}

var rawPull = map[string]any{
	"id": 51, "number": 4, "title": "Fix crash", "body": "Fixes #3.", "state": "open", "mergeable": true, "merged": false,
	"user": map[string]any{"login": "alice", "avatar_url": "http://x/a"}, "comments": 1,
	"labels":   []any{map[string]any{"id": 1, "name": "bug", "color": "f00"}},
	"head":     map[string]any{"label": "fix", "ref": "fix", "sha": "c0ffee", "repo_id": 9, "repo": rawRepo},
	"base":     map[string]any{"label": "main", "ref": "main", "sha": "beef", "repo_id": 9, "repo": rawRepo},
	"html_url": "http://x/o/r/pulls/4", "diff_url": "http://x/o/r/pulls/4.diff", "patch_url": "http://x/o/r/pulls/4.patch",
	"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-03T03:04:05Z",
}

func TestGetAndListPulls(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, rawPull)
	f.Handle("GET /api/v1/repos/o/r/pulls", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Total-Count", "3")
		fakeforge.WriteJSON(w, 200, []any{rawPull, rawPull})
	})
	res := f.Call(t, pull.Tools(), "get_pull_request_by_index", map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"number":4,"title":"Fix crash","state":"open","mergeable":true,"body":"Fixes #3.","author":"alice",
		"head":"fix","base":"main","head_sha":"c0ffee","labels":["bug"],"comments":1,
		"created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-03T03:04:05Z","html_url":"http://x/o/r/pulls/4"}`, fakeforge.Text(t, res))

	res = f.Call(t, pull.Tools(), "list_repo_pull_requests", map[string]any{"owner": "o", "repo": "r", "state": "all", "limit": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var page struct {
		Items   []map[string]any `json:"items"`
		HasMore bool             `json:"has_more"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &page))
	assert.Len(t, page.Items, 2)
	assert.True(t, page.HasMore)
	assert.NotContains(t, page.Items[0], "body", "lists leave bodies out")
	assert.Contains(t, f.Requests()[1].RawQuery, "state=all")

	res = f.Call(t, pull.Tools(), "get_pull_request_by_index", map[string]any{"owner": "o", "repo": "r", "index": 99.0})
	assert.True(t, res.IsError)
	assert.Equal(t, "pull request o/r#99 not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}

func TestCreatePull(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/pulls", 201, rawPull)
	res := f.Call(t, pull.Tools(), "create_pull_request", map[string]any{"owner": "o", "repo": "r", "head": "fix", "base": "main", "title": "Fix crash", "body": "Fixes #3."})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"number":4`)
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, "fix", sent["head"])
	assert.Equal(t, "main", sent["base"])
	assert.Equal(t, "Fixes #3.", sent["body"])

	f2 := fakeforge.New(t)
	f2.JSON("POST /api/v1/repos/o/r/pulls", 409, map[string]string{"message": "pull request already exists for these targets"})
	res = f2.Call(t, pull.Tools(), "create_pull_request", map[string]any{"owner": "o", "repo": "r", "head": "fix", "base": "main", "title": "t"})
	assert.True(t, res.IsError)
	assert.Equal(t, "open a pull request from fix into main in o/r: conflict (409), it may already exist: pull request already exists for these targets",
		fakeforge.Text(t, res), "without the open one, the forge's words")

	// The forge's 409 names internal ids; the open pull request is looked
	// up by its branches (the head as the rest of the path) and named.
	f3 := fakeforge.New(t)
	f3.JSON("POST /api/v1/repos/o/r/pulls", 409, map[string]string{"message": "pull request already exists for these targets [id: 1, issue_id: 2, head_repo_id: 13, base_repo_id: 13, head_branch: fix/crash, base_branch: main]"})
	f3.JSON("GET /api/v1/repos/o/r/pulls/main/fix/crash", 200, rawPull)
	res = f3.Call(t, pull.Tools(), "create_pull_request", map[string]any{"owner": "o", "repo": "r", "head": "fix/crash", "base": "main", "title": "t"})
	assert.True(t, res.IsError)
	assert.Equal(t, `open a pull request from fix/crash into main in o/r: one is already open between these branches (409): #4 "Fix crash", http://x/o/r/pulls/4; `+
		"get_pull_request_by_index or update_pull_request take it from here, and a push to fix/crash updates it", fakeforge.Text(t, res))
}

type diffResult struct {
	Diff       string `json:"diff"`
	Offset     int64  `json:"offset"`
	NextOffset int64  `json:"next_offset"`
	Note       string `json:"note"`
}

func TestGetDiffBounded(t *testing.T) {
	line := "+" + strings.Repeat("x", 99) + "\n"                // 100 bytes
	diff := "diff --git a/f b/f\n" + strings.Repeat(line, 3000) // ~300 KB
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/pulls/4.diff", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(diff)) // no Range support, like the forge
	})
	call := func(args map[string]any) diffResult {
		t.Helper()
		res := f.Call(t, pull.Tools(), "get_pull_request_diff", args)
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var d diffResult
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &d))
		return d
	}
	d := call(map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	assert.LessOrEqual(t, tool.JSONLen(d.Diff), tool.TextBudget)
	assert.True(t, strings.HasSuffix(d.Diff, "\n"), "cut at a line end")
	assert.Equal(t, int64(len(d.Diff)), d.NextOffset)
	assert.Contains(t, d.Note, "read on with offset=")
	assert.Contains(t, d.Note, "this window ends in f; list_pull_request_files lists the files")

	whole := d.Diff
	for d.NextOffset > 0 {
		d = call(map[string]any{"owner": "o", "repo": "r", "index": 4.0, "offset": float64(d.NextOffset)})
		whole += d.Diff
	}
	assert.Equal(t, diff, whole, "the windows give the whole diff")
	assert.Empty(t, d.Note)

	d = call(map[string]any{"owner": "o", "repo": "r", "index": 4.0, "max_bytes": float64(tool.MaxDiffBytes)})
	assert.Equal(t, diff[:d.NextOffset], d.Diff, "a larger window when asked")
	assert.Greater(t, len(d.Diff), 200000)
	d = call(map[string]any{"owner": "o", "repo": "r", "index": 4.0, "path": "f", "offset": 100.0})
	assert.Equal(t, diff[100:100+len(d.Diff)], d.Diff, "one file's part, from an offset in it")

	res := f.Call(t, pull.Tools(), "get_pull_request_diff", map[string]any{"owner": "o", "repo": "r", "index": 5.0})
	assert.True(t, res.IsError)
	assert.Equal(t, "pull request o/r#5 not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}

func TestListFilesAndMerge(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/pulls/4/files", 200, []any{
		map[string]any{"filename": "b.go", "previous_filename": "a.go", "status": "renamed", "additions": 2, "deletions": 1, "changes": 3,
			"html_url": "http://x", "contents_url": "http://x", "raw_url": "http://x"},
	})
	merged := map[string]any{}
	for k, v := range rawPull {
		merged[k] = v
	}
	merged["state"], merged["merged"], merged["merge_commit_sha"], merged["merged_at"] = "closed", true, "m3rg3", "2026-01-05T00:00:00Z"
	f.Handle("POST /api/v1/repos/o/r/pulls/4/merge", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, merged)

	res := f.Call(t, pull.Tools(), "list_pull_request_files", map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"filename":"b.go","previous_filename":"a.go","status":"renamed","additions":2,"deletions":1}],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0, "style": "squash", "head_sha": "c0ffee"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"merged":true`)
	assert.Contains(t, fakeforge.Text(t, res), `"merge_commit_sha":"m3rg3"`)
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[1].Body, &sent))
	assert.Equal(t, map[string]any{"Do": "squash", "head_commit_id": "c0ffee"}, sent)

	f2 := fakeforge.New(t)
	f2.JSON("POST /api/v1/repos/o/r/pulls/4/merge", 405, map[string]string{"message": "The PR is already merged"})
	res = f2.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	assert.True(t, res.IsError)
	assert.Equal(t, "merge pull request o/r#4: the forge refused the request (405 Method Not Allowed): The PR is already merged", fakeforge.Text(t, res))
	assert.Len(t, f2.Requests(), 1, "no retry, no follow-up read after a refused merge")
}

func TestMergeWaitsForTheForgeToCheck(t *testing.T) {
	defer pull.FastMergeRetries()()
	f := fakeforge.New(t)
	tries := 0
	f.Handle("POST /api/v1/repos/o/r/pulls/4/merge", func(w http.ResponseWriter, r *http.Request) {
		tries++
		if tries < 3 {
			fakeforge.WriteJSON(w, 405, map[string]string{"message": "Please try again later"})
			return
		}
		w.WriteHeader(200)
	})
	f.JSON("GET /api/v1/repos/o/r/pulls/4", 200, rawPull)
	res := f.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Equal(t, 3, tries)

	f2 := fakeforge.New(t)
	f2.JSON("POST /api/v1/repos/o/r/pulls/4/merge", 405, map[string]string{"message": "Please try again later"})
	res = f2.Call(t, pull.Tools(), "merge_pull_request", map[string]any{"owner": "o", "repo": "r", "index": 4.0})
	assert.True(t, res.IsError)
	assert.Equal(t, "merge pull request o/r#4: the forge refused the request (405 Method Not Allowed): Please try again later; "+
		"the forge is still checking whether it can merge, retry in a few seconds", fakeforge.Text(t, res))
	assert.Len(t, f2.Requests(), 5, "bounded retries")
}
