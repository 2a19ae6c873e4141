package repo_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

func TestLiveTags(t *testing.T) {
	f := testforge.Get(t)
	ch := newChange(t, f)
	call := f.RepoCaller(t, repo.Tools(), ch.owner, ch.name)

	light := decode[repo.Tag](t, call("create_tag", map[string]any{"tag": "v1.0.0", "target": ch.first}))
	assert.Equal(t, repo.Tag{Name: "v1.0.0", Commit: ch.first}, light)
	ann := decode[repo.Tag](t, call("create_tag", map[string]any{"tag": "release/v2", "target": ch.branch, "message": "Second release"}))
	assert.Equal(t, repo.Tag{Name: "release/v2", Commit: ch.second, Message: "Second release", Annotated: true}, ann)

	list := decode[tool.ListPage[repo.Tag]](t, call("list_tags", map[string]any{}))
	assert.ElementsMatch(t, []repo.Tag{light, ann}, list.Items)
	assert.Equal(t, ann, decode[repo.Tag](t, call("get_tag", map[string]any{"tag": "release/v2"})), "a tag with '/' travels part by part")

	assert.Equal(t, light, decode[repo.Tag](t, call("get_tag", map[string]any{"tag": "v1.0.0"})))
	// A tag names a commit wherever a ref is taken, '/' or not.
	assert.Equal(t, ch.second, decode[repo.CommitDetail](t, call("get_commit", map[string]any{"sha": "release/v2"})).SHA)
	assert.Equal(t, ch.first, decode[repo.CommitDetail](t, call("get_commit", map[string]any{"sha": "v1.0.0"})).SHA)
	assert.JSONEq(t, `{"deleted":true,"tag":"v1.0.0"}`, call("delete_tag", map[string]any{"tag": "v1.0.0"}))
	res := f.Call(t, repo.Tools(), "get_tag", map[string]any{"owner": ch.owner, "repo": ch.name, "tag": "v1.0.0"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "tag v1.0.0 in "+ch.owner+"/"+ch.name+" not found (404)")

	res = f.Call(t, repo.Tools(), "create_tag", map[string]any{"owner": ch.owner, "repo": ch.name, "tag": "release/v2"})
	require.True(t, res.IsError)
	assert.Equal(t, "create tag release/v2 in "+ch.owner+"/"+ch.name+": conflict (409), it may already exist: tag already exists [name: release/v2]", fakeforge.Text(t, res))

	// A tag a release uses is refused, with what to do.
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", fmt.Sprintf("/repos/%s/%s/releases", ch.owner, ch.name),
		map[string]any{"tag_name": "release/v2", "name": "Two"}, nil))
	res = f.Call(t, repo.Tools(), "delete_tag", map[string]any{"owner": ch.owner, "repo": ch.name, "tag": "release/v2"})
	require.True(t, res.IsError)
	assert.Equal(t, "delete tag release/v2 in "+ch.owner+"/"+ch.name+": refused (409): a release uses it; delete the release first "+
		"(delete_release_by_tag, or delete_release with its id from list_releases; the tag stays), then the tag", fakeforge.Text(t, res))

	res = f.Call(t, repo.Tools(), "create_tag", map[string]any{"owner": ch.owner, "repo": ch.name, "tag": "v3", "target": "no-such-branch"})
	require.True(t, res.IsError)
	assert.Equal(t, `target "no-such-branch" in `+ch.owner+"/"+ch.name+" not found (404): it does not exist or this token cannot see it", fakeforge.Text(t, res))
}

func TestLiveCommitStatus(t *testing.T) {
	f := testforge.Get(t)
	ch := newChange(t, f)
	call := f.RepoCaller(t, repo.Tools(), ch.owner, ch.name)

	empty := decode[repo.CombinedStatus](t, call("get_commit_status", map[string]any{"ref": ch.branch}))
	assert.Equal(t, ch.second, empty.SHA)
	assert.Zero(t, empty.TotalCount)
	assert.Empty(t, empty.Statuses)
	assert.Equal(t, "no check has reported a status on this commit", empty.Note, "the forge says %q", empty.State)

	s := decode[repo.Status](t, call("create_commit_status", map[string]any{"ref": ch.second, "state": "pending", "context": "ci/lint",
		"description": "linting", "target_url": "https://ci.example.com/run/1"}))
	assert.Equal(t, "ci/lint", s.Context)
	assert.Equal(t, "pending", s.State)
	assert.Equal(t, f.User, s.Creator)
	call("create_commit_status", map[string]any{"ref": ch.branch, "state": "success", "context": "ci/lint", "description": "clean"})
	call("create_commit_status", map[string]any{"ref": ch.second, "state": "failure", "context": "ci/test",
		"target_url": "https://ci.example.com/run/2"})

	combined := decode[repo.CombinedStatus](t, call("get_commit_status", map[string]any{"ref": ch.branch}))
	assert.Equal(t, "failure", combined.State, "the worst latest state wins")
	assert.Equal(t, ch.second, combined.SHA)
	assert.Equal(t, 2, combined.TotalCount, "one per context")
	byContext := map[string]repo.Status{}
	for _, st := range combined.Statuses {
		byContext[st.Context] = st
	}
	assert.Equal(t, "success", byContext["ci/lint"].State, "the latest status of a context")
	assert.Equal(t, "clean", byContext["ci/lint"].Description)
	assert.Equal(t, "https://ci.example.com/run/2", byContext["ci/test"].TargetURL)

	all := decode[tool.ListPage[repo.Status]](t, call("list_commit_statuses", map[string]any{"ref": ch.second}))
	require.Len(t, all.Items, 3, "superseded statuses too")
	page := decode[tool.ListPage[repo.Status]](t, call("list_commit_statuses", map[string]any{"ref": ch.second, "limit": 2.0}))
	assert.Len(t, page.Items, 2)
	assert.True(t, page.HasMore)

	res := f.Call(t, repo.Tools(), "create_commit_status", map[string]any{"owner": ch.owner, "repo": ch.name, "ref": ch.second, "state": "done"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `"state" must be one of`)
	res = f.Call(t, repo.Tools(), "create_commit_status", map[string]any{"owner": ch.owner, "repo": ch.name, "ref": "0123456789abcdef0123456789abcdef01234567", "state": "success"})
	require.True(t, res.IsError)
	missing := fmt.Sprintf(`"0123456789abcdef0123456789abcdef01234567" in %s/%s not found (404): it does not exist or this token cannot see it`, ch.owner, ch.name)
	assert.Equal(t, "commit "+missing, fakeforge.Text(t, res), "the forge's 500 for a missing commit reads as a 404")
	res = f.Call(t, repo.Tools(), "get_commit_status", map[string]any{"owner": ch.owner, "repo": ch.name, "ref": "0123456789abcdef0123456789abcdef01234567"})
	if f.Identify(t).ForgejoUpTo(10) {
		// Forgejo 10 answers a full SHA it does not have as a commit nothing reported on.
		require.False(t, res.IsError, fakeforge.Text(t, res))
		assert.Contains(t, fakeforge.Text(t, res), `"statuses":[]`)
		return
	}
	require.True(t, res.IsError)
	assert.Equal(t, "ref "+missing, fakeforge.Text(t, res))
}

func TestLiveDeleteBranchAndCollaborators(t *testing.T) {
	f := testforge.Get(t)
	ch := newChange(t, f)
	call := f.RepoCaller(t, repo.Tools(), ch.owner, ch.name)

	route := fmt.Sprintf("/repos/%s/%s", ch.owner, ch.name)
	openPull := func(base string) int64 {
		var pr struct {
			Number int64 `json:"number"`
		}
		require.Equal(t, http.StatusCreated, f.Do(t, "POST", route+"/pulls", map[string]any{"head": ch.branch, "base": base, "title": "into " + base}, &pr))
		return pr.Number
	}
	// Gitea 1.26 deletes the base of an open pull request (only the
	// default branch is refused, below): measured, so the tool does not
	// promise more than the forge does.
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", route+"/branches", map[string]any{"new_branch_name": "base2", "old_branch_name": "main"}, nil))
	openPull("base2")
	assert.JSONEq(t, `{"deleted":true,"branch":"base2"}`, call("delete_branch", map[string]any{"branch": "base2"}))

	// A merged branch goes. The forge checks mergeability in the background: retry a few times.
	index := openPull("main")
	merged := false
	for try := 0; try < 20 && !merged; try++ {
		merged = f.Do(t, "POST", fmt.Sprintf("%s/pulls/%d/merge", route, index), map[string]any{"Do": "merge"}, nil) == http.StatusOK
		if !merged {
			time.Sleep(250 * time.Millisecond)
		}
	}
	require.True(t, merged, "the pull request merges")
	assert.JSONEq(t, `{"deleted":true,"branch":"feature/two"}`, call("delete_branch", map[string]any{"branch": ch.branch}))
	res := f.Call(t, repo.Tools(), "delete_branch", map[string]any{"owner": ch.owner, "repo": ch.name, "branch": ch.branch})
	require.True(t, res.IsError)
	because := "" // Forgejo 10 adds its reason
	if f.Identify(t).ForgejoUpTo(10) {
		because = ": object does not exist"
	}
	assert.Equal(t, fmt.Sprintf("branch feature/two in %s/%s not found (404): it does not exist or this token cannot see it%s; list_branches shows the branches", ch.owner, ch.name, because), fakeforge.Text(t, res))
	res = f.Call(t, repo.Tools(), "delete_branch", map[string]any{"owner": ch.owner, "repo": ch.name, "branch": "main"})
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("delete branch main in %s/%s: refused (403): it is the repository's default branch; make another branch the default first", ch.owner, ch.name), fakeforge.Text(t, res))

	list := decode[tool.ListPage[repo.Collaborator]](t, call("list_collaborators", map[string]any{}))
	assert.Empty(t, list.Items)
	require.Equal(t, http.StatusNoContent, f.Do(t, "PUT", fmt.Sprintf("/repos/%s/%s/collaborators/%s", ch.owner, ch.name, f.User2),
		map[string]any{"permission": "write"}, nil))
	list = decode[tool.ListPage[repo.Collaborator]](t, call("list_collaborators", map[string]any{}))
	assert.Equal(t, []repo.Collaborator{{Login: f.User2}}, list.Items)
}
