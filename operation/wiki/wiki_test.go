package wiki_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"codeberg.org/forgejo-mcp/forgejo-mcp/internal/fakeforge"
	"codeberg.org/forgejo-mcp/forgejo-mcp/operation/wiki"
)

var rawCommit = map[string]any{
	"sha":       "abc123",
	"author":    map[string]any{"name": "alice", "email": "a@x", "date": "2026-01-02T03:04:05Z"},
	"committer": map[string]any{"name": "alice", "email": "a@x", "date": "2026-01-02T03:04:05Z"},
	"message":   "Update Home",
}

func rawPage(content string) map[string]any {
	return map[string]any{
		"title": "My Page", "sub_url": "My-Page%3F", "html_url": "http://x/o/r/wiki/My-Page",
		"last_commit": rawCommit, "content_base64": base64.StdEncoding.EncodeToString([]byte(content)),
		"commit_count": 2, "sidebar": "", "footer": "",
	}
}

func TestListWikiPages(t *testing.T) {
	f := fakeforge.New(t)
	p := rawPage("")
	delete(p, "content_base64")
	f.JSON("GET /api/v1/repos/o/r/wiki/pages", 200, []any{p, nil})
	res := f.Call(t, wiki.Tools(), "list_wiki_pages", map[string]any{"owner": "o", "repo": "r", "limit": 1.0, "page": 2.0})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"title":"My Page","page_name":"My-Page?","last_commit":{"sha":"abc123","author":"alice",
		"date":"2026-01-02T03:04:05Z","message":"Update Home"},"commit_count":2,"html_url":"http://x/o/r/wiki/My-Page"}],"page":2,"has_more":true}`,
		fakeforge.Text(t, res))
	assert.Equal(t, "limit=1&page=2", f.Requests()[0].RawQuery)
}

func TestGetWikiPageDecodesAndEscapes(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/wiki/page/{name}", 200, rawPage("# Hello\n"))
	res := f.Call(t, wiki.Tools(), "get_wiki_page", map[string]any{"owner": "o", "repo": "r", "page_name": "a b+c"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.Contains(t, fakeforge.Text(t, res), `"content":"# Hello\n"`)
	assert.Equal(t, "/api/v1/repos/o/r/wiki/page/a%20b+c", f.Requests()[0].Path)
}

// TestWikiPageNamesWithSlashesAreRefused: the page route takes one segment,
// a slash could only travel as %2F, and a proxy in front of the forge
// decodes that: "../../../victim" reached another repository there.
func TestWikiPageNamesWithSlashesAreRefused(t *testing.T) {
	for _, name := range []string{"get_wiki_page", "update_wiki_page", "delete_wiki_page", "get_wiki_revisions"} {
		for _, page := range []string{"a/b", "../../../victim", `..\..\..\victim`, "a?b", "a#b"} {
			f := fakeforge.New(t)
			args := map[string]any{"owner": "o", "repo": "r", "page_name": page}
			if name == "update_wiki_page" {
				args["content"] = "x"
			}
			res := f.Call(t, wiki.Tools(), name, args)
			require.True(t, res.IsError, "%s %q", name, page)
			assert.Contains(t, fakeforge.Text(t, res), "a proxy in front of the forge may decode")
			assert.Empty(t, f.Requests(), "%s %q", name, page)
		}
	}
}

func TestGetWikiPageNotFound(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, wiki.Tools(), "get_wiki_page", map[string]any{"owner": "o", "repo": "r", "page_name": "Nope"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `wiki page "Nope" in o/r not found (404)`)
}

func TestGetWikiPageRefusesDotSegments(t *testing.T) {
	f := fakeforge.New(t)
	res := f.Call(t, wiki.Tools(), "get_wiki_page", map[string]any{"owner": "o", "repo": "r", "page_name": ".."})
	assert.True(t, res.IsError)
	assert.Empty(t, f.Requests())
}

func TestCreateAndUpdateWikiPageSendBase64(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/wiki/new", 201, rawPage("text"))
	f.JSON("PATCH /api/v1/repos/o/r/wiki/page/My-Page", 200, rawPage("text"))
	f.JSON("GET /api/v1/repos/o/r/wiki/page/My-Page", 200, rawPage("old"))
	res := f.Call(t, wiki.Tools(), "create_wiki_page", map[string]any{"owner": "o", "repo": "r", "title": "My Page", "content": "text", "message": "m"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.NotContains(t, fakeforge.Text(t, res), "content", "the content is not echoed back")
	var sent map[string]any
	require.NoError(t, json.Unmarshal(f.Requests()[0].Body, &sent))
	assert.Equal(t, map[string]any{"title": "My Page", "content_base64": "dGV4dA==", "message": "m"}, sent)

	res = f.Call(t, wiki.Tools(), "update_wiki_page", map[string]any{"owner": "o", "repo": "r", "page_name": "My-Page", "content": "text"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	sent = nil
	require.Len(t, f.Requests(), 3)
	assert.Equal(t, "GET", f.Requests()[1].Method, "the current title is kept: the forge would rename the page to \"unnamed\"")
	require.NoError(t, json.Unmarshal(f.Requests()[2].Body, &sent))
	assert.Equal(t, map[string]any{"title": "My Page", "content_base64": "dGV4dA=="}, sent)
}

func TestCreateWikiPageForbidden(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("POST /api/v1/repos/o/r/wiki/new", 403, map[string]string{"message": "token does not have at least one of required scope(s): [write:repository]"})
	res := f.Call(t, wiki.Tools(), "create_wiki_page", map[string]any{"owner": "o", "repo": "r", "title": "T", "content": "x"})
	assert.True(t, res.IsError)
	assert.Contains(t, fakeforge.Text(t, res), `create wiki page "T" in o/r: permission denied (403)`)
}

func TestDeleteWikiPage(t *testing.T) {
	f := fakeforge.New(t)
	f.Handle("DELETE /api/v1/repos/o/r/wiki/page/My-Page", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	res := f.Call(t, wiki.Tools(), "delete_wiki_page", map[string]any{"owner": "o", "repo": "r", "page_name": "My-Page"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"deleted":true,"page_name":"My-Page"}`, fakeforge.Text(t, res))
}

func TestWikiRevisions(t *testing.T) {
	f := fakeforge.New(t)
	f.JSON("GET /api/v1/repos/o/r/wiki/revisions/Home", 200, map[string]any{"commits": []any{rawCommit}, "count": 51})
	res := f.Call(t, wiki.Tools(), "get_wiki_revisions", map[string]any{"owner": "o", "repo": "r", "page_name": "Home"})
	require.False(t, res.IsError, fakeforge.Text(t, res))
	assert.JSONEq(t, `{"items":[{"sha":"abc123","author":"alice","date":"2026-01-02T03:04:05Z","message":"Update Home"}],"page":1,"has_more":true}`,
		fakeforge.Text(t, res))
	assert.Equal(t, "page=1", f.Requests()[0].RawQuery)
}
