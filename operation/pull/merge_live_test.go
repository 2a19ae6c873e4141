package pull_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/branchprotection"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/pull"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

// openPR commits a file on a new branch and opens a pull request of it into
// base; it returns the number and head commit.
func openPR(t *testing.T, call func(string, map[string]any) string, branch, base string) (float64, string) {
	t.Helper()
	call("create_branch", map[string]any{"branch": branch, "from": base})
	call("create_file", map[string]any{"path": branch + ".txt", "content": branch + "\n", "message": "Add " + branch, "branch": branch})
	var pr struct {
		Number  int64  `json:"number"`
		HeadSHA string `json:"head_sha"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("create_pull_request", map[string]any{"head": branch, "base": base, "title": branch})), &pr))
	return float64(pr.Number), pr.HeadSHA
}

// TestLiveAutoMerge: with a protection rule that requires a status check,
// auto_merge schedules the merge and the forge merges once the check
// passes; without one, Gitea merges at once; a scheduled merge cancels.
func TestLiveAutoMerge(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := append(append(repo.Tools(), pull.Tools()...), branchprotection.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	call("create_branch_protection", map[string]any{"rule_name": "main", "status_checks": []any{"ci/test"}})

	auto := func(index float64) pull.AutoMerge {
		t.Helper()
		var out pull.AutoMerge
		require.NoError(t, json.Unmarshal([]byte(call("merge_pull_request", map[string]any{"index": index, "auto_merge": true})), &out))
		return out
	}
	one, sha := openPR(t, call, "one", "main")
	got := auto(one) // right after opening: the tool waits out "try again later"
	assert.True(t, got.Scheduled, "%+v", got)
	assert.False(t, got.Merged)
	assert.Contains(t, got.Note, "the required checks (ci/test) pass")

	res := f.Call(t, defs, "merge_pull_request", map[string]any{"owner": owner, "repo": name, "index": one, "auto_merge": true})
	require.True(t, res.IsError, "scheduling twice is refused")
	assert.Contains(t, fakeforge.Text(t, res), "already has a scheduled merge: cancel_auto_merge cancels it")

	call("create_commit_status", map[string]any{"ref": sha, "context": "ci/test", "state": "success"})
	assert.True(t, mergedSoon(t, call, one), "the forge merges once the required check passes")

	two, _ := openPR(t, call, "two", "main")
	assert.True(t, auto(two).Scheduled)
	assert.JSONEq(t, fmt.Sprintf(`{"number":%d,"cancelled":true}`, int(two)), call("cancel_auto_merge", map[string]any{"index": two}))
	res = f.Call(t, defs, "cancel_auto_merge", map[string]any{"owner": owner, "repo": name, "index": two})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("pull request %s/%s#%d has no scheduled merge to cancel", owner, name, int(two)), fakeforge.Text(t, res))

	// No rule on dev: the forge merges within seconds, pending status or not.
	call("create_branch", map[string]any{"branch": "dev"})
	three, sha3 := openPR(t, call, "three", "dev")
	call("create_commit_status", map[string]any{"ref": sha3, "context": "ci/test", "state": "pending"})
	got = auto(three)
	if f.Identify(t).ForgejoUpTo(10) {
		// Forgejo 10 waits for every status of the head, required or not: the
		// merge stays scheduled while ci/test is pending and goes once it passes.
		assert.True(t, got.Scheduled, "%+v", got)
		assert.False(t, got.Merged)
		assert.Contains(t, got.Note, "Forgejo 10 waits until the head commit's statuses pass")
		var pr pull.Pull
		require.NoError(t, json.Unmarshal([]byte(call("get_pull_request_by_index", map[string]any{"index": three})), &pr))
		assert.False(t, pr.Merged, "not while ci/test is pending")
		call("create_commit_status", map[string]any{"ref": sha3, "context": "ci/test", "state": "success"})
		assert.True(t, mergedSoon(t, call, three), "merged once the pending status passes")
		return
	}
	if !got.Merged { // a loaded forge takes longer than the tool waits
		assert.Contains(t, got.Note, "no protection rule of the base branch requires status checks: Gitea merges it within seconds whatever its checks say")
		assert.True(t, mergedSoon(t, call, three), "merged anyway, pending status or not")
		return
	}
	assert.Contains(t, got.Note, "merged at once")
}

// mergedSoon polls the pull request for up to 30 s until the forge has
// merged it.
func mergedSoon(t *testing.T, call func(string, map[string]any) string, index float64) bool {
	t.Helper()
	for i := 0; i < 300; i++ {
		var pr pull.Pull
		require.NoError(t, json.Unmarshal([]byte(call("get_pull_request_by_index", map[string]any{"index": index})), &pr))
		if pr.Merged {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// commitsSoon polls the pull request's commits until ok holds of them.
func commitsSoon(t *testing.T, call func(string, map[string]any) string, index float64, ok func(string) bool) bool {
	t.Helper()
	for i := 0; i < 100; i++ {
		if ok(call("list_pull_request_commits", map[string]any{"index": index})) {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// TestLiveUpdatePullBranch: a PR's branch behind its base catches up by a
// merge commit, then by a rebase; conflicting changes are refused.
func TestLiveUpdatePullBranch(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	defs := append(repo.Tools(), pull.Tools()...)
	call := f.RepoCaller(t, defs, owner, name)
	index, head := openPR(t, call, "feature", "main")
	update := func(style string) pull.Pull {
		t.Helper()
		var pr pull.Pull
		require.NoError(t, json.Unmarshal([]byte(call("update_pull_request_branch", map[string]any{"index": index, "style": style})), &pr))
		return pr
	}
	call("create_file", map[string]any{"path": "base1.txt", "content": "1\n", "message": "Base moves on", "branch": "main"})
	pr := update("merge")
	assert.NotEqual(t, head, pr.HeadSHA, "a merge commit on the branch")
	// Gitea lists the new commits at once; Forgejo 10 a moment after the update.
	assert.True(t, commitsSoon(t, call, index, func(c string) bool { return strings.Contains(c, "Merge branch 'main' into feature") }),
		"a merge commit on the branch")

	call("create_file", map[string]any{"path": "base2.txt", "content": "2\n", "message": "Base moves again", "branch": "main"})
	rebased := update("rebase")
	assert.NotEqual(t, pr.HeadSHA, rebased.HeadSHA)
	assert.True(t, commitsSoon(t, call, index, func(c string) bool { return !strings.Contains(c, "Merge branch") }), "a rebase leaves no merge commit")

	// The same file changed on both sides.
	var file struct {
		SHA string `json:"sha"`
	}
	require.NoError(t, json.Unmarshal([]byte(call("get_file_content", map[string]any{"path": "feature.txt", "ref": "feature"})), &file))
	call("create_file", map[string]any{"path": "feature.txt", "content": "from main\n", "message": "Clash", "branch": "main"})
	res := f.Call(t, defs, "update_pull_request_branch", map[string]any{"owner": owner, "repo": name, "index": index})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "conflict")
}
