package trust_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/trust"
)

func TestParseScope(t *testing.T) {
	for _, tc := range []struct {
		spec, err string
	}{
		{"a/b", ""},
		{" a/b , c/* ,", ""},
		{"A.b-c_d/R.e", ""},
		{"", "--repos is blank"},
		{" , ", "--repos is blank"},
		{"a", `"a" is not OWNER/REPO or OWNER/*`},
		{"a/b/c", `"a/b/c" is not OWNER/REPO or OWNER/*`},
		{"*/b", "the owner must be"},
		{"a/b c", "the repository must be"},
		{"../b", "the owner must be"},
		{"a/..", "the repository must be"},
		{"a/%2e", "the repository must be"},
		{"a/*x", "the repository must be"},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			s, err := trust.ParseScope(tc.spec, "--repos")
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.False(t, s.IsSet())
				return
			}
			require.NoError(t, err)
			assert.True(t, s.IsSet())
		})
	}
}

func TestScopeAllows(t *testing.T) {
	s, err := trust.ParseScope("Alice/Public,acme/*", "--repos")
	require.NoError(t, err)
	for _, tc := range []struct {
		owner, repo string
		want        bool
	}{
		{"alice", "public", true},
		{"ALICE", "PUBLIC", true}, // the forge compares names without case
		{"alice", "private", false},
		{"acme", "anything", true},
		{"acme", "*", true},
		{"alice", "*", false}, // one repository of alice's is not all of them
		{"bob", "public", false},
		{"alicex", "public", false},
	} {
		assert.Equal(t, tc.want, s.Allows(tc.owner, tc.repo), "%s/%s", tc.owner, tc.repo)
	}
	assert.True(t, s.AllowsOwner("acme"))
	assert.False(t, s.AllowsOwner("alice"))
	assert.True(t, s.AllowsSomeOf("alice"))
	assert.False(t, s.AllowsSomeOf("bob"))
	assert.Equal(t, "Alice/Public,acme/*", s.String(), "as given")
	var none trust.Scope
	assert.True(t, none.Allows("anyone", "anything"), "the zero scope limits nothing")
}

// A request's scope narrows the server's and never widens it: a
// repository is reachable only when every scope allows it.
func TestFenceOnlyNarrows(t *testing.T) {
	server, err := trust.ParseScope("alice/*", "--repos")
	require.NoError(t, err)
	request, err := trust.ParseScope("alice/public,bob/secret", "X-MCP-Repos")
	require.NoError(t, err)
	ctx := trust.WithScope(context.Background(), request)
	f := append(trust.Fence{server}, trust.FenceOf(ctx)...)
	assert.True(t, f.Allows("alice", "public"))
	assert.False(t, f.Allows("alice", "other"), "narrowed by the request")
	assert.False(t, f.Allows("bob", "secret"), "the request cannot add a repository the server leaves out")
	assert.Contains(t, f.Refusal("bob", "secret"), "bob/secret is outside the repositories this server may reach (--repos alice/*)")
	assert.Contains(t, f.Refusal("alice", "other"), "(X-MCP-Repos alice/public,bob/secret)")
	assert.Contains(t, f.Refusal("alice", "*"), "organisation-level data of alice (it needs alice/* in the scope)")
	assert.Equal(t, "", f.Refusal("alice", "public"))
	assert.Equal(t, "--repos alice/*; X-MCP-Repos alice/public,bob/secret", f.Describe())

	assert.False(t, trust.LockdownOf(ctx))
	assert.True(t, trust.LockdownOf(trust.WithLockdown(ctx)))
	assert.Empty(t, trust.FenceOf(trust.WithScope(context.Background(), trust.Scope{})), "an unset scope adds nothing")
}
