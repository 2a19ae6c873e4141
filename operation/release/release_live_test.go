package release_test

// Live tests against the throw-away forge of scripts/test-forge (Gitea 1.26).
// Run: scripts/test-forge run -- go test -count=1 -run Live ./operation/release/

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/testforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation"
)

type liveRelease struct {
	ID         int64  `json:"id"`
	Tag        string `json:"tag"`
	Target     string `json:"target"`
	Name       string `json:"name"`
	Body       string `json:"body"`
	Draft      bool   `json:"draft"`
	Prerelease bool   `json:"prerelease"`
	Author     string `json:"author"`
	Assets     []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Size int64  `json:"size"`
	} `json:"assets"`
}

func liveCaller(t *testing.T, f *testforge.Forge, owner, repo string) func(string, map[string]any) (bool, string) {
	return func(name string, args map[string]any) (bool, string) {
		t.Helper()
		args["owner"], args["repo"] = owner, repo
		res := f.Call(t, operation.All(), name, args)
		return res.IsError, fakeforge.Text(t, res)
	}
}

func TestLiveReleaseLifecycle(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := liveCaller(t, f, owner, repo)

	isErr, text := call("get_latest_release", map[string]any{})
	assert.True(t, isErr)
	assert.Contains(t, text, "has no published release", text)

	isErr, text = call("create_release", map[string]any{"tag_name": "v1.0", "target": "main", "body": "First **notes**"})
	require.False(t, isErr, text)
	var created liveRelease
	require.NoError(t, json.Unmarshal([]byte(text), &created))
	assert.Equal(t, "v1.0", created.Tag)
	assert.Equal(t, "v1.0", created.Name, "the title defaults to the tag")
	assert.Equal(t, "First **notes**", created.Body)
	assert.Equal(t, f.User, created.Author)

	// Compact against raw.
	var raw json.RawMessage
	f.Do(t, "GET", fmt.Sprintf("/repos/%s/%s/releases/%d", owner, repo, created.ID), nil, &raw)
	t.Logf("get_release_by_id: compact %d bytes, forge JSON %d bytes", len(text), len(raw))

	isErr, text = call("create_release", map[string]any{"tag_name": "v1.0"})
	assert.True(t, isErr, "a second release for a tag is refused")
	assert.Contains(t, text, "already has a release for tag v1.0 (409)")

	isErr, text = call("create_release", map[string]any{"tag_name": "release/2.0-rc1", "target": "main", "name": "RC",
		"prerelease": true, "draft": true})
	require.False(t, isErr, text)
	var rc liveRelease
	require.NoError(t, json.Unmarshal([]byte(text), &rc))
	assert.True(t, rc.Draft)
	assert.True(t, rc.Prerelease)

	isErr, text = call("get_release_by_tag", map[string]any{"tag": "v1.0"})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"body":"First **notes**"`)

	isErr, text = call("get_release_by_id", map[string]any{"release_id": float64(rc.ID)})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"tag":"release/2.0-rc1"`)

	isErr, text = call("get_latest_release", map[string]any{})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"tag":"v1.0"`, "a draft is not the latest release")

	isErr, text = call("list_releases", map[string]any{"limit": 1.0})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"has_more":true`)
	assert.Contains(t, text, `"assets_count":0`)
	assert.NotContains(t, text, "notes")

	isErr, text = call("edit_release", map[string]any{"release_id": float64(rc.ID), "draft": false, "name": "RC 1"})
	require.False(t, isErr, text)
	var edited liveRelease
	require.NoError(t, json.Unmarshal([]byte(text), &edited))
	assert.False(t, edited.Draft)
	assert.True(t, edited.Prerelease, "an absent field stays")
	assert.Equal(t, "RC 1", edited.Name)

	isErr, text = call("get_release_by_tag", map[string]any{"tag": "nope"})
	assert.True(t, isErr)
	assert.Contains(t, text, fmt.Sprintf("release nope in %s/%s not found", owner, repo))

	// The second user cannot see the private repository's releases.
	res := f.WithToken(f.Token2).Call(t, operation.All(), "get_release_by_id",
		map[string]any{"owner": owner, "repo": repo, "release_id": float64(rc.ID)})
	assert.True(t, res.IsError)

	// A slashed tag cannot travel as one route segment behind a decoding
	// proxy: refused with the way round it, and the release is still there.
	isErr, text = call("delete_release_by_tag", map[string]any{"tag": "release/2.0-rc1"})
	require.True(t, isErr, text)
	assert.Contains(t, text, "use its id")
	isErr, text = call("delete_release", map[string]any{"release_id": float64(rc.ID)})
	require.False(t, isErr, text)
	isErr, text = call("delete_release", map[string]any{"release_id": float64(created.ID)})
	require.False(t, isErr, text)
	isErr, text = call("delete_release", map[string]any{"release_id": float64(created.ID)})
	assert.True(t, isErr)
	assert.Contains(t, text, "not found")
	isErr, text = call("list_releases", map[string]any{})
	require.False(t, isErr, text)
	assert.JSONEq(t, `{"items":[],"page":1,"has_more":false}`, text)
}

func TestLiveReleaseAttachments(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := liveCaller(t, f, owner, repo)

	isErr, text := call("create_release", map[string]any{"tag_name": "v0.1"})
	require.False(t, isErr, text)
	var rel liveRelease
	require.NoError(t, json.Unmarshal([]byte(text), &rel))
	id := float64(rel.ID)

	data := []byte("release notes file\n")
	isErr, text = call("create_release_attachment", map[string]any{"release_id": id, "filename": "notes.txt",
		"content": base64.StdEncoding.EncodeToString(data)})
	require.False(t, isErr, text)
	var att struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Size int64  `json:"size"`
	}
	require.NoError(t, json.Unmarshal([]byte(text), &att))
	assert.Equal(t, "notes.txt", att.Name)
	assert.Equal(t, int64(len(data)), att.Size)
	aid := float64(att.ID)

	isErr, text = call("list_release_attachments", map[string]any{"release_id": id})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"name":"notes.txt"`)

	isErr, text = call("get_release_by_id", map[string]any{"release_id": id})
	require.False(t, isErr, text)
	assert.Contains(t, text, fmt.Sprintf(`"assets":[{"id":%d,"name":"notes.txt","size":%d}]`, att.ID, len(data)))

	isErr, text = call("get_release_attachment", map[string]any{"release_id": id, "attachment_id": aid})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"browser_download_url"`)

	res := f.Call(t, operation.All(), "download_release_attachment",
		map[string]any{"owner": owner, "repo": repo, "release_id": id, "attachment_id": aid})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"inline":true`)
	require.Len(t, res.Content, 2)
	file, ok := res.Content[1].(mcp.TextContent)
	require.True(t, ok, "a text file arrives as text: %T", res.Content[1])
	assert.Equal(t, string(data), file.Text, "the bytes arrive")

	isErr, text = call("edit_release_attachment", map[string]any{"release_id": id, "attachment_id": aid, "name": "renamed.txt"})
	require.False(t, isErr, text)
	assert.Contains(t, text, `"name":"renamed.txt"`)

	isErr, text = call("delete_release_attachment", map[string]any{"release_id": id, "attachment_id": aid})
	require.False(t, isErr, text)
	isErr, text = call("get_release_attachment", map[string]any{"release_id": id, "attachment_id": aid})
	assert.True(t, isErr)
	assert.Contains(t, text, "not found")
	isErr, text = call("list_release_attachments", map[string]any{"release_id": id})
	require.False(t, isErr, text)
	assert.Equal(t, `{"items":[],"page":1,"has_more":false}`, text)
}

// TestLiveCreateReleaseNamesWhatIsMissing: a release being created is never
// what is missing; a missing target or repository is named instead.
func TestLiveCreateReleaseNamesWhatIsMissing(t *testing.T) {
	f := testforge.Get(t)
	owner, repo := f.NewRepo(t)
	call := liveCaller(t, f, owner, repo)
	isErr, text := call("create_release", map[string]any{"tag_name": "v9", "target": "nosuch"})
	require.True(t, isErr)
	assert.Equal(t, fmt.Sprintf(`target "nosuch" (branch or commit) in %s/%s not found (404): it does not exist or this token cannot see it`, owner, repo), text)
	isErr, text = liveCaller(t, f, owner, "nosuchrepo")("create_release", map[string]any{"tag_name": "v9"})
	require.True(t, isErr)
	assert.Equal(t, fmt.Sprintf("repository %s/nosuchrepo not found (404): it does not exist or this token cannot see it", owner), text)
}
