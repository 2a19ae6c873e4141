package branchprotection_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26, or the Forgejo of
// FORGEJO_TEST_FORGEJO_BIN).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/branchprotection/

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/branchprotection"
	"codeberg.org/forgejo-mcp/forgejo-mcp/pkg/tool"
)

type liveRule struct {
	RuleName               string   `json:"rule_name"`
	EnablePush             bool     `json:"enable_push"`
	PushWhitelist          []string `json:"push_whitelist"`
	RequiredApprovals      int64    `json:"required_approvals"`
	StatusChecks           []string `json:"status_checks"`
	DismissStaleApprovals  bool     `json:"dismiss_stale_approvals"`
	BlockOnRejectedReviews bool     `json:"block_on_rejected_reviews"`
}

func TestLiveBranchProtectionLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	defs := branchprotection.Tools()
	call := f.RepoCaller(t, defs, owner, repo)
	decode := func(text string) liveRule {
		var r liveRule
		require.NoError(t, json.Unmarshal([]byte(text), &r), text)
		return r
	}

	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, call("list_branch_protections", map[string]any{}))

	r := decode(call("create_branch_protection", map[string]any{"rule_name": "main",
		"push_whitelist": []any{owner}, "required_approvals": 1.0, "status_checks": []any{"ci/build"},
		"block_on_rejected_reviews": true}))
	assert.Equal(t, liveRule{RuleName: "main", EnablePush: true, PushWhitelist: []string{owner}, RequiredApprovals: 1,
		StatusChecks: []string{"ci/build"}, BlockOnRejectedReviews: true}, r)

	// A glob rule name with a slash travels as route segments (release/%2A). Gitea routes it; Forgejo 10's
	// router has one {name} segment there and finds no route: the tool must say exactly that.
	decode(call("create_branch_protection", map[string]any{"rule_name": "release/*"}))
	slashRouted := !f.Lacks(t, "GET", "/repos/"+owner+"/"+repo+"/branch_protections/release/%2A")
	getSlash := func() *mcp.CallToolResult {
		return f.Call(t, defs, "get_branch_protection", map[string]any{"owner": owner, "repo": repo, "rule_name": "release/*"})
	}
	if slashRouted {
		got := decode(call("get_branch_protection", map[string]any{"rule_name": "release/*"}))
		assert.Equal(t, "release/*", got.RuleName)
		assert.False(t, got.EnablePush)
	} else {
		res := getSlash()
		require.True(t, res.IsError, "%s cannot route a rule name with a slash", f.Identify(t))
		assert.Contains(t, fakeforge.Text(t, res), "get branch protection release/* in "+owner+"/"+repo+": this forge ("+f.Identify(t).String()+") has no such API route")
		assert.Contains(t, fakeforge.Text(t, res), "manage this rule in the forge's web UI")
	}

	// Only the given fields change.
	r = decode(call("edit_branch_protection", map[string]any{"rule_name": "main", "required_approvals": 2.0,
		"dismiss_stale_approvals": true}))
	assert.Equal(t, liveRule{RuleName: "main", EnablePush: true, PushWhitelist: []string{owner}, RequiredApprovals: 2,
		StatusChecks: []string{"ci/build"}, DismissStaleApprovals: true, BlockOnRejectedReviews: true}, r)
	r = decode(call("edit_branch_protection", map[string]any{"rule_name": "main", "status_checks": []any{}}))
	assert.Empty(t, r.StatusChecks)
	assert.Equal(t, []string{owner}, r.PushWhitelist)

	var rules tool.ListPage[liveRule]
	require.NoError(t, json.Unmarshal([]byte(call("list_branch_protections", map[string]any{})), &rules))
	assert.Len(t, rules.Items, 2)

	if slashRouted {
		assert.JSONEq(t, `{"deleted":true,"rule_name":"release/*"}`,
			call("delete_branch_protection", map[string]any{"rule_name": "release/*"}))
		res := getSlash()
		assert.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), "not found (404)")
	} else {
		res := f.Call(t, defs, "delete_branch_protection", map[string]any{"owner": owner, "repo": repo, "rule_name": "release/*"})
		require.True(t, res.IsError)
		assert.Contains(t, fakeforge.Text(t, res), "has no such API route")
		require.NoError(t, json.Unmarshal([]byte(call("list_branch_protections", map[string]any{})), &rules))
		assert.Len(t, rules.Items, 2, "nothing was deleted")
	}

	// A non-admin cannot read the rules.
	res := f.WithToken(f.Token2).Call(t, defs, "list_branch_protections", map[string]any{"owner": owner, "repo": repo})
	assert.True(t, res.IsError)
}
