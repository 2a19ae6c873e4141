package tool

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/trust"
)

func TestRefOf(t *testing.T) {
	for _, tc := range []struct {
		ref  string
		want RepoAt
		ok   bool
	}{
		{"main", RepoAt{}, false},
		{"feature/x", RepoAt{}, false},
		{"bob:main", RepoAt{"bob", "*"}, true}, // bob's fork, whose name the forge finds
		{"bob/fork:main", RepoAt{"bob", "fork"}, true},
		{"Alice:main", RepoAt{"alice", "r"}, true}, // the repository's own owner
		{":main", RepoAt{}, false},
	} {
		got, ok := RefOf(tc.ref, "alice", "r")
		assert.Equal(t, tc.ok, ok, tc.ref)
		assert.Equal(t, tc.want, got, tc.ref)
	}
}

func TestScopeRefusal(t *testing.T) {
	scope, err := trust.ParseScope("me/*,acme/site", "--repos")
	assert.NoError(t, err)
	f := trust.Fence{scope}
	me := func() (string, error) { return "me", nil }
	repoTool := Def{Name: "t", Params: []Param{Owner(), Repo()}}
	orgTool := Def{Name: "o", Params: []Param{Org()}}
	teamRepo := Def{Name: "tr", Params: []Param{Org(), Named("repo", "r")}}
	mine := Def{Name: "m", Reach: Reach{Repos: func(a Args) []RepoAt { return []RepoAt{{"", a.String("name")}} }}}
	bare := Def{Name: "b"}
	unknown := Def{Name: "u", Reach: Reach{Kind: ReachUnknown, Why: "a team id names no organisation"}}
	account := Def{Name: "a", Reach: Reach{Kind: ReachAccount}}
	offline := Def{Name: "list_toolsets", Offline: true}
	for _, tc := range []struct {
		d    Def
		args map[string]any
		want string
	}{
		{repoTool, map[string]any{"owner": "acme", "repo": "site"}, ""},
		{repoTool, map[string]any{"owner": "ACME", "repo": "Site"}, ""},
		{repoTool, map[string]any{"owner": "acme", "repo": "vault"}, "t: acme/vault is outside the repositories this server may reach (--repos me/*,acme/site); nothing was sent to the forge"},
		{orgTool, map[string]any{"org": "me"}, ""},
		{orgTool, map[string]any{"org": "acme"}, "o: organisation-level data of acme (it needs acme/* in the scope) is outside"},
		{teamRepo, map[string]any{"org": "acme", "repo": "site"}, ""},
		{teamRepo, map[string]any{"org": "acme", "repo": "vault"}, "acme/vault is outside"},
		{mine, map[string]any{"name": "new"}, ""},
		{bare, nil, "b names no repository"},
		{unknown, nil, "u cannot be used while the server is limited to some repositories (--repos me/*,acme/site): a team id names no organisation"},
		{account, nil, ""},
		{offline, nil, ""},
	} {
		got := tc.d.ScopeRefusal(f, NewArgs(tc.args), me)
		if tc.want == "" {
			assert.Empty(t, got, tc.d.Name)
		} else {
			assert.Contains(t, got, tc.want, tc.d.Name)
		}
	}
	// Without a scope nothing is refused, a tool naming nothing included.
	assert.Empty(t, bare.ScopeRefusal(trust.Fence{}, NewArgs(nil), me))
	// The token's user unknown: refused, saying why.
	assert.Contains(t, mine.ScopeRefusal(f, NewArgs(map[string]any{"name": "x"}), func() (string, error) { return "", errors.New("401") }),
		"the token's user could not be read to check the repository scope")
}
