package issue_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/issue"
)

// TestLiveReactions: reactions added to an issue and a comment by two
// users, listed, added again, one taken back; a reaction the site does not
// allow is refused with the ones it does.
func TestLiveReactions(t *testing.T) {
	f := testforge.Get(t)
	owner, name := f.NewRepo(t)
	index := f.NewIssue(t, owner, name, "React to me", "")
	comment := f.NewComment(t, owner, name, index, "And to me")
	defs := issue.Tools()
	call := f.RepoCaller(t, defs, owner, name)
	list := func(args map[string]any) []issue.Reaction {
		var page struct {
			Items []issue.Reaction `json:"items"`
		}
		require.NoError(t, json.Unmarshal([]byte(call("list_issue_reactions", args)), &page))
		return page.Items
	}
	on := map[string]any{"index": index}
	onComment := map[string]any{"index": index, "comment_id": comment}
	with := func(base map[string]any, reaction string) map[string]any {
		m := map[string]any{"reaction": reaction}
		for k, v := range base {
			m[k] = v
		}
		return m
	}

	var r issue.Reaction
	require.NoError(t, json.Unmarshal([]byte(call("add_issue_reaction", with(on, "rocket"))), &r))
	assert.Equal(t, issue.Reaction{User: f.User, Reaction: "rocket", Created: r.Created}, r)
	require.NoError(t, json.Unmarshal([]byte(call("add_issue_reaction", with(on, "rocket"))), &r))
	assert.True(t, r.Already, "the same reaction twice is one reaction")
	if f.Token2 != "" {
		res := f.WithToken(f.Token2).Call(t, defs, "add_issue_reaction", map[string]any{"owner": owner, "repo": name, "index": index, "reaction": "+1"})
		if !res.IsError { // user2 may not see a private repository
			assert.Len(t, list(on), 2)
		}
	}
	call("add_issue_reaction", with(onComment, "heart"))
	got := list(onComment)
	require.Len(t, got, 1)
	assert.Equal(t, "heart", got[0].Reaction)
	assert.NotContains(t, list(on), issue.Reaction{User: f.User, Reaction: "heart", Created: got[0].Created}, "the comment's, not the issue's")

	call("remove_issue_reaction", with(on, "rocket"))
	for _, r := range list(on) {
		assert.NotEqual(t, "rocket", r.Reaction)
	}
	call("remove_issue_reaction", with(onComment, "heart"))
	assert.Empty(t, list(onComment))

	res := f.Call(t, defs, "add_issue_reaction", map[string]any{"owner": owner, "repo": name, "index": index, "reaction": "party"})
	require.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), "'party' is not an allowed reaction (403); the forge takes only the reactions its site allows")
}
