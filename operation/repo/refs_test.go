package repo_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/repo"
)

func TestGetRepoTree(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/commits", 200, []any{map[string]any{"sha": "c0ffee"}})
	f.JSON("GET /api/v1/repos/o/r/git/trees/c0ffee", 200, map[string]any{"sha": "c0ffee", "url": "http://x",
		"tree": []any{
			map[string]any{"path": "docs", "mode": "040000", "type": "tree", "size": 0, "sha": "d1", "url": "http://x/d1"},
			map[string]any{"path": "docs/a.md", "mode": "100644", "type": "blob", "size": 12, "sha": "b1", "url": "http://x/b1"},
			map[string]any{"path": "docs/empty", "mode": "100644", "type": "blob", "size": 0, "sha": "b0", "url": "http://x/b0"},
		}, "truncated": true, "page": 1, "total_count": 4})
	res := f.Call(t, repo.Tools(), "get_repo_tree", map[string]any{"owner": "o", "repo": "r", "recursive": true, "limit": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"sha":"c0ffee","entries":[{"path":"docs","type":"tree","sha":"d1"},
		{"path":"docs/a.md","type":"blob","size":12,"sha":"b1"},{"path":"docs/empty","type":"blob","size":0,"sha":"b0"}],
		"page":1,"total_count":4,"has_more":true,"truncated":true}`,
		fakeforge.Text(t, res))
	reqs := f.Requests()
	require.Len(t, reqs, 2)
	assert.Contains(t, reqs[0].RawQuery, "limit=1", "no ref: the default branch's head")
	assert.NotContains(t, reqs[0].RawQuery, "sha=")
	assert.Contains(t, reqs[1].RawQuery, "recursive=1")
	assert.Contains(t, reqs[1].RawQuery, "per_page=2", "the forge pages trees by per_page")
}

func TestGetRepoTreeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, ref string
		commits   int
		want      string
	}{
		{"empty repository", "", 409, "repository o/r is empty: it has no commits yet"},
		{"missing tree", "abcdef12", 0, `tree or commit "abcdef12" in o/r not found (404)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r", 200, rawRepo)
			f.JSON("GET /api/v1/repos/o/r/commits", tc.commits, map[string]string{"message": "Git Repository is empty."})
			res := f.Call(t, repo.Tools(), "get_repo_tree", map[string]any{"owner": "o", "repo": "r", "ref": tc.ref})
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}
}

func rawTag(name, id, commit, msg string) map[string]any {
	return map[string]any{"name": name, "id": id, "message": msg, "commit": map[string]any{"sha": commit, "url": "http://x"},
		"zipball_url": "http://x/z", "tarball_url": "http://x/t"}
}

func TestTags(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/tags", 200, []any{rawTag("v1", "c1", "c1", "commit message\n"), rawTag("v2", "t2", "c2", "Notes\n")})
	f.JSON("GET /api/v1/repos/o/r/tags/release/v2", 200, rawTag("release/v2", "t2", "c2", "Notes\n"))
	f.JSON("POST /api/v1/repos/o/r/tags", 201, rawTag("release/v3", "t3", "c3", "Three\n"))
	f.Handle("DELETE /api/v1/repos/o/r/tags/release/v2", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })

	res := f.Call(t, repo.Tools(), "list_tags", map[string]any{"owner": "o", "repo": "r"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"name":"v1","commit":"c1","annotated":false},
		{"name":"v2","commit":"c2","message":"Notes","annotated":true}],"page":1,"has_more":false}`, fakeforge.Text(t, res))

	res = f.Call(t, repo.Tools(), "get_tag", map[string]any{"owner": "o", "repo": "r", "tag": "release/v2"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"name":"release/v2","commit":"c2","message":"Notes","annotated":true}`, fakeforge.Text(t, res))

	res = f.Call(t, repo.Tools(), "create_tag", map[string]any{"owner": "o", "repo": "r", "tag": "release/v3", "target": "main", "message": "Three"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[2].Body, &sent))
	assert.Equal(t, map[string]any{"tag_name": "release/v3", "target": "main", "message": "Three"}, sent)

	res = f.Call(t, repo.Tools(), "delete_tag", map[string]any{"owner": "o", "repo": "r", "tag": "release/v2"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"tag":"release/v2"}`, fakeforge.Text(t, res))
	assert.Equal(t, "/api/v1/repos/o/r/tags/release/v2", f.Requests()[3].Path, "a tag with '/' travels part by part")
}

func TestTagErrors(t *testing.T) {
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"dot part", "get_tag", map[string]any{"tag": "a/../b"}, `tag: "a/../b" cannot be used in a forge API path: its part ".."`},
		{"encoded slash stays one part", "delete_tag", map[string]any{"tag": "a%2Fb"}, "tag a%2Fb in o/r not found (404)"},
		{"missing tag", "get_tag", map[string]any{"tag": "v9"}, "tag v9 in o/r not found (404): it does not exist or this token cannot see it; list_tags shows the tags"},
		{"used by a release", "delete_tag", map[string]any{"tag": "v1"}, "delete tag v1 in o/r: refused (409): a release uses it"},
		{"bad new name", "create_tag", map[string]any{"tag": "v1/"}, `tag: "v1/" cannot be used in a forge API path`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r", 200, rawRepo)
			f.JSON("DELETE /api/v1/repos/o/r/tags/v1", 409, map[string]string{"message": "a tag attached to a release cannot be deleted directly"})
			tc.args["owner"], tc.args["repo"] = "o", "r"
			res := f.Call(t, repo.Tools(), tc.tool, tc.args)
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
			for _, r := range f.Requests() {
				assert.NotContains(t, r.Path, "..")
			}
		})
	}
}

func TestDeleteBranch(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("DELETE /api/v1/repos/o/r/branches/feature/x", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	res := f.Call(t, repo.Tools(), "delete_branch", map[string]any{"owner": "o", "repo": "r", "branch": "feature/x"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"branch":"feature/x"}`, fakeforge.Text(t, res))
}

func TestDeleteBranchRefused(t *testing.T) {
	for _, tc := range []struct {
		name, branch, msg, want string
	}{
		{"default branch", "main", "can not delete default or pull request target branch",
			"delete branch main in alice/demo: refused (403): it is the repository's default branch; make another branch the default first"},
		{"pull request base", "base", "can not delete default or pull request target branch",
			"delete branch base in alice/demo: refused (403): it is the base of an open pull request; merge, close or retarget those first (list_repo_pull_requests)"},
		{"protected", "stable", "branch stable is protected",
			"delete branch stable in alice/demo: refused (403): the branch is protected; see list_branch_protections"},
		{"scope", "dev", "token does not have at least one of required scope(s): [write:repository]",
			"delete branch dev in alice/demo: permission denied (403): token does not have"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/alice/demo", 200, rawRepo) // default branch main
			f.JSON("DELETE /api/v1/repos/alice/demo/branches/"+tc.branch, 403, map[string]string{"message": tc.msg})
			res := f.Call(t, repo.Tools(), "delete_branch", map[string]any{"owner": "alice", "repo": "demo", "branch": tc.branch})
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}
}

func TestListCollaborators(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/collaborators", 200, []any{
		map[string]any{"id": 2, "login": "bob", "full_name": "Bob B", "avatar_url": "http://x/b", "email": "bob@example.com"}})
	res := f.Call(t, repo.Tools(), "list_collaborators", map[string]any{"owner": "o", "repo": "r", "limit": 5.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"login":"bob","full_name":"Bob B"}],"page":1,"has_more":false}`, fakeforge.Text(t, res))
	assert.Contains(t, f.Requests()[0].RawQuery, "limit=5")
}

func TestCreateTagMissing(t *testing.T) {
	for _, tc := range []struct {
		name       string
		repoStatus int
		target     string
		want       string
	}{
		{"repository", 404, "main", "repository o/r not found (404)"},
		{"target", 200, "nope", `target "nope" in o/r not found (404)`},
		{"target with a slash", 200, "no/pe", `target "no/pe" in o/r not found (404)`},
		{"default branch", 200, "", "the default branch in o/r not found (404)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r", tc.repoStatus, rawRepo)
			f.JSON("POST /api/v1/repos/o/r/tags", 404, map[string]string{"message": "target not found"})
			res := f.Call(t, repo.Tools(), "create_tag", map[string]any{"owner": "o", "repo": "r", "tag": "v1", "target": tc.target})
			require.True(t, res.IsError)
			assert.Contains(t, fakeforge.Text(t, res), tc.want)
		})
	}
}

func TestDeleteBranchMissing(t *testing.T) {
	for _, tc := range []struct {
		name       string
		repoStatus int
		want       string
	}{
		{"repository", 404, "repository o/r not found (404): it does not exist or this token cannot see it"},
		{"branch", 200, "branch gone/x in o/r not found (404): it does not exist or this token cannot see it; list_branches shows the branches"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r", tc.repoStatus, rawRepo)
			res := f.Call(t, repo.Tools(), "delete_branch", map[string]any{"owner": "o", "repo": "r", "branch": "gone/x"})
			require.True(t, res.IsError)
			assert.Equal(t, tc.want, fakeforge.Text(t, res))
		})
	}
}
