package fork_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26,
// or a Forgejo binary brought with FORGEJO_TEST_FORGEJO_BIN).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/fork/

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/fork"
)

// TestLiveForkSync: a fork made into an organisation is listed, falls a
// commit behind when its upstream moves, and sync_fork brings it up (on
// Gitea through merge-upstream, on Forgejo through sync_fork, whose status
// route then shows it behind first).
func TestLiveForkSync(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	org := f.NewOrg(t) // the fork is deleted with it
	require.Equal(t, http.StatusAccepted, f.Do(t, http.MethodPost, "/repos/"+owner+"/"+repo+"/forks", map[string]any{"organization": org}, nil))
	defs := fork.Tools()

	text := f.RepoCaller(t, defs, owner, repo)("list_repo_forks", map[string]any{})
	assert.Contains(t, text, `"full_name":"`+org+"/"+repo+`"`)
	assert.Contains(t, text, `"fork":true`)

	// The upstream moves on by a commit.
	require.Equal(t, http.StatusCreated, f.Do(t, http.MethodPost, "/repos/"+owner+"/"+repo+"/contents/upstream.txt",
		map[string]any{"content": base64.StdEncoding.EncodeToString([]byte("new upstream work\n")), "message": "upstream moves"}, nil))

	forkCall := f.RepoCaller(t, defs, org, repo)
	status := f.Call(t, defs, "get_fork_sync_status", map[string]any{"owner": org, "repo": repo})
	if id := f.Identify(t); id.Flavour() == "Gitea" {
		require.True(t, status.IsError)
		assert.Contains(t, fakeforge.Text(t, status), "this forge ("+id.String()+") has no such API route, so nothing was sent")
		assert.Contains(t, fakeforge.Text(t, status), "compare_commits")
	} else {
		require.False(t, status.IsError, fakeforge.Text(t, status))
		assert.Contains(t, fakeforge.Text(t, status), `"commits_behind":1`)
	}

	var synced fork.Synced
	require.NoError(t, json.Unmarshal([]byte(forkCall("sync_fork", map[string]any{})), &synced))
	assert.True(t, synced.Synced)
	if f.Identify(t).Flavour() == "Gitea" {
		assert.Equal(t, fork.Synced{Synced: true, Branch: "main", How: "fast-forward"}, synced)
	}
	assert.Equal(t, http.StatusOK, f.Do(t, http.MethodGet, "/repos/"+org+"/"+repo+"/contents/upstream.txt", nil, nil),
		"the fork has the upstream's commit")

	// Syncing a repository that is not a fork is the forge's refusal.
	res := f.Call(t, defs, "sync_fork", map[string]any{"owner": owner, "repo": repo, "branch": "main"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "sync fork "+owner+"/"+repo)
}
