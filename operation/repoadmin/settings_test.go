package repoadmin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
)

var repoAnswer = map[string]any{
	"full_name": "o/r", "description": "d", "website": "https://example.org", "default_branch": "main",
	"private": true, "archived": false, "template": false, "mirror": false,
	"has_issues": true, "has_wiki": false, "has_pull_requests": true, "has_projects": false,
	"has_releases": true, "has_packages": false, "has_actions": true,
	"allow_merge_commits": true, "allow_rebase": false, "allow_rebase_explicit": false,
	"allow_squash_merge": true, "allow_fast_forward_only_merge": false,
	"default_merge_style": "squash", "default_delete_branch_after_merge": true,
	"updated_at": "2026-01-02T03:04:05Z",
}

const settingsJSON = `{"full_name":"o/r","description":"d","website":"https://example.org","default_branch":"main",
	"private":true,"archived":false,"template":false,"units":["issues","pulls","releases","actions"],
	"merge_styles":["merge","squash"],"default_merge_style":"squash","delete_branch_after_merge":true,
	"updated_at":"2026-01-02T03:04:05Z"}`

func TestGetRepoSettings(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r", 200, repoAnswer)
	isErr, text := call(t, f, "get_repo_settings", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, settingsJSON, text)
}

// TestEditRepo: only the given settings reach the forge, in its field
// names; units and merge styles are named as merge_pull_request names them.
func TestEditRepo(t *testing.T) {
	for _, tc := range []struct {
		name string
		args map[string]any
		want map[string]any
	}{
		{"archive and describe", map[string]any{"archived": true, "description": "gone"},
			map[string]any{"archived": true, "description": "gone"}},
		{"visibility and branch", map[string]any{"private": false, "default_branch": "main", "website": ""},
			map[string]any{"private": false, "default_branch": "main", "website": ""}},
		{"units", map[string]any{"enable_units": []any{"wiki", "projects"}, "disable_units": []any{"packages"}},
			map[string]any{"has_wiki": true, "has_projects": true, "has_packages": false}},
		{"merge styles", map[string]any{"merge_styles": []any{"squash", "fast-forward-only"}, "default_merge_style": "squash",
			"delete_branch_after_merge": true},
			map[string]any{"allow_merge_commits": false, "allow_rebase": false, "allow_rebase_explicit": false,
				"allow_squash_merge": true, "allow_fast_forward_only_merge": true, "default_merge_style": "squash",
				"default_delete_branch_after_merge": true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("PATCH /api/v1/repos/o/r", 200, repoAnswer)
			isErr, text := call(t, f, "edit_repo", tc.args)
			require.False(t, isErr, text)
			assert.JSONEq(t, settingsJSON, text)
			assert.Equal(t, tc.want, lastBody(t, f))
		})
	}
}

// TestEditRepoRefuses: contradictions and empty edits are refused before
// anything is sent, with what to do instead; the forge's refusal names
// the repository.
func TestEditRepoRefuses(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PATCH /api/v1/repos/o/r", 422, map[string]any{"message": "repository visibility is restricted"})
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "give at least one setting to change (get_repo_settings shows them)"},
		{map[string]any{"enable_units": []any{"wiki"}, "disable_units": []any{"wiki"}}, `unit "wiki" is in both enable_units and disable_units`},
		{map[string]any{"merge_styles": []any{}}, "merge_styles must allow at least one style (merge, rebase, rebase-merge, squash, fast-forward-only)"},
		{map[string]any{"enable_units": []any{"code"}}, "must be one of issues, wiki, pulls, projects, releases, packages, actions"},
		{map[string]any{"default_merge_style": "octopus"}, "must be one of merge, rebase"},
	} {
		isErr, text := call(t, f, "edit_repo", tc.args)
		assert.True(t, isErr)
		assert.Contains(t, text, tc.want)
	}
	assert.Empty(t, f.Requests())
	isErr, text := call(t, f, "edit_repo", map[string]any{"private": true})
	assert.True(t, isErr)
	assert.Contains(t, text, "edit repository o/r")
	assert.Contains(t, text, "repository visibility is restricted")
}

// TestEditRepoDefaultBranchKept: the forges answer 200 and keep the
// default branch when no branch has the given name; the tool says so.
func TestEditRepoDefaultBranchKept(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PATCH /api/v1/repos/o/r", 200, repoAnswer)
	isErr, text := call(t, f, "edit_repo", map[string]any{"default_branch": "dev"})
	assert.True(t, isErr)
	assert.Equal(t, `edit repository o/r: the default branch is still main: the forge has no branch "dev" (list_branches shows them); the other settings given were applied`, text)
}
