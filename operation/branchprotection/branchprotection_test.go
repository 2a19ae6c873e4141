package branchprotection_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/branchprotection"
)

var rawRule = map[string]any{
	"branch_name": "", "rule_name": "main", "enable_push": true, "enable_push_whitelist": true,
	"push_whitelist_usernames": []string{"alice"}, "push_whitelist_teams": []string{},
	"push_whitelist_deploy_keys": false, "enable_merge_whitelist": false, "merge_whitelist_usernames": []string{"bob"},
	"enable_status_check": true, "status_check_contexts": []string{"ci/build"}, "required_approvals": 2,
	"enable_approvals_whitelist": false, "block_on_rejected_reviews": true, "dismiss_stale_approvals": false,
	"require_signed_commits": false, "protected_file_patterns": "", "unprotected_file_patterns": "",
	"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z",
}

const compactRule = `{"rule_name":"main","enable_push":true,"push_whitelist":["alice"],"required_approvals":2,
	"status_checks":["ci/build"],"block_on_rejected_reviews":true}`

func call(t *testing.T, f *fakeforge.Server, name string, args map[string]any) (bool, string) {
	t.Helper()
	args["owner"], args["repo"] = "o", "r"
	res := f.Call(t, branchprotection.Tools(), name, args)
	return res.IsError, fakeforge.Text(t, res)
}

func lastBody(t *testing.T, f *fakeforge.Server) map[string]any {
	t.Helper()
	reqs := f.Requests()
	var m map[string]any
	require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &m))
	return m
}

func TestListAndGet(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/branch_protections", 200, []any{rawRule})
	f.JSON("GET /api/v1/repos/o/r/branch_protections/{name...}", 200, rawRule)
	isErr, text := call(t, f, "list_branch_protections", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[`+compactRule+`],"page":1,"has_more":false}`, text)

	isErr, text = call(t, f, "get_branch_protection", map[string]any{"rule_name": "release/*"})
	require.False(t, isErr, text)
	assert.JSONEq(t, compactRule, text)
	reqs := f.Requests()
	// The forge routes branch_protections/* as a wildcard: the slash stays a
	// separator, so a proxy that decodes %2F changes nothing.
	assert.Equal(t, "/api/v1/repos/o/r/branch_protections/release/%2A", reqs[len(reqs)-1].Path)
}

// TestSlashNameOnOneSegmentRouter: Forgejo 10 routes branch_protections/{name},
// one segment: the parts of "release/*" find no route there (its router's
// bare 404). The %2F form would reach it, but a decoding proxy makes that a
// separator, so the tools say what happened and what to do instead; a name
// without '/' keeps the ordinary answers.
func TestSlashNameOnOneSegmentRouter(t *testing.T) {
	for _, tc := range []struct{ tool, method, verb string }{
		{"get_branch_protection", "GET", "get"}, {"edit_branch_protection", "PATCH", "edit"}, {"delete_branch_protection", "DELETE", "delete"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			f := fakeforge.New(t)
			f.Handle(tc.method+" /api/v1/repos/o/r/branch_protections/{name}", func(w http.ResponseWriter, r *http.Request) {
				fakeforge.WriteJSON(w, http.StatusNotFound, map[string]any{"message": "branch protection does not exist"})
			})
			f.Handle(tc.method+" /api/v1/repos/o/r/branch_protections/{a}/{b}", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
			isErr, text := call(t, f, tc.tool, map[string]any{"rule_name": "release/*"})
			require.True(t, isErr, text)
			assert.Contains(t, text, tc.verb+" branch protection release/* in o/r: this forge has no such API route")
			assert.Contains(t, text, "this forge routes a rule name as one path segment, and a name with '/' cannot be sent as one safely")
			assert.Contains(t, text, "manage this rule in the forge's web UI")
			var paths []string
			for _, r := range f.Requests() {
				if r.Method == tc.method && strings.Contains(r.Path, "/branch_protections/") {
					paths = append(paths, r.Path)
				}
			}
			assert.Equal(t, []string{"/api/v1/repos/o/r/branch_protections/release/%2A"}, paths, "sent once, as parts")

			isErr, text = call(t, f, tc.tool, map[string]any{"rule_name": "nope"})
			require.True(t, isErr)
			assert.Contains(t, text, "branch protection nope in o/r not found (404)")
			assert.NotContains(t, text, "web UI")
		})
	}
}

// TestRuleNamesCannotClimb: behind a proxy that decodes %2F and folds dot
// segments, "../../victim" escaped as one segment deleted the repository
// victim. Such names are refused before any request.
func TestRuleNamesCannotClimb(t *testing.T) {
	for _, name := range []string{"get_branch_protection", "edit_branch_protection", "delete_branch_protection", "create_branch_protection"} {
		for _, rule := range []string{"../../victim", "a/../../victim", "..", `..\..\victim`, "/victim", "a//b"} {
			f := fakeforge.New(t)
			isErr, text := call(t, f, name, map[string]any{"rule_name": rule})
			require.True(t, isErr, "%s %q: %s", name, rule, text)
			assert.Contains(t, text, "rule_name")
			assert.Empty(t, f.Requests(), "%s %q", name, rule)
		}
	}
}

func TestCreateSendsWhitelistAndChecks(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/branch_protections", 201, rawRule)
	isErr, text := call(t, f, "create_branch_protection", map[string]any{"rule_name": "main",
		"push_whitelist": []any{"alice"}, "status_checks": []any{"ci/build"}, "required_approvals": 2.0})
	require.False(t, isErr, text)
	body := lastBody(t, f)
	assert.Equal(t, "main", body["rule_name"])
	assert.Equal(t, true, body["enable_push"])
	assert.Equal(t, true, body["enable_push_whitelist"])
	assert.Equal(t, []any{"alice"}, body["push_whitelist_usernames"])
	assert.Equal(t, true, body["enable_status_check"])
	assert.Equal(t, 2.0, body["required_approvals"])
}

func TestEditSendsOnlyGivenFields(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PATCH /api/v1/repos/o/r/branch_protections/main", 200, rawRule)
	isErr, text := call(t, f, "edit_branch_protection", map[string]any{"rule_name": "main", "required_approvals": 1.0})
	require.False(t, isErr, text)
	body := lastBody(t, f)
	assert.Equal(t, 1.0, body["required_approvals"])
	for _, k := range []string{"enable_push", "enable_push_whitelist", "push_whitelist_usernames", "enable_status_check",
		"status_check_contexts", "dismiss_stale_approvals"} {
		assert.Nil(t, body[k], k)
	}

	isErr, text = call(t, f, "edit_branch_protection", map[string]any{"rule_name": "main", "status_checks": []any{}})
	require.False(t, isErr, text)
	body = lastBody(t, f)
	assert.Equal(t, false, body["enable_status_check"])
	assert.Equal(t, []any{}, body["status_check_contexts"])
}

func TestDeleteAndErrors(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("DELETE /api/v1/repos/o/r/branch_protections/main", 204, nil)
	isErr, text := call(t, f, "delete_branch_protection", map[string]any{"rule_name": "main"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"rule_name":"main"}`, text)

	isErr, text = call(t, f, "get_branch_protection", map[string]any{"rule_name": "dev"})
	assert.True(t, isErr)
	assert.Equal(t, "branch protection dev in o/r not found (404): it does not exist or this token cannot see it", text)

	isErr, text = call(t, f, "delete_branch_protection", map[string]any{"rule_name": ".."})
	assert.True(t, isErr)
	assert.Contains(t, text, "rule_name")
}
