package repoadmin_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/repoadmin/

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repoadmin"
)

// TestLiveEditRepo: a repository is described, made public, its wiki
// turned off, its merge styles narrowed, archived and unarchived on a real
// forge; each result is the settings the forge answers with after.
func TestLiveEditRepo(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := f.RepoCaller(t, repoadmin.Tools(), owner, repo)
	var s repoadmin.Settings

	require.NoError(t, json.Unmarshal([]byte(call("get_repo_settings", map[string]any{})), &s))
	assert.True(t, s.Private)
	assert.Contains(t, s.Units, "wiki")

	text := call("edit_repo", map[string]any{"description": "maintained", "website": "https://example.org",
		"private": false, "disable_units": []any{"wiki"}, "merge_styles": []any{"squash", "rebase"},
		"default_merge_style": "squash", "delete_branch_after_merge": true})
	require.NoError(t, json.Unmarshal([]byte(text), &s))
	assert.Equal(t, "maintained", s.Description)
	assert.Equal(t, "https://example.org", s.Website)
	assert.False(t, s.Private)
	assert.NotContains(t, s.Units, "wiki")
	assert.Contains(t, s.Units, "issues")
	assert.Equal(t, []string{"rebase", "squash"}, s.MergeStyles)
	assert.Equal(t, "squash", s.DefaultMergeStyle)
	assert.True(t, s.DeleteBranch)

	text = call("edit_repo", map[string]any{"archived": true})
	require.NoError(t, json.Unmarshal([]byte(text), &s))
	assert.True(t, s.Archived)
	assert.Equal(t, "maintained", s.Description, "the other settings stay")
	text = call("edit_repo", map[string]any{"archived": false})
	require.NoError(t, json.Unmarshal([]byte(text), &s))
	assert.False(t, s.Archived)

	res := f.Call(t, repoadmin.Tools(), "edit_repo", map[string]any{"owner": owner, "repo": repo,
		"default_branch": "no-such-branch", "description": "still applied"})
	require.True(t, res.IsError, "the forge keeps the default branch silently: the tool says so")
	assert.Contains(t, fakeforge.Text(t, res), "edit repository "+owner+"/"+repo+`: the default branch is still main: the forge has no branch "no-such-branch"`)
	require.NoError(t, json.Unmarshal([]byte(call("get_repo_settings", map[string]any{})), &s))
	assert.Equal(t, "still applied", s.Description)
}

// TestLiveTopics: topics are replaced, added, listed and removed on a
// real forge, which stores them lowercase.
func TestLiveTopics(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := f.RepoCaller(t, repoadmin.Tools(), owner, repo)

	assert.JSONEq(t, `{"topics":[]}`, call("list_repo_topics", map[string]any{}))
	assert.JSONEq(t, `{"topics":["go","mcp"]}`, call("set_repo_topics", map[string]any{"topics": []any{"Go", "mcp"}}))
	assert.JSONEq(t, `{"topics":["forge","go","mcp"]}`, call("add_repo_topic", map[string]any{"topic": "forge"}))
	assert.JSONEq(t, `{"deleted":true,"topic":"go"}`, call("remove_repo_topic", map[string]any{"topic": "go"}))
	assert.JSONEq(t, `{"topics":["forge","mcp"]}`, call("list_repo_topics", map[string]any{}))
	assert.JSONEq(t, `{"topics":[]}`, call("set_repo_topics", map[string]any{"topics": []any{}}))
}
