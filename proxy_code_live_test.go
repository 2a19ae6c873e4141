package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/nginx"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
)

// TestE2ECodeToolsBehindDecodingProxy drives the code-reading tools through
// the decoding nginx of TestE2EBehindDecodingProxy: a branch or tag with '/'
// works (it is resolved through a query, or sent part by part where the
// forge's route takes the rest of the path), and a value that climbs
// reaches nothing: it is refused, or lands in a query as a name the forge
// does not know. The victim repository and the branch stay.
func TestE2ECodeToolsBehindDecodingProxy(t *testing.T) {
	f := testforge.Get(t)
	proxy := nginx.Start(t, f.URL)
	owner, repo := f.NewRepo(t)
	_, victim := f.NewRepo(t)
	repoAPI := fmt.Sprintf("/repos/%s/%s", owner, repo)

	var made struct {
		Commit struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", repoAPI+"/contents", map[string]any{"branch": "main", "new_branch": "feature/x",
		"message": "Add a", "files": []any{map[string]any{"operation": "create", "path": "dir/a.txt",
			"content": base64.StdEncoding.EncodeToString([]byte("a\n"))}}}, &made))
	head := made.Commit.SHA
	require.NotEmpty(t, head)
	require.Equal(t, http.StatusCreated, f.Do(t, "POST", repoAPI+"/tags", map[string]any{"tag_name": "release/v1", "target": "feature/x"}, nil))

	cs := connect(t, protocolVersions[0], []string{"FORGEJO_URL=" + proxy.URL, "FORGEJO_ACCESS_TOKEN=" + f.Token})
	call := func(name string, args map[string]any) (bool, string) {
		t.Helper()
		full := map[string]any{"owner": owner, "repo": repo}
		for k, v := range args {
			full[k] = v
		}
		res, text := callTool(t, cs, name, full)
		return res.IsError, text
	}
	ok := func(name string, args map[string]any) map[string]any {
		t.Helper()
		isErr, text := call(name, args)
		require.False(t, isErr, "%s: %s", name, text)
		var out map[string]any
		require.NoError(t, json.Unmarshal([]byte(text), &out), text)
		return out
	}

	// Names with '/' work through the proxy.
	assert.Equal(t, head, ok("get_commit", map[string]any{"sha": "feature/x"})["sha"])
	assert.Contains(t, ok("get_commit_diff", map[string]any{"sha": "release/v1"})["diff"], "+a")
	assert.EqualValues(t, 1, ok("compare_commits", map[string]any{"base": "main", "head": "feature/x"})["total_commits"])
	assert.EqualValues(t, 3, ok("get_repo_tree", map[string]any{"ref": "feature/x", "recursive": true})["total_count"])
	assert.Equal(t, head, ok("get_tag", map[string]any{"tag": "release/v1"})["commit"])
	ok("create_commit_status", map[string]any{"ref": "feature/x", "state": "success", "context": "ci/x"})
	assert.Equal(t, "success", ok("get_commit_status", map[string]any{"ref": "feature/x"})["state"])

	// Climbing values reach nothing.
	for depth := 1; depth <= 4; depth++ {
		climb := strings.Repeat("../", depth) + victim
		for _, c := range []struct{ tool, param string }{
			{"delete_branch", "branch"}, {"delete_tag", "tag"}, {"get_tag", "tag"},
			{"get_commit", "sha"}, {"get_commit_diff", "sha"}, {"get_repo_tree", "ref"},
			{"get_commit_status", "ref"}, {"list_commit_statuses", "ref"}, {"compare_commits", "head"},
		} {
			args := map[string]any{c.param: climb}
			if c.tool == "compare_commits" {
				args["base"] = "main"
			}
			isErr, text := call(c.tool, args)
			assert.True(t, isErr, "%s %s=%q: %s", c.tool, c.param, climb, text)
		}
	}
	for _, p := range []string{fmt.Sprintf("/repos/%s/%s", owner, victim), repoAPI + "/branches/main", repoAPI + "/branches/feature/x", repoAPI + "/tags/release/v1"} {
		assert.Equal(t, http.StatusOK, f.Do(t, "GET", p, nil, nil), "%s still exists", p)
	}

	// And the slash names delete what they name, and only that.
	ok("delete_tag", map[string]any{"tag": "release/v1"})
	ok("delete_branch", map[string]any{"branch": "feature/x"})
	assert.Equal(t, http.StatusNotFound, f.Do(t, "GET", repoAPI+"/branches/feature/x", nil, nil))
	assert.Equal(t, http.StatusNotFound, f.Do(t, "GET", repoAPI+"/tags/release/v1", nil, nil))
	assert.Equal(t, http.StatusOK, f.Do(t, "GET", repoAPI+"/branches/main", nil, nil))
}
