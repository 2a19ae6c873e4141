package repo_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

func TestLiveCreateAndListRepos(t *testing.T) {
	f := testforge.Get(t)
	name := fmt.Sprintf("live-create-%d", time.Now().UnixNano())
	t.Cleanup(func() { f.Do(t, "DELETE", fmt.Sprintf("/repos/%s/%s", f.User, name), nil, nil) })

	res := f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": name, "description": "made live", "private": true, "auto_init": true, "default_branch": "trunk"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var created struct {
		FullName      string `json:"full_name"`
		Private       bool   `json:"private"`
		DefaultBranch string `json:"default_branch"`
	}
	require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &created))
	assert.Equal(t, f.User+"/"+name, created.FullName)
	assert.True(t, created.Private)
	assert.Equal(t, "trunk", created.DefaultBranch)

	res = f.Call(t, repo.Tools(), "create_repo", map[string]any{"name": name})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), fmt.Sprintf("create repository %q: conflict (409)", name))

	found := false
	for page := 1.0; page < 20 && !found; page++ {
		res = f.Call(t, repo.Tools(), "list_my_repos", map[string]any{"page": page, "limit": 50.0})
		require.False(t, res.IsError, fakeforge.Text(t, res))
		var list struct {
			Items []struct {
				FullName string `json:"full_name"`
			} `json:"items"`
			HasMore bool `json:"has_more"`
		}
		require.NoError(t, json.Unmarshal([]byte(fakeforge.Text(t, res)), &list))
		for _, r := range list.Items {
			found = found || r.FullName == created.FullName
		}
		if !list.HasMore {
			break
		}
	}
	assert.True(t, found, "the new repository is listed")
}
