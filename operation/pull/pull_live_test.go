package pull_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// TestLivePullRequestWorkflow is the agent workflow end to end: branch,
// commit, open a pull request, read it, its files and diff, merge it.
func TestLivePullRequestWorkflow(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := append(repo.Tools(), pull.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	call("create_branch", map[string]any{"branch": "fix"})
	call("create_file", map[string]any{"path": "fix.txt", "content": "fixed\n", "message": "Add the fix", "branch": "fix"})

	text := call("create_pull_request", map[string]any{"head": "fix", "base": "main", "title": "Fix it", "body": "Fixes the thing."})
	var pr struct {
		Number  int64  `json:"number"`
		Head    string `json:"head"`
		Base    string `json:"base"`
		HeadSHA string `json:"head_sha"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &pr))
	assert.Equal(t, "fix", pr.Head)
	assert.Equal(t, "main", pr.Base)
	index := float64(pr.Number)

	text = call("get_pull_request_by_index", map[string]any{"index": index})
	assert.Contains(t, text, `"body":"Fixes the thing."`)
	assert.Contains(t, text, fmt.Sprintf(`"author":"%s"`, f.User))

	text = call("list_repo_pull_requests", map[string]any{})
	assert.Contains(t, text, `"title":"Fix it"`)
	assert.NotContains(t, text, "Fixes the thing.", "lists leave bodies out")

	text = call("list_pull_request_files", map[string]any{"index": index})
	assert.Contains(t, text, `{"filename":"fix.txt","status":"added","additions":1,"deletions":0}`)

	text = call("get_pull_request_diff", map[string]any{"index": index})
	var d struct {
		Diff       string `json:"diff"`
		NextOffset int64  `json:"next_offset"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &d))
	assert.Contains(t, d.Diff, "diff --git a/fix.txt b/fix.txt")
	assert.Contains(t, d.Diff, "+fixed")
	assert.Zero(t, d.NextOffset)

	res := f.Call(t, defs, "merge_pull_request", map[string]any{"owner": owner, "repo": name, "index": index, "head_sha": strings.Repeat("0", 40)})
	assert.True(t, res.IsError, "a moved head is refused: %s", fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("merge pull request %s/%s#%d", owner, name, pr.Number))

	text = call("merge_pull_request", map[string]any{"index": index, "style": "squash", "head_sha": pr.HeadSHA})
	assert.Contains(t, text, `"merged":true`)
	assert.Contains(t, text, `"state":"closed"`)
	text = call("get_file_content", map[string]any{"path": "fix.txt", "ref": "main"})
	assert.Contains(t, text, `"text":"fixed\n"`)

	res = f.Call(t, defs, "merge_pull_request", map[string]any{"owner": owner, "repo": name, "index": index})
	assert.True(t, res.IsError, "merging twice is refused")
	t.Logf("second merge: %s", fakeforge.Text(t, res))
}

func TestLivePullErrors(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := pull.Tools()
	res := f.Call(t, defs, "get_pull_request_by_index", map[string]any{"owner": owner, "repo": name, "index": 99.0})
	assert.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("pull request %s/%s#99 not found (404): it does not exist or this token cannot see it", owner, name), fakeforge.Text(t, res))

	res = f.Call(t, defs, "get_pull_request_diff", map[string]any{"owner": owner, "repo": name, "index": 99.0})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("pull request %s/%s#99 not found (404)", owner, name))

	res = f.Call(t, defs, "create_pull_request", map[string]any{"owner": owner, "repo": name, "head": "no-such-branch", "base": "main", "title": "x"})
	assert.True(t, res.IsError)
	if f.Identify(t).ForgejoUpTo(10) { // Forgejo 10 runs git on the missing branch and fails
		assert.Contains(t, fakeforge.Text(t, res), "open a pull request from no-such-branch into main in "+owner+"/"+name+
			": the forge failed (500 Internal Server Error): exit status 128: Stderr: fatal: bad revision 'refs/heads/main...no-such-branch'")
		return
	}
	assert.Equal(t, "open a pull request from no-such-branch into main in "+owner+"/"+name+
		": the repository or one of the branches does not exist (404), or this token cannot see it", fakeforge.Text(t, res))
}

// TestLivePullCorrectness: a pull request tool on an issue says so; a
// merge honours the title, message and branch deletion it is given.
func TestLivePullCorrectness(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := append(repo.Tools(), pull.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	issue := f.NewIssue(t, owner, name, "just an issue", "")
	for _, tl := range []string{"get_pull_request_by_index", "get_pull_request_diff", "list_pull_request_files", "merge_pull_request"} {
		res := f.Call(t, defs, tl, map[string]any{"owner": owner, "repo": name, "index": float64(issue)})
		require.True(t, res.IsError, tl)
		assert.Equal(t, fmt.Sprintf("%s/%s#%d is an issue, not a pull request: use get_issue_by_index and the other issue tools for it, or list_repo_pull_requests to find pull requests", owner, name, issue),
			fakeforge.Text(t, res), tl)
	}

	call("create_branch", map[string]any{"branch": "feature"})
	call("create_file", map[string]any{"path": "f.txt", "content": "f\n", "message": "Add f", "branch": "feature"})
	var pr struct {
		Number int64 `json:"number"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("create_pull_request", map[string]any{"head": "feature", "base": "main", "title": "Feature"})), &pr))
	// A second one between the same branches names the open one.
	res := f.Call(t, defs, "create_pull_request", map[string]any{"owner": owner, "repo": name, "head": "feature", "base": "main", "title": "Again"})
	assert.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("open a pull request from feature into main in %s/%s: one is already open between these branches (409): "+
		"#%d \"Feature\", %s/%s/%s/pulls/%d; get_pull_request_by_index or update_pull_request take it from here, and a push to feature updates it",
		owner, name, pr.Number, f.URL, owner, name, pr.Number), fakeforge.Text(t, res))
	call("merge_pull_request", map[string]any{"index": float64(pr.Number), "title": "Merge the feature", "message": "Because it is done.", "delete_branch": true})

	text := call("list_repo_commits", map[string]any{"sha": "main", "limit": 1.0})
	assert.Contains(t, text, `"message":"Merge the feature"`)
	text = call("list_branches", map[string]any{})
	assert.NotContains(t, text, `"name":"feature"`, "the head branch is deleted after the merge")
}
