package release_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/release"
)

var rawAsset = map[string]any{
	"id": 11, "name": "app.tar.gz", "size": 1234, "download_count": 2, "created_at": "2026-01-02T03:04:05Z",
	"uuid": "0b7e-aaaa", "browser_download_url": "http://x/o/r/releases/download/v1.0/app.tar.gz",
}

// rawRelease is what the forge sends: far more than an agent needs.
var rawRelease = map[string]any{
	"id": 5, "tag_name": "v1.0", "target_commitish": "main", "name": "First", "body": "Notes.",
	"url": "http://x/api/v1/repos/o/r/releases/5", "html_url": "http://x/o/r/releases/tag/v1.0",
	"tarball_url": "http://x/o/r/archive/v1.0.tar.gz", "zipball_url": "http://x/o/r/archive/v1.0.zip",
	"upload_url": "http://x/api/v1/repos/o/r/releases/5/assets",
	"draft":      false, "prerelease": true, "created_at": "2026-01-02T03:04:05Z", "published_at": "2026-01-02T03:04:05Z",
	"author": map[string]any{"id": 1, "login": "alice", "avatar_url": "http://x/avatars/1", "email": "a@x"},
	"assets": []any{rawAsset},
}

func call(t *testing.T, f *fakeforge.Server, name string, args map[string]any) (bool, string) {
	t.Helper()
	res := f.Call(t, release.Tools(), name, args)
	return res.IsError, fakeforge.Text(t, res)
}

const fullRelease = `{"id":5,"tag":"v1.0","target":"main","name":"First","body":"Notes.","prerelease":true,
	"author":"alice","published_at":"2026-01-02T03:04:05Z","html_url":"http://x/o/r/releases/tag/v1.0",
	"assets":[{"id":11,"name":"app.tar.gz","size":1234}]}`

func TestGetReleaseCompact(t *testing.T) {
	for _, tc := range []struct {
		tool, route string
		args        map[string]any
	}{
		{"get_release_by_id", "GET /api/v1/repos/o/r/releases/5", map[string]any{"release_id": 5.0}},
		{"get_release_by_tag", "GET /api/v1/repos/o/r/releases/tags/v1.0", map[string]any{"tag": "v1.0"}},
		{"get_latest_release", "GET /api/v1/repos/o/r/releases/latest", map[string]any{}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			f := fakeforge.New(t)
			f.JSON(tc.route, 200, rawRelease)
			tc.args["owner"], tc.args["repo"] = "o", "r"
			isErr, text := call(t, f, tc.tool, tc.args)
			require.False(t, isErr, text)
			assert.JSONEq(t, fullRelease, text)
			raw, _ := json.Marshal(rawRelease)
			assert.Less(t, len(text)*2, len(raw), "compact is under half the forge's JSON")
		})
	}
}

// TestReleaseByTagRefusesSlashes: the tags route takes one segment, and a
// slash escaped as %2F is decoded by a proxy in front of the forge, so
// "../../victim" would reach another route there. Nothing is sent.
func TestReleaseByTagRefusesSlashes(t *testing.T) {
	for _, name := range []string{"get_release_by_tag", "delete_release_by_tag"} {
		for _, tag := range []string{"release/1.0", "../../victim", `..\x`} {
			f := fakeforge.New(t)
			f.JSON("GET /api/v1/repos/o/r/releases/tags/{tag}", 200, rawRelease)
			isErr, text := call(t, f, name, map[string]any{"owner": "o", "repo": "r", "tag": tag})
			require.True(t, isErr, text)
			assert.Contains(t, text, "a proxy in front of the forge may decode %2F")
			assert.Contains(t, text, "get_release_by_id")
			assert.Empty(t, f.Requests(), "%s %q", name, tag)
		}
	}
}

func TestReleaseErrors(t *testing.T) {
	f := fakeforge.New(t)
	isErr, text := call(t, f, "get_release_by_id", map[string]any{"owner": "o", "repo": "r", "release_id": 9.0})
	assert.True(t, isErr)
	assert.Equal(t, "release 9 in o/r not found (404): it does not exist or this token cannot see it", text)

	isErr, text = call(t, f, "get_latest_release", map[string]any{"owner": "o", "repo": "r"})
	assert.True(t, isErr)
	assert.Contains(t, text, "repository o/r has no published release")

	n := len(f.Requests())
	isErr, text = call(t, f, "delete_release_by_tag", map[string]any{"owner": "o", "repo": "r", "tag": ".."})
	assert.True(t, isErr)
	assert.Contains(t, text, "tag")
	assert.Len(t, f.Requests(), n, "a dot tag is refused before any request")
}

func TestListReleases(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("GET /api/v1/repos/o/r/releases", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<http://x/api/v1/repos/o/r/releases?page=3&limit=1>; rel="next"`)
		fakeforge.WriteJSON(w, 200, []any{rawRelease})
	})
	isErr, text := call(t, f, "list_releases", map[string]any{"owner": "o", "repo": "r", "page": 2.0, "limit": 1.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[{"id":5,"tag":"v1.0","name":"First","prerelease":true,
		"published_at":"2026-01-02T03:04:05Z","html_url":"http://x/o/r/releases/tag/v1.0","assets_count":1}],
		"page":2,"has_more":true}`, text)
	q := f.Requests()[0].RawQuery
	assert.Contains(t, q, "page=2")
	assert.Contains(t, q, "limit=1")
}

func TestCreateRelease(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/releases", 201, rawRelease)
	isErr, text := call(t, f, "create_release", map[string]any{"owner": "o", "repo": "r", "tag_name": "v1.0",
		"target": "main", "body": "Notes.", "prerelease": true})
	require.False(t, isErr, text)
	assert.JSONEq(t, fullRelease, text)
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[len(f.Requests())-1].Body, &sent))
	assert.Equal(t, map[string]any{"tag_name": "v1.0", "target_commitish": "main", "name": "v1.0",
		"body": "Notes.", "draft": false, "prerelease": true}, sent, "the title defaults to the tag")

	f2 := fakeforge.New(t)
	f2.JSON("POST /api/v1/repos/o/r/releases", 409, map[string]any{"message": "Release is has no Tag"})
	isErr, text = call(t, f2, "create_release", map[string]any{"owner": "o", "repo": "r", "tag_name": "v1.0"})
	assert.True(t, isErr)
	assert.Equal(t, "repository o/r already has a release for tag v1.0 (409): change it with edit_release, or pick another tag", text)

	f3 := fakeforge.New(t)
	isErr, text = call(t, f3, "create_release", map[string]any{"owner": "o", "repo": "r", "tag_name": "v1.0"})
	assert.True(t, isErr)
	assert.Equal(t, "repository o/r not found (404): it does not exist or this token cannot see it", text, "a release being created is never what is missing")

	f4 := fakeforge.New(t)
	f4.JSON("POST /api/v1/repos/o/r/releases", 404, map[string]any{"message": `target "nosuch" not found: object does not exist [id: nosuch, rel_path: ]`})
	isErr, text = call(t, f4, "create_release", map[string]any{"owner": "o", "repo": "r", "tag_name": "v1.0", "target": "nosuch"})
	assert.True(t, isErr)
	assert.Equal(t, `target "nosuch" (branch or commit) in o/r not found (404): it does not exist or this token cannot see it`, text)
}

func TestEditReleaseSendsOnlyGivenFields(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("PATCH /api/v1/repos/o/r/releases/5", 200, rawRelease)
	isErr, text := call(t, f, "edit_release", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0,
		"name": "First", "draft": false})
	require.False(t, isErr, text)
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[len(f.Requests())-1].Body, &sent))
	assert.Equal(t, "First", sent["name"])
	assert.Equal(t, false, sent["draft"])
	assert.Nil(t, sent["prerelease"], "an absent boolean is not sent")
	assert.Equal(t, "", sent["body"], "an empty body leaves the notes as they are")
}

func TestDeleteRelease(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("DELETE /api/v1/repos/o/r/releases/5", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })
	f.Handle("DELETE /api/v1/repos/o/r/releases/tags/v1.0", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })
	isErr, text := call(t, f, "delete_release", map[string]any{"owner": "o", "repo": "r", "release_id": 5.0})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"id":5}`, text)
	isErr, text = call(t, f, "delete_release_by_tag", map[string]any{"owner": "o", "repo": "r", "tag": "v1.0"})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"deleted":true,"tag":"v1.0"}`, text)
	isErr, text = call(t, f, "delete_release", map[string]any{"owner": "o", "repo": "r", "release_id": 6.0})
	assert.True(t, isErr)
	assert.Contains(t, text, "release 6 in o/r not found")
}
